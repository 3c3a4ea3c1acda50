#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `kallmodsyms lookup` against `eu-addr2line -f -i` (and binutils'
# `addr2line -f`) on the same vmlinux and the same addresses, two ways:
#
#  - one-shot: one address per process, as a developer pastes one from an
#    oops; the median of RUNS1 runs, the commands taking turns;
#  - batch: N addresses (default 100,000, drawn from the text symbols) on
#    stdin of one process each; the median of RUNS runs.
#
# Each row gives wall seconds and CPU seconds (user + system): the
# machines are shared, and CPU time is what the process itself cost.  The
# peers answer another question (function, and file:line where the
# vmlinux has DWARF) on the same input: this is what a tracer pays per
# address for each kind of answer.  The vmlinux is small-dwarf (built and
# cached by tests/kernel/build.sh) unless VMLINUX names one, which is
# then only read: a distribution's -dbg vmlinux, or a cached defconfig
# (no DWARF: eu-addr2line then answers from the symbol table alone).
#
# usage: bench/lookup-vs-addr2line.sh [N]
# Environment: RUNS (default 3), RUNS1 (default 11), VMLINUX

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
n=${1:-100000}
runs=${RUNS:-3}
runs1=${RUNS1:-11}

make -s build/kallmodsyms
vmlinux=${VMLINUX:-$(tests/kernel/build.sh small-dwarf)/vmlinux}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# N addresses inside text symbols, spread over the whole image.
nm -n -S "$vmlinux" |
	gawk '$3 ~ /^[tT]$/ && $2 != "0000000000000000" { print $1 }' \
	> "$tmp/text"
gawk -v n="$n" 'BEGIN { srand(1) } { a[NR] = $1 }
	END { for (i = 0; i < n; i++) print a[int(rand() * NR) + 1] }' \
	"$tmp/text" > "$tmp/addrs"
one=$(head -n 1 "$tmp/addrs")

# clock NAME INPUT CMD...: run CMD on INPUT, its output in $tmp/NAME.out;
# append "wall cpu" seconds to $tmp/NAME.times.
clock() {
	local name=$1 input=$2 t
	shift 2
	t=$( { TIMEFORMAT='%R %U %S'; time "$@" < "$input" \
		> "$tmp/$name.out" 2> /dev/null || true; } 2>&1 )
	gawk -v t="$t" 'BEGIN { split(t, f, " ")
		printf "%.4f %.4f\n", f[1], f[2] + f[3] }' >> "$tmp/$name.times"
}

# medians NAME: "wall cpu", the median of each column.
medians() {
	# shellcheck disable=SC2046 # one value a word
	echo "$(median $(cut -d' ' -f1 "$tmp/$1.times"))" \
		"$(median $(cut -d' ' -f2 "$tmp/$1.times"))"
}

for ((i = 0; i < runs1; i++)); do
	clock kms1 /dev/null build/kallmodsyms lookup "$vmlinux" "0x$one"
	clock eu1 /dev/null eu-addr2line -f -i -e "$vmlinux" "0x$one"
done
for ((i = 0; i < runs; i++)); do
	clock kms "$tmp/addrs" build/kallmodsyms lookup "$vmlinux" -
	clock eu "$tmp/addrs" eu-addr2line -f -e "$vmlinux"
	clock bu "$tmp/addrs" addr2line -f -e "$vmlinux"
done
# Each tool answered every address (eu-/addr2line: two lines each).
[ "$(wc -l < "$tmp/kms1.out")" = 1 ] &&
	[ "$(wc -l < "$tmp/kms.out")" = "$n" ] &&
	[ "$(wc -l < "$tmp/eu.out")" = "$((2 * n))" ] &&
	[ "$(wc -l < "$tmp/bu.out")" = "$((2 * n))" ] ||
	{ note "a tool did not answer every address"; exit 1; }
read -r kms1 kms1_cpu < <(medians kms1)
read -r eu1 eu1_cpu < <(medians eu1)
read -r kms kms_cpu < <(medians kms)
read -r eu eu_cpu < <(medians eu)
read -r bu bu_cpu < <(medians bu)
note "$vmlinux: one-shot 0x$one: $(cat "$tmp/kms1.out")"
note "lookups/s: kallmodsyms $(gawk -v n="$n" -v t="$kms" 'BEGIN { printf "%.0f", n / t }'), eu-addr2line $(gawk -v n="$n" -v t="$eu" 'BEGIN { printf "%.0f", n / t }'), addr2line $(gawk -v n="$n" -v t="$bu" 'BEGIN { printf "%.0f", n / t }')"

row_header "one lookup, seconds (median of $runs1)"
row "kallmodsyms lookup vs eu-addr2line -f -i, wall" "$kms1" "$eu1" s 0.5
row "kallmodsyms lookup vs eu-addr2line -f -i, CPU" "$kms1_cpu" \
	"$eu1_cpu" s 0.5
row_header "$n lookups, seconds (median of $runs)"
row "kallmodsyms lookup vs eu-addr2line -f, wall" "$kms" "$eu" s 0.001
row "kallmodsyms lookup vs eu-addr2line -f, CPU" "$kms_cpu" "$eu_cpu" s \
	0.001
row "kallmodsyms lookup vs addr2line -f, wall" "$kms" "$bu" s
row "kallmodsyms lookup vs addr2line -f, CPU" "$kms_cpu" "$bu_cpu" s
