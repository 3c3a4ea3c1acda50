#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that no two files of the C code call each other (or use each
# other's variables), directly or through others: the file-level graph of
# sidecar/lib, sidecar/inputs, sidecar/gen, tools, tools/inspector and
# tools/audit has no cycle.  The includes cannot show it
# (scripts/check-layers.sh checks those): one private header declares a
# folder's functions to all its files.
#
# The graph is read from the built objects' symbols (nm): a file uses
# another when it has an undefined reference (U) to a global function
# (T, W) or variable (D, B, R, V) the other defines.  A name defined in
# the user's own folder is that file's; otherwise it must be defined in
# one file only.  Static functions cannot cross files and do not count.
#
# A depth-first walk over the files reports a cycle at each use that
# closes one (every cycle has such a use, so none goes unreported, though
# cycles that share it are named by one of them), printed as
# "a.c -> b.c -> a.c", then each use in it with the names used.
#
# usage: scripts/check-cycles.sh   (from anywhere; builds the objects
# into build/ first with make -s; prints each cycle, exits 1 if there is
# any)

set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=SCRIPTDIR/graph.sh
. scripts/graph.sh

build=build
bad=0

fail() {
	echo "check-cycles: $*"
	bad=1
}

make -s O="$build"

# The Makefile's sources: every .c of these folders.
files=(sidecar/lib/*.c sidecar/inputs/*.c sidecar/gen/*.c
	tools/inspector/*.c tools/audit/*.c)
declare -A definer=()	# "folder symbol" -> the file of that folder
declare -A definers=()	# symbol -> every file defining it
declare -A uses=()	# file -> the symbols it references

objs=()
for f in "${files[@]}"; do
	if [ -f "$build/${f%.c}.o" ]; then
		objs+=("$build/${f%.c}.o")
	else
		fail "$f: no $build/${f%.c}.o: not built by make"
	fi
done
[ $bad = 0 ] || exit 1
# One nm for all: "build/dir/file.o: symbol type [value size]".
while read -r obj sym type _; do
	f=${obj#"$build"/}
	f=${f%.o:}.c
	case $type in
	T|W|D|B|R|V)
		definer["${f%/*} $sym"]=$f
		definers[$sym]+=" $f"
		;;
	U)
		uses[$f]+=" $sym"
		;;
	esac
done < <(nm -A -P -g "${objs[@]}")

# Into $used: the file that defines @2 for user @1, or nothing (the C
# library's, libelf's...).
resolve() {
	local d

	used=${definer["${1%/*} $2"]:-}
	[ -z "$used" ] || return 0
	read -ra d <<< "${definers[$2]:-}"
	if [ "${#d[@]}" -gt 1 ]; then
		fail "$1: uses $2, defined in ${d[*]}, none in its own folder"
	elif [ "${#d[@]}" = 1 ]; then
		used=${d[0]}
	fi
}

declare -A edges=()	# file -> the files it uses
declare -A via=()	# "user used" -> the names it uses
for f in "${files[@]}"; do
	for sym in ${uses[$f]:-}; do
		resolve "$f" "$sym"
		t=$used
		[ -n "$t" ] || continue
		[ -n "${via["$f $t"]:-}" ] || edges[$f]+=" $t"
		via["$f $t"]+=" $sym"
	done
done

# A cycle: its files in order, the first again at the end.
on_cycle() {
	local path=("$@") i line

	line=$(printf ' -> %s' "$@")
	fail "cycle: ${line# -> }"
	for ((i = 0; i + 1 < ${#path[@]}; i++)); do
		echo "	${path[i]} -> ${path[i + 1]}:${via["${path[i]} ${path[i + 1]}"]}"
	done
}
graph_cycles "${files[@]}"

if [ $bad = 0 ]; then
	echo "check-cycles: ${#files[@]} files, no two that use each other, directly or not"
fi
exit $bad
