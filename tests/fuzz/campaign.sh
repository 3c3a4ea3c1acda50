#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The long fuzzing run (make fuzz-campaign): each target for FUZZ_SECONDS
# (default 3600) through fuzz.sh -t, from the corpus kept in the
# repository (tests/fuzz/corpus/T) and its regressions; then that corpus
# and what the run added, merged and minimized by libFuzzer (-merge=1
# into a fresh directory), replace the kept corpus.  Kept inputs that
# survive the merge keep their names (make-seeds.sh's, or the SHA-1
# libFuzzer gave them), new ones have libFuzzer's.  The run's files are
# in build-fuzz/campaign/: logs/, artifacts/T/ (crashes: move each to
# tests/fuzz/regressions/T/ once fixed).  The targets run one after the
# other; to run several at once, start one campaign per group of targets,
# each with its own KMS_CAMPAIGN_DIR (default build-fuzz/campaign).
#
# Prints, on stdout, a Markdown table for bench/RESULTS.md: per target the
# executions, the coverage of libFuzzer's final stats line (cov: edges,
# ft: features), the kept corpus's files before and after and its size,
# and the crashes.  Progress goes to stderr.  Exits 1 if a target crashed.
#
# usage: [FUZZ_SECONDS=N] [KMS_CAMPAIGN_DIR=DIR] tests/fuzz/campaign.sh TARGET...

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${KMS_FUZZ_OUT:-$top/build-fuzz}
secs=${FUZZ_SECONDS:-3600}
work=${KMS_CAMPAIGN_DIR:-$bin/campaign}
[ $# -gt 0 ] || { echo "usage: [FUZZ_SECONDS=N] $0 TARGET..." >&2; exit 2; }

rm -rf "$work"
mkdir -p "$work/merged" "$work/logs"

# keep_names KEPT MERGED: give each file of MERGED that is a copy of one
# of KEPT (libFuzzer names the merged files by their SHA-1) that name.
keep_names() {
	local f sum
	find "$1" -maxdepth 1 -type f | while read -r f; do
		sum=$(sha1sum < "$f" | cut -d' ' -f1)
		[ ! -f "$2/$sum" ] || [ "$sum" = "${f##*/}" ] || mv "$2/$sum" "$2/${f##*/}"
	done
}

# files DIR: "N files, S KiB"
files() {
	echo "$(find "$1" -type f | wc -l) files, $(du -sk "$1" | cut -f1) KiB"
}

status=0 rows=()
for t in "$@"; do
	kept=$top/tests/fuzz/corpus/$t
	before=$(find "$kept" -type f | wc -l)
	echo "campaign: $t for $secs s" >&2
	"$top/tests/fuzz/fuzz.sh" -t "$secs" -o "$work" "$t" >&2 || status=1
	log=$work/logs/$t.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	read -r cov ft < <(awk '/^#[0-9]+\t.* cov: / { c = $4; f = $6 }
		END { print c, f }' "$log")
	crashes=$(find "$work/artifacts/$t" -type f | wc -l)

	merged=$work/merged/$t
	mkdir -p "$merged"
	echo "campaign: $t: merging the corpus" >&2
	if "$bin/fuzz-$t" -merge=1 -timeout=10 -rss_limit_mb=2048 "$merged" \
		"$kept" "$work/corpus/$t" > "$work/logs/$t.merge.log" 2>&1 &&
		[ -n "$(ls -A "$merged")" ]; then
		keep_names "$kept" "$merged"
		find "$kept" -mindepth 1 -delete
		cp -pR "$merged"/. "$kept"/
	else
		echo "campaign: $t: the merge failed ($work/logs/$t.merge.log): corpus kept" >&2
		status=1
	fi
	rows+=("| $t | ${execs:-?} | ${cov:-?} | ${ft:-?} | $before → $(files "$kept") | $crashes |")
done

echo "Fuzzing campaign, $secs s per target, $(git -C "$top" rev-parse --short HEAD 2> /dev/null):"
echo
echo "| target | executions | cov | ft | corpus (files before → after, size) | crashes |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $status
