#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What perf's sort key builtin_mod (tracers/perf) costs: 'perf report
# --sort builtin_mod,sym' against '--sort sym' of the same perf, on the
# same profile, runs interleaved (issue #45: at most 1.05 x).  With the
# key, perf reads the kernel's symbols from the kallmodsyms file beside
# kallsyms in place of kallsyms (a fifth longer, the module lists kept
# once each); the key's cost is that, and one lookup per hist_entry.
#
# The profile is recorded on this machine: 'perf record -a -e cpu-clock
# -F 4000' of reads of 5,000 files of /usr and /etc, over and over (root,
# or perf_event_paranoid <= 0), for as long as SAMPLES samples take on
# this machine's CPUs, and a quarter more (cpu-clock samples idle CPUs too: the count follows the
# time); fewer than SAMPLES recorded is an error.  Or PERF_DATA names one
# (of this boot: its kallsyms is this /proc/kallsyms).  The issue's goal
# is set at 100,000 samples and more (before the series read kallmodsyms
# in place of kallsyms, it read both, and below a few tens of thousands
# of samples that second read showed).  This
# kernel has no /proc/kallmodsyms, so the kallmodsyms beside the kallsyms
# copy is made from it: a third of the core-kernel symbols, in runs of
# 400 lines (a module's code is contiguous), get a module, one in 20 of
# those an object too, as the kernel's file has them.  Rows: wall and CPU
# seconds, median of RUNS.
#
# usage: bench/perf-sort.sh
# Environment: RUNS (default 9), SAMPLES (default 100000), PERF_DATA,
# KEEP (keep the temporary directory)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
runs=${RUNS:-9}

mapfile -t series < <(sed 's|^|tracers/perf/|' tracers/perf/series)
perf=$(tests/tracers/build-perf.sh "${series[@]}")/build/perf
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# samples: the profile's sample count, exact (perf report's header
# rounds it: "# Samples: 123K").
samples() { "$perf" script -i "$data" -F ip 2> /dev/null | wc -l; }
data=${PERF_DATA:-$tmp/perf.data}
if [ -z "${PERF_DATA:-}" ]; then
	want=${SAMPLES:-100000}
	cpus=$(getconf _NPROCESSORS_ONLN)
	secs=$(( (want * 5 / 4 + cpus * 4000 - 1) / (cpus * 4000) ))
	note "recording reads of /usr and /etc for $secs s (perf record -a, $cpus CPUs at 4000 Hz, $want samples wanted)"
	# The same 5,000 files over and over: after the first walk they come
	# from the page cache, and the time goes to the kernel, not the disk.
	# timeout(1) stops the walk's whole process group.
	find /usr /etc -xdev -type f 2> /dev/null | head -n 5000 > "$tmp/files" || true
	"$perf" record -q -a -e cpu-clock -F 4000 -o "$data" -- \
		timeout "$secs" sh -c 'while :; do xargs cat < "$1" > /dev/null 2>&1; done' \
		sh "$tmp/files" > /dev/null 2>&1 || :	# timeout's 124, passed on
	[ -s "$data" ] ||
		{ note "perf record -a failed (perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid))"; exit 1; }
	got=$(samples)
	[ "$got" -ge "$want" ] ||
		{ note "the profile has $got samples, fewer than $want: SAMPLES, or a longer recording"; exit 1; }
fi
cp /proc/kallsyms "$tmp/kallsyms"
gawk -F '\t' 'NF > 1 { print; next }
	int(NR / 400) % 3 == 0 {
		printf "%s\t[mod%d]%s\n", $0, int(NR / 400), NR % 20 ? "" : " {obj.o}"
		next
	}
	{ print }' "$tmp/kallsyms" > "$tmp/kallmodsyms"

# report KEYS: append "wall cpu" seconds of one report to $tmp/KEYS, as
# perf stat counts them (duration_time, task-clock: finer than time(1)'s
# hundredths on a machine this noisy).
report() {
	"$perf" stat -x, -o "$tmp/stat" -e duration_time,task-clock -- \
		"$perf" report -i "$data" --kallsyms="$tmp/kallsyms" --stdio \
		--sort "$1" > "$tmp/out" 2> "$tmp/err" ||
		{ note "perf report --sort $1 failed: $(head -n 3 "$tmp/err")"; exit 1; }
	gawk -F, '$3 == "duration_time" { wall = $1 / 1e9 }
		$3 == "task-clock" { cpu = $1 / 1e3 }
		END { printf "%.4f %.4f\n", wall, cpu }' "$tmp/stat" >> "$tmp/$1"
}
for ((i = 0; i < runs; i++)); do
	report sym
	report builtin_mod,sym
done
samples=${got:-$(samples)}
note "$samples samples; $(grep -c '\[k\]' "$tmp/out") kernel rows, $(grep -c '\[mod[0-9]*\]' "$tmp/out") in a module"
# shellcheck disable=SC2046 # one value a word
m() { median $(cut -d' ' -f"$2" "$tmp/$1"); }

row_header "perf report on $samples samples, seconds (median of $runs)"
row "--sort builtin_mod,sym vs --sort sym, wall" "$(m builtin_mod,sym 1)" "$(m sym 1)" s 1.05
row "--sort builtin_mod,sym vs --sort sym, CPU" "$(m builtin_mod,sym 2)" "$(m sym 2)" s 1.05
