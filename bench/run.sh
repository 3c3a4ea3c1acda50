#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: every benchmark, one table.  Each row sets our figure beside
# a peer measured in the same run; "ratio" is ours / peer and "goal" the
# ratio the team aims at (see bench/README.md).  Builds the kernels it
# needs (cached): small, small-dwarf, defconfig and their -nokms twins.
#
# usage: bench/run.sh [BENCH...]   (default: all; names as below)

set -uo pipefail
cd "$(dirname "$0")" || exit 1

benches=("$@")
[ ${#benches[@]} -gt 0 ] ||
	benches=(table-size image-size gen-speed lookup-vs-addr2line runtime \
		 native-parse tracing gdb-listing vmcore scale relink perf-script perf-sort \
		 dwarf-distro)

status=0
echo "kallmodsyms benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
for b in "${benches[@]}"; do
	echo
	if ! bash "./$b.sh"; then
		echo "bench/$b.sh failed" >&2
		status=1
	fi
done
exit $status
