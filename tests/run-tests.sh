#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every tests/*/run-*.sh three times: with the plain build, with the
# AddressSanitizer+UBSan build, and under valgrind memcheck.  Ends with the
# line "N passed, N failed" (and skipped) and exits non-zero on failure.
#
# usage: tests/run-tests.sh [TEST...]    (names like unit/run-list.sh)
# Environment: KMS_MODES="plain asan valgrind" (default) to choose modes.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

modes=${KMS_MODES:-plain asan valgrind}
if [ $# -gt 0 ]; then
	tests=("$@")
else
	mapfile -t tests < <(cd tests && ls unit/run-*.sh fuzz/run-*.sh kernel/run-*.sh modularity/run-*.sh gdb/run-*.sh 2>/dev/null)
fi

passed=0 failed=0 skipped=0
logdir=${KMS_TEST_LOGS:-$top/build/test-logs}
mkdir -p "$logdir"

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
		log=$logdir/$(echo "$t" | tr / -).$mode.log
		start=$(date +%s)
		KMS_BUILD=$build KMS_WRAP=$wrap KMS_MODE=$mode \
			bash "tests/$t" > "$log" 2>&1
		status=$?
		secs=$(( $(date +%s) - start ))
		case $status in
		0) echo "PASS: $t [$mode] (${secs}s)"; passed=$((passed + 1)) ;;
		77) echo "SKIP: $t [$mode]: $(tail -n 1 "$log")"; skipped=$((skipped + 1)) ;;
		*)
			echo "FAIL: $t [$mode] (exit $status), log $log:"
			sed 's/^/    /' "$log" | tail -n 40
			failed=$((failed + 1))
			;;
		esac
	done
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
