#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Resolve the same 100,000 text addresses of a kernel with DWARF with
# `kallmodsyms lookup` and with `eu-addr2line -f`, and print the
# throughput of each and their ratio.  Each tool reads the addresses on
# stdin in one process; the best of three runs counts.
#
# usage: bench/lookup-vs-addr2line.sh [N]     (default N = 100000)

set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}

make -s build/kallmodsyms
kbuild=$(tests/kernel/build.sh small-dwarf)
vmlinux=$kbuild/vmlinux
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# N addresses inside text symbols, spread over the whole image.
nm -n -S "$vmlinux" | awk '$3 ~ /^[tT]$/ && $2 != "0000000000000000" { print $1, $2 }' \
	> "$tmp/text"
awk -v n="$n" 'BEGIN { srand(1) } { a[NR] = $1; s[NR] = $2 }
	END {
		for (i = 0; i < n; i++) {
			k = int(rand() * NR) + 1
			printf "%s\n", a[k]
		}
	}' "$tmp/text" > "$tmp/addrs"

best() {
	local best_t= t start end
	for _ in 1 2 3; do
		start=$(date +%s.%N)
		"$@" < "$tmp/addrs" > "$tmp/out" 2> /dev/null || true
		end=$(date +%s.%N)
		t=$(echo "$end - $start" | bc -l)
		if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc -l)" = 1 ]; then
			best_t=$t
		fi
	done
	echo "$best_t"
}

t_kms=$(best build/kallmodsyms lookup "$vmlinux" -)
lines_kms=$(wc -l < "$tmp/out")
t_eu=$(best eu-addr2line -f -e "$vmlinux")
lines_eu=$(wc -l < "$tmp/out")

printf '%-28s %10s %12s %14s\n' tool seconds answers addresses/s
printf '%-28s %10.3f %12d %14.0f\n' "kallmodsyms lookup" "$t_kms" "$lines_kms" \
	"$(echo "$n / $t_kms" | bc -l)"
printf '%-28s %10.3f %12d %14.0f\n' "eu-addr2line -f" "$t_eu" "$((lines_eu / 2))" \
	"$(echo "$n / $t_eu" | bc -l)"
printf 'throughput ratio (kallmodsyms / eu-addr2line): %.2f\n' \
	"$(echo "$t_eu / $t_kms" | bc -l)"
