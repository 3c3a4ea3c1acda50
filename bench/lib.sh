# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the bench/*.sh scripts.  Every figure is printed beside a peer
# measured in the same run, as a row of the table bench/run.sh prints:
#
#   row WHAT OURS PEER UNIT [GOAL]
#
# The ratio is OURS / PEER; GOAL, when given, is the ratio the team aims
# at (lower is better: "0.5" means "at most half the peer's").  Progress
# and details go to stderr, rows to stdout.

set -euo pipefail
# shellcheck disable=SC2034 # for the benchmarks that source this
bench_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

row() {
	gawk -v what="$1" -v ours="$2" -v peer="$3" -v unit="$4" \
		-v goal="${5:-}" 'BEGIN {
		ratio = peer + 0 ? ours / peer : 0
		if (goal == "")
			verdict = ""
		else
			verdict = ratio <= goal + 0 ? "met" : "MISSED"
		printf "%-54s %10s %10s %-4s %8.4g %7s %s\n", what, ours, \
			peer, unit, ratio, goal == "" ? "-" : "<=" goal, verdict
	}'
}

row_header() {
	printf '%-54s %10s %10s %-4s %8s %7s\n' "$1" ours peer unit ratio goal
}

note() { printf 'bench: %s\n' "$*" >&2; }

# median VALUE...: the median (the lower middle one of an even count).
median() {
	printf '%s\n' "$@" | sort -g | gawk '{ v[NR] = $1 }
		END { print v[int((NR + 1) / 2)] }'
}

# seconds CMD...: wall seconds of one run of CMD, its output discarded.
seconds() {
	local start end
	start=$(date +%s.%N)
	"$@" > /dev/null
	end=$(date +%s.%N)
	gawk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}

# guest_initramfs ARCH SCRIPT PROGRAM...: an initramfs for an ARCH guest
# (x86_64, arm64) that runs SCRIPT, with each bench/PROGRAM.c built static
# for ARCH; made once per architecture under $tmp, its path printed.
# Needs tests/kernel/qemu.sh (make_initramfs) and $tmp.
# shellcheck disable=SC2154 # tmp: the benchmark's own
guest_initramfs() {
	local arch=$1 script=$2 cc=gcc p
	shift 2
	[ "$arch" = arm64 ] && cc=aarch64-linux-gnu-gcc
	if [ ! -f "$tmp/initrd-$arch.gz" ]; then
		mkdir -p "$tmp/$arch"
		for p in "$@"; do
			"$cc" -static -O2 -Wall -Wextra -o "$tmp/$arch/$p" \
				"$bench_top/bench/$p.c" || return 1
		done
		make_initramfs "$tmp/initrd-$arch.gz" "$script" \
			"${@/#/$tmp/$arch/}"
	fi
	echo "$tmp/initrd-$arch.gz"
}

# guest_clock ARCH: the kernel arguments that give an x86 guest a clock
# finer than jiffies, one per line.  The guest cannot calibrate the TSC (no
# HPET or PM timer in the small config) and would keep jiffies, 4 ms
# ticks: give it the host's TSC rate, which TCG's TSC follows.  Boot it
# with one CPU (nosmp): marking the TSC stable patches code, which under
# TCG with two CPUs can hit a stale int3 (seen on defconfig: "Oops: int3"
# in sched_clock_cpu).  arm64 has its architected timer: nothing.
guest_clock() {
	local khz
	[ "$1" = arm64 ] && return 0
	khz=$(gawk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' \
		/proc/cpuinfo)
	[ -n "$khz" ] || { note "no cpu MHz in /proc/cpuinfo"; return 1; }
	printf '%s\n' tsc=reliable "tsc_early_khz=$khz"
}

# bench_qemu_setup: what a benchmark that boots QEMU guests needs: $tmp
# (kept when KEEP is set), at_exit COMMANDS run on exit (stopping QEMU,
# gdb), and tests/kernel/qemu.sh.  Call it from $bench_top.
bench_qemu_setup() {
	tmp=$(mktemp -d)
	at_exit_commands=
	# shellcheck disable=SC2317 # called by the benchmarks
	at_exit() { at_exit_commands="$*; $at_exit_commands"; }
	trap 'set +e; eval "$at_exit_commands"; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
	# shellcheck source=SCRIPTDIR/../tests/kernel/qemu.sh
	. tests/kernel/qemu.sh
}
