#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Resolve the same N text addresses of the small kernel built with DWARF
# (default 100,000, drawn from its text symbols) with `kallmodsyms lookup`,
# `eu-addr2line -f` and binutils' `addr2line -f`, each reading all of them
# on stdin in one process; the median of RUNS runs counts.  The peers
# answer another question (function and file:line from DWARF) on the same
# input: this is what a tracer pays per address for each kind of answer.
#
# usage: bench/lookup-vs-addr2line.sh [N]
# Environment: RUNS (default 3)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
n=${1:-100000}
runs=${RUNS:-3}

make -s build/kallmodsyms
kbuild=$(tests/kernel/build.sh small-dwarf)
vmlinux=$kbuild/vmlinux
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# N addresses inside text symbols, spread over the whole image.
nm -n -S "$vmlinux" |
	gawk '$3 ~ /^[tT]$/ && $2 != "0000000000000000" { print $1 }' \
	> "$tmp/text"
gawk -v n="$n" 'BEGIN { srand(1) } { a[NR] = $1 }
	END { for (i = 0; i < n; i++) print a[int(rand() * NR) + 1] }' \
	"$tmp/text" > "$tmp/addrs"

# timed NAME CMD...: median seconds of CMD reading the addresses.
timed() {
	local name=$1 t=() i start end
	shift
	for ((i = 0; i < runs; i++)); do
		start=$(date +%s.%N)
		"$@" < "$tmp/addrs" > "$tmp/$name.out" 2> /dev/null || true
		end=$(date +%s.%N)
		t+=("$(gawk -v a="$start" -v b="$end" \
			'BEGIN { printf "%.4f", b - a }')")
	done
	median "${t[@]}"
}

kms=$(timed kms build/kallmodsyms lookup "$vmlinux" -)
eu=$(timed eu eu-addr2line -f -e "$vmlinux")
bu=$(timed bu addr2line -f -e "$vmlinux")
# Each tool answered every address (eu-/addr2line: two lines each).
[ "$(wc -l < "$tmp/kms.out")" = "$n" ] &&
	[ "$(wc -l < "$tmp/eu.out")" = "$((2 * n))" ] &&
	[ "$(wc -l < "$tmp/bu.out")" = "$((2 * n))" ] ||
	{ note "a tool did not answer every address"; exit 1; }
note "lookups/s: kallmodsyms $(gawk -v n="$n" -v t="$kms" 'BEGIN { printf "%.0f", n / t }'), eu-addr2line $(gawk -v n="$n" -v t="$eu" 'BEGIN { printf "%.0f", n / t }'), addr2line $(gawk -v n="$n" -v t="$bu" 'BEGIN { printf "%.0f", n / t }')"

row_header "$n lookups, seconds (median of $runs)"
row "kallmodsyms lookup vs eu-addr2line -f" "$kms" "$eu" s 0.001
row "kallmodsyms lookup vs addr2line -f" "$kms" "$bu" s
