#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# The conformance corpus (sidecar/FORMAT.md section 7): every reader of the
# note judges every file of tests/conformance/corpus/ and must reach the
# verdict tests/conformance/verdicts gives it, accept with the same counts
# and annotation lines (FORMAT.md 4's rule at the probes of section 7) or
# refuse for the same reason class.  The readers: the C library
# (kms-judge, as `kallmodsyms -t` loads a file), the kernel's parser from
# the patch series over tests/fuzz/kshim (kms-kernel-judge), and the gdb
# helpers' blob.py (judge.py)
# through each of its two ways to decompress, the Python zstandard module
# and the zstd program.  First, the corpus
# must be what kms-mkcorpus writes, byte for byte.
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
if [ ! -f "$top/python/kallmodsyms/constants.py" ]; then
	echo "python/kallmodsyms/constants.py is not built (make)"
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

# Verdicts (NAME accept|refuse ...) and annotation lines (NAME at ...).
# Verdict lines; annotation and path lines (FORMAT.md 7.1) are compared apart.
grep -v '^#' "$conf/verdicts" | awk '$2 != "at" && $2 != "path"' |
	LC_ALL=C sort > "$tmp/verdicts"
awk '$2 == "at" || $2 == "path"' "$conf/verdicts" | LC_ALL=C sort > "$tmp/annotations"
files=("$conf"/corpus/*.kms)
if [ "$(wc -l < "$tmp/verdicts")" != "${#files[@]}" ]; then
	fail "${#files[@]} corpus files, $(wc -l < "$tmp/verdicts") verdicts"
fi

skipped=
# judge READER CMD...: run a reader on every file (CMD -v -a FILE...),
# which prints "NAME VERDICT[<TAB>its message]" lines, each accept followed
# by "NAME at ..." lines; report the disagreements.
judge() {
	local reader=$1 status=0 n bad
	shift
	"$@" -v -a "${files[@]}" > "$tmp/$reader.out" 2> "$tmp/$reader.err" ||
		status=$?
	if [ "$status" != 0 ] || [ -s "$tmp/$reader.err" ]; then
		fail "$reader: exited $status"
		cat "$tmp/$reader.err" >&2
	fi
	awk '$2 != "at" && $2 != "path"' "$tmp/$reader.out" |
		LC_ALL=C sort > "$tmp/$reader.sorted"
	n=$(wc -l < "$tmp/$reader.sorted")
	# NAME, expected verdict, the reader's verdict and message.
	LC_ALL=C join -t '|' -a 1 -a 2 -e '(none)' -o 0,1.2,2.2 \
		<(sed 's/ /|/' "$tmp/verdicts") \
		<(sed 's/ /|/' "$tmp/$reader.sorted") |
		awk -F '|' '{ split($3, got, "\t") }
			got[1] != $2 { printf "  %s: expected \"%s\", got \"%s\"%s\n",
				$1, $2, got[1], got[2] == "" ? "" : " (" got[2] ")" }' \
		> "$tmp/$reader.bad"
	bad=$(wc -l < "$tmp/$reader.bad")
	echo "$reader: $n files judged, $bad disagreements"
	cat "$tmp/$reader.bad"
	[ "$bad" = 0 ] || fail "$reader disagrees with tests/conformance/verdicts on $bad files"
	# The annotation and path lines, line for line.
	awk '$2 == "at" || $2 == "path"' "$tmp/$reader.out" | LC_ALL=C sort |
		LC_ALL=C comm -3 "$tmp/annotations" - |
		sed -e 's/^\t/  got:      /' -e t -e 's/^/  expected: /' \
		> "$tmp/$reader.bad-at"
	bad=$(wc -l < "$tmp/$reader.bad-at")
	echo "$reader: $(awk '$2 == "at" || $2 == "path"' "$tmp/$reader.out" | wc -l) annotation and path lines, $bad differ"
	cat "$tmp/$reader.bad-at"
	[ "$bad" = 0 ] || fail "$reader's annotation lines differ from tests/conformance/verdicts ($bad lines)"
}

# KMS_WRAP is a command line (valgrind ...), split on purpose.
# shellcheck disable=SC2086
judge c $KMS_WRAP "$KMS_BUILD/kms-judge"
# shellcheck disable=SC2086
judge kernel $KMS_WRAP "$KMS_BUILD/kms-kernel-judge"
if "$python" -c 'import zstandard' 2> /dev/null; then
	judge python-zstandard "$python" "$conf/judge.py" "$top/python" \
		zstandard
else
	echo "python-zstandard: skipped, no zstandard module in $python"
	skipped=1
fi
if command -v zstd > /dev/null; then
	judge python-program "$python" "$conf/judge.py" "$top/python" \
		program
else
	echo "python-program: skipped, no zstd program"
	skipped=1
fi

if [ "$failures" = 0 ] && [ -n "$skipped" ]; then
	echo "a reader was skipped: python3-zstandard and zstd are needed"
	exit 77
fi
finish
