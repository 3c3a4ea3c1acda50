#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan kernels=6.12 toolchains=gcc,arm64 configs=small-dwarf
#
# kallmodsyms-gen --dwarf -S SRCTREE --config FILE, as for a distribution's
# kernel without modules.builtin.ranges (Debian does not enable
# CONFIG_BUILTIN_MODULE_RANGES): on the small kernel built with DWARF and
# the ranges file, the multi-object modules the sources' Makefiles give
# must be those modules.builtin.ranges gives.  Text: the same tables, byte
# for byte, so the same [module] for every symbol.  Every class: the same
# [module]s but where the ranges file has no entry (6.12's covers neither
# __modver nor .data..percpu), and there the build tree's.  A module that
# stays unknown has no text in the ranges file either.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small-dwarf
cd "$tmp" || exit 1
vmlinux=$kbuild/vmlinux
for f in modules.builtin modules.builtin.modinfo modules.builtin.ranges \
	.config source/Makefile; do
	[ -s "$kbuild/$f" ] || { fail "$kbuild/$f is missing"; finish; }
done
builtin=(-B "$kbuild/modules.builtin" --modinfo "$kbuild/modules.builtin.modinfo")
ranges=(--ranges "$kbuild/modules.builtin.ranges")
srctree=(-S "$kbuild/source" --config "$kbuild/.config")

# gen NAME ARGS...: NAME.kms, NAME.list, NAME.explain and NAME.stats.
gen() {
	local name=$1
	shift
	kms_gen -q --dwarf -s -e "${builtin[@]}" "$@" -f sidecar \
		-o "$name.kms" "$vmlinux" > "$name.explain" 2> "$name.stats" ||
		{ fail "generate $name"; cat "$name.stats" >&2; }
	kms list -t "$name.kms" "$vmlinux" > "$name.list" || fail "list $name"
}

# Text: the same tables.
gen ranges "${ranges[@]}"
gen srctree "${srctree[@]}"
assert_same ranges.kms srctree.kms "--dwarf -S and --dwarf --ranges"
grep '^modules-from' srctree.stats
grep -q '^modules-from makefiles by-path [1-9][0-9]* by-makefiles [1-9][0-9]* unknown [0-9]*$' srctree.stats ||
	fail "srctree: $(cat srctree.stats)"

# The modules still unknown have no text in modules.builtin.ranges: the
# ranges file's modules of text, against the ones -S leaves unknown.
sed -n 's,^module \([^:]*\): objects unknown.*,\1,p' srctree.explain |
	sed 's,.*/,,; s,-,_,g' | sort > unknown
gawk '$1 ~ /text/ && $3 != "=" { for (i = 3; i <= NF; i++) print $i }' \
	"$kbuild/modules.builtin.ranges" | tr - _ | sort -u > with-text
echo "unknown with -S: $(tr '\n' ' ' < unknown)"
testrun_empty comm -12 unknown with-text

# Every class: where the [module]s differ, the ranges file has nothing
# and the build tree's tables agree with -S.
gen ranges-all --all-classes "${ranges[@]}"
gen srctree-all --all-classes "${srctree[@]}"
"$KMS_BUILD/kallmodsyms-gen" -q --all-classes -f sidecar -o build-all.kms \
	"$vmlinux" || fail "generate --all-classes (build tree)"
"$KMS_BUILD/kallmodsyms" list -t build-all.kms "$vmlinux" > build-all.list ||
	fail "list --all-classes (build tree)"
# modules FILE: each symbol's [module]s alone.
modules() { gawk -F '\t' '{ m = $2; gsub(/ ?\{[^}]*\}/, "", m); print $1 "\t" m }' "$1"; }
modules ranges-all.list > ranges-all.mods
modules srctree-all.list > srctree-all.mods
modules build-all.list > build-all.mods
paste -d '\n' ranges-all.mods srctree-all.mods build-all.mods | gawk '
	NR % 3 == 1 { r = $0; next }
	NR % 3 == 2 { s = $0; next }
	r != s { differ++; if (s != $0) print "ranges: " r "; -S: " s "; build tree: " $0 }
	END { printf "every class: %d symbols whose [module]s differ from the ranges file'"'"'s, each as in the build tree\n", differ > "/dev/stderr" }' \
	> all-diffs
[ -s all-diffs ] && { fail "every class: -S differs from the build tree"; head -20 all-diffs >&2; }

finish
