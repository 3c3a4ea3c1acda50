#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the tests, each under every part of this run's matrix it declares,
# KMS_JOBS at a time (default: nproc); end with one summary line
# "N passed, N failed, N skipped" and exit non-zero on a failure.
#
# usage: tests/run-tests.sh [--build-kernels] [--list] [TEST...]
#        (TEST: a name like unit/run-list.sh; default: every tests/*/run-*.sh)
#   --build-kernels  build (or reuse) every kernel of this run first, each
#                    with its time; nothing else
#   --list           print what would run, one line per run, and stop
#
# Each run has KMS_TEST_TIMEOUT seconds of wall-clock time (default
# 900): then the run, with every process it started (QEMU, gdb,
# crash...), is killed and fails, so that one hung tool costs one
# failure, not the whole run.  The limit is over four times the longest
# run measured: the 61 runs that need no kernel, at KMS_JOBS=2 on the
# 2-core machine with kernels building beside them (load average 10 to
# 13), took 14.5 min in all, the longest 209 s (unit/run-errors.sh under
# valgrind), then 174 s (fuzz/run-replay.sh, valgrind), 127 s
# (unit/run-export.sh, valgrind) and 125 s (fuzz/run-fuzz.sh); the
# kernel tests on a loaded fresh machine took under 200 s each.
#
# Each test declares where it runs in one line near its top:
#
#   # kms-test: modes=plain,asan,valgrind
#   # kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm configs=small
#
# modes: the builds of the tools it runs under (plain; asan: ASan+UBSan;
# valgrind: memcheck, leaks are errors).  kernels, toolchains, configs:
# for a test of test kernels, the Linux versions, compilers and config
# fragments (tests/kernel/configs) it needs; it runs once for each
# version and toolchain of this run that has all its configs built; a
# kernel whose fragment starts from another's ("#include small.config")
# serves that one's tests too, so that one build serves several tests.
# Sanitizer and valgrind modes run on the first kernel and toolchain
# only: the others add kernels, not code paths.  suite=full: a test too
# costly for CI's budget (its line says why), run by make check-full
# (KMS_FULL=1) or when named on the command line.  serial: a test that
# changes the machine for the others (run-package.sh installs packages
# with dpkg): its runs come after all the others, one at a time.
# timeout=SECONDS: a longer limit than KMS_TEST_TIMEOUT for each of its
# runs (kernel/run-sanitizers.sh: a KASAN and lockdep kernel under TCG).
#
# This run's matrix (the one place it is written):
#   KMS_MODES    tool builds, default "plain asan valgrind"
#   KMS_KERNELS  the kernels built, as VERSION/TOOLCHAIN/CONFIG words;
#                default $default_kernels below
#   KMS_EXTRA_KERNELS  more of them (make check-full: the clang, ThinLTO,
#                defconfig, BPF and sanitizer kernels)
#   KMS_DISTRO   non-empty: the tests of distributions' kernels too
#                (kernels=distro; make check-full), one run per kernel
#                of tests/distro/kernels

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# small-dwarf serves the small tests of 6.12 and GCC as well: one kernel.
# The other default kernel is 6.1 on arm64 (toolchain arm64: GCC
# cross-compiling, small-arm64): the two make the diagonal of the
# versions x architectures matrix, each series and each architecture
# booted once, in the 45 minutes a fresh machine has (each small kernel
# takes 11-13 of them to build there).  The series' code is the same on
# both architectures, and each series is the same code on both: the rest
# of the matrix (6.1 on x86-64, 6.12 on arm64, with DWARF) and the clang,
# ThinLTO and defconfig kernels are make check-full's; unit/run-lld.sh
# and unit/run-lto.sh read ld.lld's maps and ThinLTO on every run.
default_kernels="6.12/gcc/small-dwarf 6.1/arm64/small"
modes=${KMS_MODES:-plain asan valgrind}
kernels="${KMS_KERNELS:-$default_kernels} ${KMS_EXTRA_KERNELS:-}"
jobs=${KMS_JOBS:-$(nproc)}
logdir=${KMS_TEST_LOGS:-$top/build/test-logs}
limit=${KMS_TEST_TIMEOUT:-900}

die() { echo "run-tests.sh: $*" >&2; exit 2; }

tests_dir=$top/tests
# shellcheck source=SCRIPTDIR/kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"

# The config fragment that builds CONFIG with TOOLCHAIN (gcc: its own).
fragment_name() {
	case $2 in
	gcc) echo "$1" ;;
	*) echo "$1-$2" ;;
	esac
}

