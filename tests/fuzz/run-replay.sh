#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# Replay every seed and every regression input of the fuzz targets through
# the tools themselves (not the fuzz harnesses), in all three modes: each
# run exits 0 or 1, a failure says so in one line, leaves no output file,
# and nothing crashes or trips a sanitizer or valgrind.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fx=$(fixture relocatable)
cd "$tmp" || exit 1
cp -a "$fx"/. .
cp fs/ext9/.inode.o.cmd inode.cmd.saved
count=0

# check WHAT PREFIX CMD...: run it, judge its exit and stderr.
check() {
	local what=$1 prefix=$2 status=0
	shift 2
	rm -f out.kms
	"$@" > /dev/null 2> stderr || status=$?
	count=$((count + 1))
	case $status in
	0) rm -f out.kms ;;
	1)
		if [ "$(wc -l < stderr)" != 1 ] || ! grep -q "^$prefix: " stderr; then
			fail "$what: exit 1 without one \"$prefix: \" line"
			head -n 5 stderr >&2
		fi
		assert_absent out.kms
		;;
	*)
		fail "$what: exit $status"
		head -n 20 stderr >&2
		;;
	esac
}

inputs() {
	local d
	for d in "$tests_dir/fuzz/corpus/$1" "$tests_dir/fuzz/regressions/$1"; do
		[ -d "$d" ] && find "$d" -type f ! -name '.*'
	done | sort
}

for f in $(inputs blob) $(inputs kernel_note) $(inputs kernel_image); do
	check "$f" kallmodsyms kms dump -t "$f" vmlinux
	check "$f" kallmodsyms kms lookup -t "$f" vmlinux 0xffffffff81000000
done
for f in $(inputs linker_map); do
	check "$f" kallmodsyms-gen kms_gen -q -f sidecar -o out.kms -m "$f" vmlinux
	check "$f" kallmodsyms-gen kms_gen -q -f sidecar -o out.kms -M "$f" vmlinux
done
# kbuild inputs: a first byte even for modules.builtin, odd for a .cmd file.
for f in $(inputs kbuild); do
	tail -c +2 "$f" > input
	if [ $(( $(od -An -tu1 -N1 "$f") % 2 )) = 0 ]; then
		check "$f" kallmodsyms-gen kms_gen -q -f sidecar -o out.kms -B input vmlinux
	else
		cp input fs/ext9/.inode.o.cmd
		check "$f" kallmodsyms-gen kms_gen -q -f sidecar -o out.kms vmlinux
		cp inode.cmd.saved fs/ext9/.inode.o.cmd
	fi
done
[ "$count" -gt 20 ] || fail "only $count runs: where are the corpora?"
echo "$count runs"
finish
