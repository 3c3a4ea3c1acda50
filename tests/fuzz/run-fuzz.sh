#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# A short fuzzing run of every target (tests/fuzz/fuzz.sh, 15 s each): none
# may crash.  The targets carry their own sanitizers, so this runs once, in
# plain mode; `make fuzz` is the long run.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v clang-14 > /dev/null || { echo "clang-14 is not installed"; exit 77; }

cd "$top" || exit 1
nice -n 10 make -s fuzz-build > "$tmp/build.log" 2>&1 || {
	cat "$tmp/build.log" >&2
	fail "make fuzz-build"
	finish
}
targets=$(cd tests/fuzz && printf '%s\n' fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
# shellcheck disable=SC2086
tests/fuzz/fuzz.sh "${KMS_FUZZ_SECONDS:-15}" $targets || fail "a fuzz target crashed"
finish
