#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check a MODULE_LICENSE() removal series (kallmodsyms-audit --patches):
# each patch applies alone to the pristine tree (patch -p1 --dry-run
# -F0) and only removes lines, each a whole MODULE_LICENSE("...");
# statement or a blank line; with all of them applied (to a hard-linked copy, which patch
# does not write through), every touched file that x86_64 can compile
# still compiles, "make path/file.o" in an allyesconfig tree: no kernel
# is linked.  kbuild compiles a single object whatever the config says,
# so another architecture's file is tried too; one that fails is tried
# again as it was before the series: failing then as well, it is a file
# x86_64 cannot compile (its own architecture's headers), and the
# removal of one statement line is all that was checked of it.
# Prints one line per file (compiles; FAILS: compiles without the series,
# not with it; otherarch: fails with and without; notbuilt: kbuild has no
# rule for it) and a summary; exits 1 on a failure.
#
# usage: scripts/compile-module-license-series.sh SERIES SRCTREE WORKDIR
#   SERIES   the directory --patches wrote (its "series" file)
#   SRCTREE  the pristine tree it was made from (only read)
#   WORKDIR  scratch: WORKDIR/src, the patched copy; WORKDIR/obj, the
#            allyesconfig build (kept, so a second run compiles less)
# Runs make under nice -n 10 with KMS_JOBS jobs (default 1).
set -uo pipefail
[ $# = 3 ] || { echo "usage: $0 SERIES SRCTREE WORKDIR" >&2; exit 2; }
die() { echo "compile-module-license-series.sh: $*" >&2; exit 1; }
mkdir -p "$3" || exit 1
series=$(realpath "$1") pristine=$(realpath "$2") work=$(realpath "$3")
src=$work/src obj=$work/obj

[ -f "$series/series" ] || die "$series/series: missing"
applies=0
while read -r p; do
	patch -p1 --dry-run -F0 -s -f -d "$pristine" < "$series/$p" > /dev/null ||
		die "$p does not apply alone to $pristine"
	applies=$((applies + 1))
done < "$series/series"
# What the series changes: removed lines only, statements or blank.
bad=$(awk '/^diff --git / { diff = 1 } /^-- $/ { diff = 0 }
	diff && /^[-+]/ && !/^(---|\+\+\+) /' "$series"/0*.patch |
	grep -Ev '^-(MODULE_LICENSE\("[^"]*"\);)?$')
[ -z "$bad" ] || die "the series changes more than MODULE_LICENSE() lines: ${bad%%$'\n'*}"

if [ ! -d "$src" ]; then
	cp -al "$pristine" "$src.tmp" || die "cannot copy $pristine"
	while read -r p; do
		patch -p1 -F0 -s -d "$src.tmp" < "$series/$p" > /dev/null ||
			die "$p does not apply after the ones before it"
	done < "$series/series"
	mv "$src.tmp" "$src"
fi
kmake() { nice -n 10 make -C "$src" O="$obj" ARCH=x86_64 "$@"; }
[ -f "$obj/.config" ] || kmake -s allyesconfig > "$work/config.log" 2>&1 ||
	die "allyesconfig failed: $work/config.log"

mapfile -t files < <(sed -n 's|^diff --git a/\([^ ]*\) .*|\1|p' \
	"$series"/0*.patch | sort -u)
targets=()
for f in "${files[@]}"; do
	targets+=("${f%.c}.o")
	rm -f "$obj/${f%.c}.o"
done
kmake -k -j"${KMS_JOBS:-1}" "${targets[@]}" > "$work/build.log" 2>&1

# Files that do not compile with the series, as they were before it.
failed=()
for f in "${files[@]}"; do
	o=${f%.c}.o
	[ -f "$obj/$o" ] ||
		grep -qF "No rule to make target '$o'" "$work/build.log" ||
		failed+=("$f")
done
for f in "${failed[@]}"; do
	mv "$src/$f" "$src/$f.kms-patched" && cp "$pristine/$f" "$src/$f" ||
		die "cannot put back $f"
done
[ ${#failed[@]} = 0 ] ||
	kmake -k -j"${KMS_JOBS:-1}" "${failed[@]/%.c/.o}" > "$work/pristine.log" 2>&1
before=()
for f in "${failed[@]}"; do
	[ -f "$obj/${f%.c}.o" ] && before+=("$f")
	rm -f "$obj/${f%.c}.o"
	mv "$src/$f.kms-patched" "$src/$f" || die "cannot restore $f"
done

compiles=0 fails=0 notbuilt=0 otherarch=0
for f in "${files[@]}"; do
	o=${f%.c}.o
	if [ -f "$obj/$o" ]; then
		echo "compiles $f"
		compiles=$((compiles + 1))
	elif grep -qF "No rule to make target '$o'" "$work/build.log"; then
		echo "notbuilt $f"
		notbuilt=$((notbuilt + 1))
	elif printf '%s\n' "${before[@]}" | grep -qxF "$f"; then
		echo "FAILS $f"
		fails=$((fails + 1))
	else
		echo "otherarch $f"
		otherarch=$((otherarch + 1))
	fi
done
echo "$applies patches apply alone; ${#files[@]} files: $compiles compile," \
	"$fails fail, $otherarch do not compile for x86_64 with or without the" \
	"series, $notbuilt not built by x86_64 allyesconfig"
[ "$fails" = 0 ]
