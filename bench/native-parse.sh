#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's boot-time parse of the note, natively: kernel/kallmodsyms.c
# of the series, built for userspace over tests/fuzz/kshim (the conformance
# corpus's kms-kernel-judge), run on the note of each kernel's vmlinux, as
# the kernel runs it at boot (find the note in its section, check the
# header, decompress, check and restore the tables, make the tables it
# keeps).  Peers: the library's decoder
# on the same note (kms-judge, as `kallmodsyms -t` loads it: the same
# checks, libzstd's one-shot decompression), and the 1 ms budget issue
# #22 sets for the parse.  Each figure is the median over ROUNDS runs of one process parsing the
# note N times (default 200), divided by N.
#
# usage: bench/native-parse.sh [CONFIG...]   (default: small defconfig)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig)
rounds=${ROUNDS:-7}
n=${N:-200}
make -s build/kms-kernel-judge build/kms-judge

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# per_parse PROG: microseconds per parse of $tmp/notes by PROG (median).
per_parse() {
	local prog=$1 i times=()
	for ((i = 0; i < rounds; i++)); do
		times+=("$(seconds "$prog" "${files[@]}")")
	done
	gawk -v s="$(median "${times[@]}")" -v n="$n" \
		'BEGIN { printf "%.1f\n", s * 1e6 / n }'
}

row_header "note parse, native"
for config in "${configs[@]}"; do
	kbuild=$(tests/kernel/build.sh "$config")
	objcopy -O binary --only-section=.note.kallmodsyms "$kbuild/vmlinux" \
		"$tmp/notes"
	files=()
	for ((i = 0; i < n; i++)); do
		files+=("$tmp/notes")
	done
	# Both must accept it, or the figures mean nothing.
	build/kms-kernel-judge "$tmp/notes" | grep -q ' accept ' ||
		{ note "$config: the kernel's parser refuses the note"; exit 1; }
	build/kms-judge "$tmp/notes" | grep -q ' accept ' ||
		{ note "$config: the library refuses the note"; exit 1; }
	kernel=$(per_parse build/kms-kernel-judge)
	row "$config: kernel parser (kshim) vs library decoder" \
		"$kernel" "$(per_parse build/kms-judge)" us
	row "$config: kernel parser vs the 1 ms budget" "$kernel" 1000 us 1.0
done
