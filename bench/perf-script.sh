#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `kallmodsyms perf` against `perf script` itself, on a stream of at least
# a million frames: the annotation must not be the slow step of
# `perf script | kallmodsyms perf VMLINUX | ...` (issue #37).
#
# The profile is recorded on this machine: `perf record -g -e cpu-clock`
# of a file-system walk and reads (one process tree, not -a; root, or
# perf_event_paranoid <= 1, for its kernel frames; nothing is loaded into
# the kernel), or PERF_DATA names one.  Its kernel frames are the host's,
# not the cached kernel's: bench/perf-move.py moves each onto the same
# symbol and offset of VMLINUX (small-dwarf, or VMLINUX=), or onto a symbol
# picked by the name's hash where VMLINUX lacks it, so that the stream
# `kallmodsyms perf` annotates has the length and shape of the one
# `perf script` wrote.  Rows: wall and CPU seconds (median of RUNS), ours
# over `perf script -i` of the profile, with --by-module and --collapse;
# and the peak RSS on the whole stream over a tenth of it (a sample
# boundary): constant memory in the length of the input.
#
# usage: bench/perf-script.sh
# Environment: RUNS (default 3), ROUNDS (walks recorded, default 6),
# PERF_DATA, VMLINUX, KEEP (keep the temporary directory)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
runs=${RUNS:-3}
rounds=${ROUNDS:-6}

command -v perf > /dev/null || { note "no perf (Debian: linux-perf)"; exit 1; }
make -s build/kallmodsyms
vmlinux=${VMLINUX:-$(tests/kernel/build.sh small-dwarf)/vmlinux}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

data=${PERF_DATA:-$tmp/perf.data}
if [ -z "${PERF_DATA:-}" ]; then
	note "recording $rounds walks of /usr and /etc"
	# shellcheck disable=SC2016 # the workload's own shell expands $i
	perf record -q -g -e cpu-clock -c 100000 -o "$data" -- sh -c '
		i=0
		while [ $i -lt "$1" ]; do
			find /usr /etc -xdev -type f > /dev/null 2>&1
			cat /usr/lib/x86_64-linux-gnu/*.so* > /dev/null 2>&1
			i=$((i + 1))
		done' sh "$rounds" > /dev/null 2>&1 ||
		{ note "perf record failed (perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid))"; exit 1; }
fi
perf script -i "$data" > "$tmp/script" 2> /dev/null
frames=$(grep -c '^[[:space:]]*[0-9a-f]\+ .* (.*)$' "$tmp/script" || true)
kernel=$(grep -c ' (\[kernel\.kallsyms\])$' "$tmp/script" || true)
note "$frames frames, $kernel of them kernel frames, $(wc -c < "$tmp/script") bytes"
[ "$frames" -ge 1000000 ] ||
	{ note "fewer than 1,000,000 frames: raise ROUNDS"; exit 1; }
nm -n -S "$vmlinux" > "$tmp/nm"
python3 bench/perf-move.py "$tmp/nm" < "$tmp/script" > "$tmp/moved"
# A tenth of it, cut at a sample's end.
gawk -v n="$(($(wc -l < "$tmp/moved") / 10))" '{ print } NR >= n && $0 == "" { exit }' \
	"$tmp/moved" > "$tmp/tenth"

# clock NAME INPUT CMD...: append "wall cpu" seconds of CMD < INPUT to
# $tmp/NAME.times, its output discarded; fail if CMD does.
clock() {
	local name=$1 input=$2 t
	shift 2
	t=$( { TIMEFORMAT='%R %U %S'; time "$@" < "$input" > /dev/null \
		2> "$tmp/$name.err"; } 2>&1 ) ||
		{ note "$* failed: $(cat "$tmp/$name.err")"; exit 1; }
	gawk -v t="$t" 'BEGIN { split(t, f, " ")
		printf "%.4f %.4f\n", f[1], f[2] + f[3] }' >> "$tmp/$name.times"
}
medians() {
	# shellcheck disable=SC2046 # one value a word
	echo "$(median $(cut -d' ' -f1 "$tmp/$1.times"))" \
		"$(median $(cut -d' ' -f2 "$tmp/$1.times"))"
}
kms() { build/kallmodsyms perf "$vmlinux" "$@"; }

for ((i = 0; i < runs; i++)); do
	clock perf /dev/null perf script -i "$data"
	clock kms "$tmp/moved" kms
	clock by_module "$tmp/moved" kms --by-module
	clock collapse "$tmp/moved" kms --collapse
done
read -r perf perf_cpu < <(medians perf)
read -r kms kms_cpu < <(medians kms)
read -r bym _ < <(medians by_module)
read -r col _ < <(medians collapse)
# Peak RSS in KiB, of the whole stream and of a tenth.
rss() { /usr/bin/time -f %M build/kallmodsyms perf "$vmlinux" "${@:2}" \
	< "$1" 2>&1 > /dev/null | tail -n 1; }
rss_all=$(rss "$tmp/moved")
rss_tenth=$(rss "$tmp/tenth")
rss_col=$(rss "$tmp/moved" --collapse)
rss_col_tenth=$(rss "$tmp/tenth" --collapse)
note "$vmlinux: $(kms < "$tmp/moved" | grep -c ' ([[]kernel.kallsyms[]])$') kernel frames out, $(kms < "$tmp/moved" | grep -c '[]}]+0x[0-9a-f]* ([[]kernel.kallsyms[]])$') annotated"

row_header "$frames frames, seconds (median of $runs)"
row "kallmodsyms perf vs perf script, wall" "$kms" "$perf" s 1.0
row "kallmodsyms perf vs perf script, CPU" "$kms_cpu" "$perf_cpu" s 1.0
row "kallmodsyms perf --by-module vs perf script, wall" "$bym" "$perf" s 1.0
row "kallmodsyms perf --collapse vs perf script, wall" "$col" "$perf" s
row_header "peak RSS, KiB: the stream vs a tenth of it"
row "kallmodsyms perf, 10x input" "$rss_all" "$rss_tenth" KiB 1.1
row "kallmodsyms perf --collapse, 10x input" "$rss_col" "$rss_col_tenth" KiB
