#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# Replay every seed and every regression input of the fuzz targets through
# the tools themselves (not the fuzz harnesses): each run exits 0 or 1, a
# failure says so in one line, leaves no output file, and nothing crashes
# or trips a sanitizer or valgrind.  Plain and ASan runs replay the whole
# corpora; under valgrind (about a second a run) every regression and
# every tenth corpus input, by name: the campaign's corpora (about 1,300
# runs) would take 20 minutes there, and ASan already sees each input.
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

# The inputs of target $1: its regressions, and its corpus (under
# valgrind, every tenth file in name order).
inputs() {
	local step=1
	[ "${KMS_MODE:-plain}" != valgrind ] || step=10
	[ -d "$tests_dir/fuzz/corpus/$1" ] &&
		find "$tests_dir/fuzz/corpus/$1" -type f ! -name '.*' | sort |
		awk -v step="$step" '(NR - 1) % step == 0'
	[ -d "$tests_dir/fuzz/regressions/$1" ] &&
		find "$tests_dir/fuzz/regressions/$1" -type f ! -name '.*' | sort
	return 0
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