build_kernels() {
	local k version toolchain config start
	for k in $kernels; do
		IFS=/ read -r version toolchain config <<< "$k"
		start=$(date +%s)
		KMS_KERNEL=$version tests/kernel/build.sh \
			"$(fragment_name "$config" "$toolchain")" > /dev/null ||
			die "cannot build the $k kernel"
		echo "kernel $k: $(( $(date +%s) - start ))s"
	done
}

# words TEST: the words of TEST's kms-test line, one a line, without the
# comment that may end it in parentheses ("suite=full (builds ...)").
words() {
	sed -n 's/^# kms-test: //p' "tests/$1" | head -n 1 | sed 's/ *(.*//' |
		tr ' ' '\n'
}

# field TEST NAME: the value of NAME= in TEST's kms-test line, commas
# turned into spaces.
field() { words "$1" | sed -n "s/^$2=//p" | tr , ' '; }

has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

# The configs of this run for VERSION and TOOLCHAIN.
configs_of() {
	local k out=
	for k in $kernels; do
		case $k in "$1/$2/"*) out="$out ${k##*/}" ;; esac
	done
	echo "${out# }"
}

# plan TEST: one line per run, "TEST MODE VERSION TOOLCHAIN" (- for a
# test of no kernel), then "serial" for a serial test.
plan() {
	local t=$1 tmodes tkernels ttools tconfigs m v tc c first=1 built w
	local serial=
	grep -q '^# kms-test: ' "tests/$t" || die "tests/$t: no '# kms-test:' line"
	for w in $(words "$t" | grep -v =); do
		[ "$w" = serial ] || die "tests/$t: unknown word '$w' in its kms-test line"
		serial=' serial'
	done
	tmodes=$(field "$t" modes)
	tkernels=$(field "$t" kernels)
	ttools=$(field "$t" toolchains)
	tconfigs=$(field "$t" configs)
	[ -n "$tmodes" ] || die "tests/$t: no modes= in its kms-test line"
	case $(field "$t" suite) in
	''|default) ;;
	full) [ -n "${KMS_FULL:-}" ] || [ -n "$named" ] || return 0 ;;
	*) die "tests/$t: suite= is default or full" ;;
	esac
	# A distribution's kernel (make check-full): one run per release
	# of tests/distro/kernels, the release as its KMS_KERNEL.
	if [ "$tkernels" = distro ]; then
		[ -n "${KMS_DISTRO:-}" ] || return 0
		awk '!/^#/ && NF { print $1 }' tests/distro/kernels |
			while read -r v; do echo "$t plain $v distro$serial"; done
		return 0
	fi
	if [ -z "$tkernels" ]; then
		for m in $modes; do
			has "$tmodes" "$m" && echo "$t $m - -$serial"
		done
		return 0
	fi
	for v in $(for k in $kernels; do echo "${k%%/*}"; done | awk '!s[$0]++'); do
		for tc in $(for k in $kernels; do k=${k#*/}; echo "${k%%/*}"; done | awk '!s[$0]++'); do
			has "$tkernels" "$v" && has "${ttools:-gcc}" "$tc" || continue
			built=$(configs_of "$v" "$tc")
			[ -n "$built" ] || continue
			for c in $tconfigs; do
				KMS_RUN_KERNELS=$kernels KMS_KERNEL=$v \
					KMS_TOOLCHAIN=${tc#gcc} \
					serving_config "$c" > /dev/null || continue 2
			done
			for m in $modes; do
				has "$tmodes" "$m" || continue
				[ "$m" = plain ] || [ "$first" = 1 ] || continue
				echo "$t $m $v $tc$serial"
			done
			first=0
		done
	done
}

# limited LOG COMMAND...: COMMAND in a session of its own, its output in
# LOG, its status returned.  After $limit s of wall-clock time ($SECONDS;
# a count of "sleep 0.2" ticks stretches under load: a run once went on
# 1,052 s past a 900 s limit), what is still running is added to LOG and
# the whole session killed (TERM, then KILL: crash ignores TERM); the
# status is then 124.
limited() {
	local log=$1 pid deadline=$((SECONDS + limit))
	shift
	setsid -w "$@" > "$log" 2>&1 < <(:) &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			{
				echo "run-tests.sh: over $limit s; still running:"
				ps -o pid=,etimes=,args= -s "$pid"
			} >> "$log"
			# The session, not the group: timeout puts what it
			# runs (QEMU, gdb, crash) in groups of their own.
			pkill -TERM -s "$pid"
			sleep 20
			pkill -KILL -s "$pid"
			wait "$pid"
			return 124
		fi
		sleep 0.2
	done
	wait "$pid"
}

# run_one TEST MODE VERSION TOOLCHAIN: run it, its log and result into
# $logdir; print the result line.
run_one() {
	local t=$1 mode=$2 version=$3 toolchain=$4 label log start status
	local build=$top/build wrap='' env=() limit=$limit own
	own=$(field "$t" timeout)
	[ -z "$own" ] || [ "$own" -le "$limit" ] || limit=$own
	label=$mode
	[ "$version" = - ] || label="$mode, $version, $toolchain"
	log=$logdir/$(echo "$t" | tr / -).$(echo "$label" | tr -d ' ' | tr , -).log
	case $mode in
	plain) ;;
	asan)
		build=$top/build-asan
		env=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=98
		     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98)
		;;
	valgrind)
		wrap="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"
		;;
	*) die "unknown mode $mode" ;;
	esac
	if [ "$version" != - ]; then
		env+=(KMS_KERNEL="$version" KMS_RUN_KERNELS="$kernels")
		[ "$toolchain" = gcc ] || env+=(KMS_TOOLCHAIN="$toolchain")
	fi
	start=$(date +%s)
	limited "$log" env KMS_BUILD="$build" KMS_WRAP="$wrap" \
		KMS_MODE="$mode" ${env[@]+"${env[@]}"} bash "tests/$t"
	status=$?
	case $status in
	0) echo "PASS: $t [$label] ($(( $(date +%s) - start ))s)" ;;
	77) echo "SKIP: $t [$label]: $(tail -n 1 "$log")" ;;
	124)
		echo "FAIL: $t [$label] (killed: over KMS_TEST_TIMEOUT, $limit s), log $log:"
		sed 's/^/    /' "$log" | tail -n 40
		;;
	*)
		echo "FAIL: $t [$label] (exit $status), log $log:"
		sed 's/^/    /' "$log" | tail -n 40
		;;
	esac
}

