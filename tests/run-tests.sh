#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every tests/*/run-*.sh three times: with the plain build, with the
# AddressSanitizer+UBSan build, and under valgrind memcheck.  Ends with the
# line "N passed, N failed" (and skipped) and exits non-zero on failure.
#
# usage: tests/run-tests.sh [TEST...]    (names like unit/run-list.sh)
# Environment: KMS_MODES="plain asan valgrind" (default) to choose modes;
# KMS_KERNELS="6.12 6.1" (default) the kernel versions the kernel and gdb
# tests boot (6.1: the small config only, plain mode); KMS_TOOLCHAINS="llvm"
# (default; "llvm thinlto" for make check-full, "" for none) the clang
# builds of 6.12's small config they boot again, plain mode.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

modes=${KMS_MODES:-plain asan valgrind}
if [ $# -gt 0 ]; then
	tests=("$@")
else
	mapfile -t tests < <(cd tests && ls unit/run-*.sh conformance/run-*.sh fuzz/run-*.sh kernel/run-*.sh modularity/run-*.sh gdb/run-*.sh 2>/dev/null)
fi

passed=0 failed=0 skipped=0
logdir=${KMS_TEST_LOGS:-$top/build/test-logs}
mkdir -p "$logdir"

# run_test TEST MODE LABEL [VAR=VALUE...]: run one test, count and report.
run_test() {
	local t=$1 mode=$2 label=$3 log start status secs
	shift 3
	log=$logdir/$(echo "$t" | tr / -).$label.log
	start=$(date +%s)
	env KMS_BUILD="$build" KMS_WRAP="$wrap" KMS_MODE="$mode" "$@" \
		bash "tests/$t" > "$log" 2>&1
	status=$?
	secs=$(( $(date +%s) - start ))
	case $status in
	0) echo "PASS: $t [$label] (${secs}s)"; passed=$((passed + 1)) ;;
	77) echo "SKIP: $t [$label]: $(tail -n 1 "$log")"; skipped=$((skipped + 1)) ;;
	*)
		echo "FAIL: $t [$label] (exit $status), log $log:"
		sed 's/^/    /' "$log" | tail -n 40
		failed=$((failed + 1))
		;;
	esac
}

for mode in $modes; do
	case $mode in
	plain)
		build=$top/build wrap= ;;
	asan)
		build=$top/build-asan wrap=
		export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=98
		export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98
		;;
	valgrind)
		build=$top/build
		wrap="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"
		;;
	*)
		echo "run-tests.sh: unknown mode $mode" >&2
		exit 2
		;;
	esac
	for t in "${tests[@]}"; do
		run_test "$t" "$mode" "$mode"
	done
done

# The other kernel versions (KMS_KERNELS, default "6.12 6.1"): the kernel
# and gdb tests again, plain mode, on the small test kernel only (CI time:
# the other configs are built for 6.12 alone, and their tests skip).
build=$top/build wrap=
case " $modes " in *" plain "*) ;; *) KMS_KERNELS=6.12 ;; esac
for version in ${KMS_KERNELS:-6.12 6.1}; do
	[ "$version" != 6.12 ] || continue
	for t in "${tests[@]}"; do
		case $t in kernel/*|gdb/*) ;; *) continue ;; esac
		run_test "$t" plain "plain, $version" KMS_KERNEL="$version" \
			KMS_KERNEL_CONFIGS=small
	done
done

# The clang builds (KMS_TOOLCHAINS, default "llvm"; make check-full adds
# "thinlto"): the kernel and gdb tests again, plain mode, small config.
case " $modes " in *" plain "*) ;; *) KMS_TOOLCHAINS= ;; esac
for toolchain in ${KMS_TOOLCHAINS-llvm}; do
	for t in "${tests[@]}"; do
		case $t in kernel/*|gdb/*) ;; *) continue ;; esac
		run_test "$t" plain "plain, $toolchain" \
			KMS_TOOLCHAIN="$toolchain" KMS_KERNEL_CONFIGS=small
	done
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
