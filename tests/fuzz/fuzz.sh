#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run each libFuzzer target of build-fuzz/ from its seed corpus
# (tests/fuzz/corpus/T) and regressions (tests/fuzz/regressions/T), for
# a time or for a number of executions:
#
#   -t SECONDS  each for SECONDS: open-ended, a new search each time
#               (make fuzz, campaign.sh)
#   -n RUNS     each for RUNS executions, from -s SEED (default 1): the
#               same work on every run of the same commit (the suite,
#               run-fuzz.sh).  libFuzzer is then run with no address
#               randomization (setarch -R), no rereading of its output
#               directory (-reload=0, a timer), and the parsers' files
#               under one relative name (KMS_FUZZ_DIR, fuzz_file.h):
#               each of them would feed values that change from run to
#               run into its mutations.
#   -o DIR      where a run's files go (default build-fuzz/): new corpus
#               entries in DIR/corpus/T, crashes in DIR/artifacts/T/,
#               the log in DIR/logs/T.log.
#
# libFuzzer runs in a scratch directory of its own, memory-backed where
# /dev/shm is (the parsers' input files, "files/", are written once per
# execution: on a busy disk that alone made a run 20 times longer).
#
# Prints one summary line per target (time, executions, and the final
# cov: and ft: of libFuzzer's stats); exits 1 if any target crashed.
#
# usage: tests/fuzz/fuzz.sh (-t SECONDS | -n RUNS [-s SEED]) [-o DIR] TARGET...

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${KMS_FUZZ_OUT:-$top/build-fuzz}
out=$bin secs='' runs='' seed=1
usage() { echo "usage: $0 (-t SECONDS | -n RUNS [-s SEED]) [-o DIR] TARGET..." >&2; exit 2; }
while getopts t:n:s:o: opt; do
	case $opt in
	t) secs=$OPTARG ;;
	n) runs=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) out=$(mkdir -p "$OPTARG" && cd "$OPTARG" && pwd) || exit 2 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] && [ -n "$secs$runs" ] && { [ -z "$secs" ] || [ -z "$runs" ]; } || usage

budget=(-max_total_time="$secs") wrap=()
if [ -n "$runs" ]; then
	budget=(-runs="$runs" -seed="$seed" -reload=0)
	if setarch "$(uname -m)" -R true 2> /dev/null; then
		wrap=(setarch "$(uname -m)" -R)
	else
		echo "fuzz.sh: setarch -R fails here: runs may differ" >&2
	fi
fi
shm=${TMPDIR:-/tmp}
[ -n "${TMPDIR:-}" ] || [ ! -w /dev/shm ] || shm=/dev/shm
scratch=$(mktemp -d "$shm/kms-fuzz.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
status=0
for t in "$@"; do
	mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "$out/logs"
	log=$out/logs/$t.log
	(cd "$scratch" && KMS_FUZZ_DIR=files nice -n 10 ${wrap[@]+"${wrap[@]}"} \
		"$bin/fuzz-$t" "${budget[@]}" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/$t/" \
		"$out/corpus/$t" "$top/tests/fuzz/corpus/$t" \
		"$top/tests/fuzz/regressions/$t") > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
	# The last stats line: "#N DONE cov: C ft: F corp: ..."
	cov=$(awk '/^#[0-9]+\t.* cov: / { c = $4; f = $6 } END { print c ", ft " f }' "$log")
	echo "fuzz-$t: ${took:-?} s, ${execs:-?} executions, cov $cov, exit $rc"
	if [ "$rc" != 0 ]; then
		status=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5
		find "$out/artifacts/$t" -mindepth 1 -printf '%f\n' | sed 's/^/  artifact: /'
	fi
done
exit $status
