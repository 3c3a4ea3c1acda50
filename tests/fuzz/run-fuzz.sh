#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# A fixed fuzzing run of every target (tests/fuzz/fuzz.sh -n): a set
# number of executions from a set seed, so that the same commit does the
# same work on every run, whatever the machine's load (the executions
# and coverage it prints are the same each time); none may crash.  The
# targets carry their own sanitizers, so this runs once, in plain mode;
# `make fuzz` is the open-ended run, `make fuzz-campaign` the long one.
#
# Executions per target: about 10 s each on the loaded 2-core machine
# the suite runs on (kernel_image and linker_map, with their larger
# inputs, run some 500 and 1,000 a second there; the others 10,000 and
# more).  KMS_FUZZ_RUNS (one count for every target) and KMS_FUZZ_SEED
# override them.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v clang-14 > /dev/null || { echo "clang-14 is not installed"; exit 77; }

runs_of() {
	case $1 in
	blob|kernel_note) echo 200000 ;;
	kbuild) echo 50000 ;;
	linker_map) echo 10000 ;;
	kernel_image) echo 5000 ;;
	*) echo 20000 ;;
	esac
}

cd "$top" || exit 1
nice -n 10 make -s fuzz-build > "$tmp/build.log" 2>&1 || {
	cat "$tmp/build.log" >&2
	fail "make fuzz-build"
	finish
}
for t in $(cd tests/fuzz && printf '%s\n' fuzz_*.c | sed 's/^fuzz_//; s/\.c$//'); do
	tests/fuzz/fuzz.sh -n "${KMS_FUZZ_RUNS:-$(runs_of "$t")}" \
		-s "${KMS_FUZZ_SEED:-1}" -o "$tmp/fuzz" "$t" ||
		fail "fuzz target $t crashed"
done
finish