# The first line of a run: where the test kernels are built and cached
# (one cache per machine unless KALLMODSYMS_CACHE gives this checkout its
# own: tests/kernel/env.sh), and ccache's directory.
# shellcheck disable=SC2154 # kms_cache, kms_ccache: env.sh's, via kernels.sh
say_caches() {
	local cc="ccache $kms_ccache"
	kms_ccache_used || cc="no ccache"
	echo "run-tests.sh: kernel cache $kms_cache, $cc"
}

build_only='' list_only=''
while [ $# -gt 0 ]; do
	case $1 in
	--build-kernels) build_only=1 ;;
	--list) list_only=1 ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
if [ -n "$build_only" ]; then
	say_caches
	build_kernels
	exit
fi

named=
if [ $# -gt 0 ]; then
	tests=("$@")
	named=1
else
	mapfile -t tests < <(cd tests && printf '%s\n' ./*/run-*.sh | sed 's|^\./||')
fi
runs=$(for t in "${tests[@]}"; do
	[ -f "tests/$t" ] || die "tests/$t: no such test"
	plan "$t" || exit 2
done) || exit 2
if [ -n "$list_only" ]; then
	[ -z "$runs" ] || printf '%s\n' "$runs"
	exit 0
fi
if [ -z "$runs" ]; then
	echo "run-tests.sh: nothing to run: no part of this run's matrix is the tests' (see --list)"
	echo "0 passed, 0 failed, 0 skipped"
	exit 0
fi

say_caches
rm -rf "$logdir/results"
mkdir -p "$logdir/results"
# launch JOBS: the runs on stdin, JOBS at a time; each run's result is
# printed whole when it ends.
n=0
launch() {
	local t mode version toolchain
	while read -r t mode version toolchain _; do
		while [ "$(jobs -pr | wc -l)" -ge "$1" ]; do
			wait -n
		done
		n=$((n + 1))
		{
			run_one "$t" "$mode" "$version" "$toolchain" > "$logdir/results/$n"
			cat "$logdir/results/$n"
		} &
	done
	wait
}
# The kernel and gdb tests, the longest, start first; the serial ones
# run last, alone.
launch "$jobs" < <(printf '%s\n' "$runs" | grep -v ' serial$' |
	grep -E '^(kernel|gdb)/'
	printf '%s\n' "$runs" | grep -v ' serial$' | grep -vE '^(kernel|gdb)/')
launch 1 < <(printf '%s\n' "$runs" | grep ' serial$')

count() { cat "$logdir"/results/* | grep -c "^$1: "; }
passed=$(count PASS) failed=$(count FAIL) skipped=$(count SKIP)
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
