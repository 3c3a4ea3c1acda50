#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run each libFuzzer target of build-fuzz/ for SECONDS, starting from its
# seed corpus (tests/fuzz/corpus/T) and regressions (tests/fuzz/regressions/T).
# New corpus entries go to build-fuzz/corpus/T, crashes to
# build-fuzz/artifacts/T/.  Prints one summary line per target; exits 1 if
# any target crashed.
#
# usage: tests/fuzz/fuzz.sh SECONDS TARGET...

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=$1
shift
out=${KMS_FUZZ_OUT:-$top/build-fuzz}
status=0

for t in "$@"; do
	mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "$out/logs"
	log=$out/logs/$t.log
	nice -n 10 "$out/fuzz-$t" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/$t/" \
		"$out/corpus/$t" "$top/tests/fuzz/corpus/$t" \
		"$top/tests/fuzz/regressions/$t" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
	echo "fuzz-$t: ${took:-$secs} s, ${runs:-?} executions, exit $rc"
	if [ "$rc" != 0 ]; then
		status=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5
		find "$out/artifacts/$t" -mindepth 1 -printf '%f\n' | sed 's/^/  artifact: /'
	fi
done
exit $status
