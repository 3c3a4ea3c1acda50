#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel parser is in two series, kernel-patches/6.12 and
# kernel-patches/6.1, and nothing but this keeps the two copies in step,
# as the kernel's tools/objtool/sync-check.sh keeps objtool's copies of
# kernel headers.  The files both series create, as the reader patches and
# the two after them leave them (6.12's 0005-0008, 6.1's 0003-0006: what
# both series have; 6.12's later patches extend them),
# are extracted from each series (tests/fuzz/extract-kernel.sh) and
# compared, allowing only the differences listed below, each with its
# reason.  A difference fails with one line naming the file and the
# first line that differs.
#
# usage: scripts/sync-check.sh   (from anywhere; exit 1 on a difference)

set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
files=(kernel/kallmodsyms.c kernel/kallmodsyms_test.c
       include/linux/kallmodsyms.h include/linux/kallmodsyms_reasons.h)
declare -A range=([6.12]='000[5-8]' [6.1]='000[3-6]')
for v in 6.12 6.1; do
	tests/fuzz/extract-kernel.sh "kernel-patches/$v" "$scratch/$v" \
		"${range[$v]}" "${files[@]}"
done

# The differences 6.1's copy may have: diff -I patterns (basic regular
# expressions: a hunk whose lines all match one is no difference), by file.
declare -A allowed=(
	# get_unaligned_le*() come from <asm/unaligned.h> in 6.1, from
	# <linux/unaligned.h> since 6.12.
	[kernel/kallmodsyms.c]='^#include <\(linux\|asm\)/unaligned\.h>$'
)

status=0
for f in "${files[@]}"; do
	a=$scratch/6.12/$f b=$scratch/6.1/$f
	if [ ! -f "$a" ] || [ ! -f "$b" ]; then
		echo "sync-check: $f: not created by 6.12's 0005-0008 and 6.1's 0003-0006"
		status=1
		continue
	fi
	opts=()
	[ -z "${allowed[$f]:-}" ] || opts=(-I "${allowed[$f]}")
	if ! d=$(diff "${opts[@]}" "$a" "$b"); then
		# The first hunk: "NcM", "NaM" or "NdM", then its first line.
		line=${d%%[acd]*}
		line=${line%%,*}
		text=$(sed -n '2{s/^[<>] //;p}' <<< "$d")
		echo "sync-check: $f differs between the 6.12 and 6.1 series at 6.12's line $line: $text"
		status=1
	fi
done
[ $status -ne 0 ] ||
	echo "sync-check: ${files[*]}: the 6.12 and 6.1 series' copies agree"
exit $status
