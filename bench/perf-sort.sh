#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What perf's sort key builtin_mod (tracers/perf) costs: 'perf report
# --sort builtin_mod,sym' against '--sort sym' of the same perf, on the
# same profile, runs interleaved (issue #45: at most 1.05 x).  The key's
# cost is reading the kallmodsyms file beside kallsyms (only when the key
# is asked for) and one lookup per hist_entry.
#
# The profile is recorded on this machine: 'perf record -a -e cpu-clock'
# of a file-system walk (root, or perf_event_paranoid <= 0), or PERF_DATA
# names one (of this boot: its kallsyms is this /proc/kallsyms).  This
# kernel has no /proc/kallmodsyms, so the kallmodsyms beside the kallsyms
# copy is made from it: a third of the core-kernel symbols, in runs of
# 400 lines (a module's code is contiguous), get a module, one in 20 of
# those an object too, as the kernel's file has them.  Rows: wall and CPU
# seconds, median of RUNS.
#
# usage: bench/perf-sort.sh
# Environment: RUNS (default 9), PERF_DATA, KEEP (keep the temporary
# directory)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
runs=${RUNS:-9}

mapfile -t series < <(sed 's|^|tracers/perf/|' tracers/perf/series)
perf=$(tests/tracers/build-perf.sh "${series[@]}")/build/perf
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

data=${PERF_DATA:-$tmp/perf.data}
if [ -z "${PERF_DATA:-}" ]; then
	note "recording a walk of /usr and /etc (perf record -a)"
	"$perf" record -q -a -e cpu-clock -o "$data" -- \
		sh -c 'find /usr /etc -xdev -type f | head -n 20000 | xargs cat > /dev/null 2>&1; true' \
		> /dev/null 2>&1 ||
		{ note "perf record -a failed (perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid))"; exit 1; }
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
samples=$("$perf" report -i "$data" --stdio --sort sym 2> /dev/null |
	sed -n 's/^# Samples: \([^ ]*\) .*/\1/p' | head -n 1)
note "$samples samples; $(grep -c '\[k\]' "$tmp/out") kernel rows, $(grep -c '\[mod[0-9]*\]' "$tmp/out") in a module"
# shellcheck disable=SC2046 # one value a word
m() { median $(cut -d' ' -f"$2" "$tmp/$1"); }

row_header "perf report on $samples samples, seconds (median of $runs)"
row "--sort builtin_mod,sym vs --sort sym, wall" "$(m builtin_mod,sym 1)" "$(m sym 1)" s 1.05
row "--sort builtin_mod,sym vs --sort sym, CPU" "$(m builtin_mod,sym 2)" "$(m sym 2)" s 1.05
