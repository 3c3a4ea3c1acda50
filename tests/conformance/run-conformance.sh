#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# The conformance corpus (sidecar/FORMAT.md section 7): every reader of the
# note judges every file of tests/conformance/corpus/ and must reach the
# verdict tests/conformance/verdicts gives it, accept with the same counts
# or refuse for the same reason class.  The readers: the C library
# (kms-judge, as `kallmodsyms -t` loads a file), the kernel's parser from
# the patch series over tests/fuzz/kshim (kms-kernel-judge), and the gdb
# helpers' blob.py (judge.py) through each of its two ways to decompress,
# the Python zstandard module and the zstd program.  First, the corpus
# must be what kms-mkcorpus writes, byte for byte.
#
# The kernel's parser still reads format version 1 (FORMAT.md 7): it is
# judged against the frozen version-1 corpus (tests/conformance/v1/), and
# on the version-2 corpus must refuse, as bad-version, every note that the
# version-2 verdicts accept.  The output says so.
#
# KMS_PYTHON: the Python of the gdb helpers (default /usr/bin/python3,
# the one Debian's gdb embeds).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

conf=$tests_dir/conformance
python=${KMS_PYTHON:-/usr/bin/python3}
for prog in kms-mkcorpus kms-judge kms-kernel-judge; do
	if [ ! -x "$KMS_BUILD/$prog" ]; then
		echo "$KMS_BUILD/$prog is not built (make tests)"
		exit 77
	fi
done
if [ ! -f "$top/gdb-scripts/kallmodsyms_gdb/constants.py" ]; then
	echo "gdb-scripts/kallmodsyms_gdb/constants.py is not built (make)"
	exit 77
fi

## The corpus is the generator's output.
mkdir "$tmp/regen"
$KMS_WRAP "$KMS_BUILD/kms-mkcorpus" "$tmp/regen" \
	"$tests_dir"/fuzz/regressions/blob/zstd-*.kms ||
	fail "kms-mkcorpus exited $?"
if ! diff -r "$tmp/regen/corpus" "$conf/corpus" >&2 ||
	! diff -u "$tmp/regen/verdicts" "$conf/verdicts" >&2; then
	fail "tests/conformance/ is not what kms-mkcorpus writes (regenerate: $KMS_BUILD/kms-mkcorpus tests/conformance tests/fuzz/regressions/blob/zstd-*.kms)"
fi

grep -v '^#' "$conf/verdicts" | LC_ALL=C sort > "$tmp/verdicts"
files=("$conf"/corpus/*.kms)
if [ "$(wc -l < "$tmp/verdicts")" != "${#files[@]}" ]; then
	fail "${#files[@]} corpus files, $(wc -l < "$tmp/verdicts") verdicts"
fi
grep -v '^#' "$conf/v1/verdicts" | LC_ALL=C sort > "$tmp/verdicts-v1"
files_v1=("$conf"/v1/corpus/*.kms)
if [ "$(wc -l < "$tmp/verdicts-v1")" != "${#files_v1[@]}" ]; then
	fail "${#files_v1[@]} version-1 corpus files, $(wc -l < "$tmp/verdicts-v1") verdicts"
fi
# What a version-1 reader must say of the version-2 corpus: bad-version
# for every note a version-2 reader accepts (the rest is not its concern).
awk '$2 == "accept" { print $1 " refuse bad-version" }' "$tmp/verdicts" \
	> "$tmp/verdicts-v2-by-v1"

skipped=
# judge READER VERDICTS PARTIAL CMD...: run a reader on FILES (CMD -v
# FILE...), which prints "NAME VERDICT[<TAB>its message]" lines; report
# where it disagrees with the sorted VERDICTS file.  PARTIAL=partial:
# VERDICTS covers some of the files, the others are not compared.
judge() {
	local reader=$1 verdicts=$2 partial=$3 status=0 n bad unpaired=(-a 2)
	shift 3
	[ "$partial" != partial ] || unpaired=()
	"$@" -v "${judge_files[@]}" > "$tmp/$reader.out" 2> "$tmp/$reader.err" ||
		status=$?
	if [ "$status" != 0 ] || [ -s "$tmp/$reader.err" ]; then
		fail "$reader: exited $status"
		cat "$tmp/$reader.err" >&2
	fi
	LC_ALL=C sort "$tmp/$reader.out" > "$tmp/$reader.sorted"
	n=$(wc -l < "$tmp/$reader.sorted")
	# NAME, expected verdict, the reader's verdict and message.
	LC_ALL=C join -t '|' -a 1 "${unpaired[@]}" -e '(none)' -o 0,1.2,2.2 \
		<(sed 's/ /|/' "$verdicts") \
		<(sed 's/ /|/' "$tmp/$reader.sorted") |
		awk -F '|' '{ split($3, got, "\t") }
			got[1] != $2 { printf "  %s: expected \"%s\", got \"%s\"%s\n",
				$1, $2, got[1], got[2] == "" ? "" : " (" got[2] ")" }' \
		> "$tmp/$reader.bad"
	bad=$(wc -l < "$tmp/$reader.bad")
	echo "$reader: $n files judged, $(wc -l < "$verdicts") compared, $bad disagreements"
	cat "$tmp/$reader.bad"
	[ "$bad" = 0 ] || fail "$reader disagrees with $verdicts on $bad files"
}

judge_files=("${files[@]}")
# KMS_WRAP is a command line (valgrind ...), split on purpose.
# shellcheck disable=SC2086
judge c "$tmp/verdicts" all $KMS_WRAP "$KMS_BUILD/kms-judge"
if "$python" -c 'import zstandard' 2> /dev/null; then
	judge python-zstandard "$tmp/verdicts" all "$python" "$conf/judge.py" \
		"$top/gdb-scripts" zstandard
else
	echo "python-zstandard: skipped, no zstandard module in $python"
	skipped=1
fi
if command -v zstd > /dev/null; then
	judge python-program "$tmp/verdicts" all "$python" "$conf/judge.py" \
		"$top/gdb-scripts" program
else
	echo "python-program: skipped, no zstd program"
	skipped=1
fi

echo "kernel: the patch series' parser reads format version 1 (not yet ported to version 2):"
echo "kernel: judged on tests/conformance/v1/, and for refusing version-2 notes"
judge_files=("${files_v1[@]}")
# shellcheck disable=SC2086
judge kernel-v1-corpus "$tmp/verdicts-v1" all $KMS_WRAP \
	"$KMS_BUILD/kms-kernel-judge"
judge_files=("${files[@]}")
# shellcheck disable=SC2086
judge kernel-v2-refused "$tmp/verdicts-v2-by-v1" partial $KMS_WRAP \
	"$KMS_BUILD/kms-kernel-judge"

if [ "$failures" = 0 ] && [ -n "$skipped" ]; then
	echo "a reader was skipped: python3-zstandard and zstd are needed"
	exit 77
fi
finish
