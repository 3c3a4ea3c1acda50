# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by every tests/*/run-*.sh.  In the style of elfutils' test-subr.sh:
# a test runs commands and compares their output with what it expects,
# written beside the command.
#
# Environment (set by tests/run-tests.sh):
#   KMS_BUILD  directory with kallmodsyms and kallmodsyms-gen (default: build)
#   KMS_WRAP   command to run the tools under (valgrind ...), may be empty
#
# Here: the assertions, the tools, the synthetic tree.  Test kernels:
# tests/kernel/kernels.sh; QEMU: tests/kernel/qemu.sh.
#
# A test exits 0 when it passes, 1 when it fails, 77 when it is skipped.

set -u

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${KMS_BUILD:=$top/build}"
: "${KMS_WRAP:=}"
tests_dir=$top/tests

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kms-test.XXXXXX")
# A test that forgets finish() still fails when a check failed; commands
# given to at_exit (stopping QEMU, gdb) run first, whatever happened.
at_exit_commands=
at_exit() { at_exit_commands="$*; $at_exit_commands"; }
# shellcheck disable=SC2154 # rc: the trap's own
trap 'rc=$?; eval "$at_exit_commands"; [ -n "${KMS_KEEP_TMP:-}" ] || rm -rf "$tmp"
	[ "$failures" = 0 ] || exit 1; exit $rc' EXIT

failures=0

# The tools, run under $KMS_WRAP.
kms_gen() { $KMS_WRAP "$KMS_BUILD/kallmodsyms-gen" "$@"; }
kms() { $KMS_WRAP "$KMS_BUILD/kallmodsyms" "$@"; }
audit() { $KMS_WRAP "$KMS_BUILD/kallmodsyms-audit" "$@"; }

# A check fed through a pipe ("printf ... | testrun_compare ...") must
# count its failure in this shell.
shopt -s lastpipe

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# testrun_compare CMD ARGS... <<EOF (expected stdout) EOF
# Runs the command, which must exit 0 with that exact output and nothing on
# stderr.
testrun_compare() {
	cat > "$tmp/expected"
	local status=0
	"$@" > "$tmp/actual" 2> "$tmp/stderr" || status=$?
	if [ "$status" != 0 ]; then
		fail "$* exited $status"
		cat "$tmp/stderr" >&2
	elif ! diff -u "$tmp/expected" "$tmp/actual" >&2; then
		fail "$*: output differs (- expected, + actual)"
	elif [ -s "$tmp/stderr" ]; then
		fail "$*: unexpected stderr"
		cat "$tmp/stderr" >&2
	fi
}

# testrun_empty CMD ARGS...: testrun_compare with nothing expected.  Not an
# empty here-document: bash makes that a redirection from /dev/null, which
# is a regular file on some machines (this one), written by whoever writes
# "> /dev/null".
testrun_empty() { testrun_compare "$@" < <(:); }

# testrun_error STATUS 'expected stderr' CMD ARGS...
# The command must exit STATUS, print exactly that on stderr, and nothing on
# stdout.
testrun_error() {
	local want=$2
	run_failing "$@" || return 0
	[ "$(cat "$tmp/stderr")" = "$want" ] && return 0
	fail "${*:3}: stderr differs"
	printf -- '- %s\n+ %s\n' "$want" "$(cat "$tmp/stderr")" >&2
}

# testrun_error_match STATUS 'extended regex' CMD ARGS...
# As testrun_error, for messages that carry values the compiler decides
# (checksums of the fixture's tables).
testrun_error_match() {
	local pattern=$2
	run_failing "$@" || return 0
	grep -Exq -- "$pattern" "$tmp/stderr" &&
		[ "$(wc -l < "$tmp/stderr")" = 1 ] && return 0
	fail "${*:3}: stderr is not one line matching $pattern"
	cat "$tmp/stderr" >&2
}

# run_failing STATUS EXPECTED CMD ARGS...: run the command into $tmp/actual
# and $tmp/stderr; fail (and return 1) on another exit status or any stdout.
run_failing() {
	local want_status=$1 status=0
	shift 2
	"$@" > "$tmp/actual" 2> "$tmp/stderr" || status=$?
	if [ "$status" != "$want_status" ]; then
		fail "$* exited $status, expected $want_status"
		cat "$tmp/stderr" >&2
		return 1
	fi
	if [ -s "$tmp/actual" ]; then
		fail "$*: unexpected stdout"
		return 1
	fi
}

# assert_same FILE1 FILE2 WHAT
assert_same() {
	cmp -s "$1" "$2" || fail "$3: $1 and $2 differ"
}

# patch_byte FILE OFFSET HEXBYTE: damage a copy in place.
patch_byte() {
	printf '%b' "\\x$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# assert_absent PATH... : no file left behind (temporaries included).
assert_absent() {
	local p
	for p in "$@"; do
		# shellcheck disable=SC2144
		if [ -e "$p" ] || ls "$p".tmp* > /dev/null 2>&1; then
			fail "$p (or a temporary of it) was left behind"
		fi
	done
}

finish() {
	[ "$failures" = 0 ] && exit 0
	echo "$failures check(s) failed" >&2
	exit 1
}

# The synthetic tree, built once per test into $tmp/fixture-MODE (with
# CC_FIXTURE, LD_FIXTURE or LTO_FIXTURE set: fixture-MODE-CC-LD-LTO).
fixture() {
	local mode=${1:-relocatable}
	local tools=${CC_FIXTURE:-}-${LD_FIXTURE:-}-${LTO_FIXTURE:-}
	local dir=$tmp/fixture-$mode
	[ "$tools" = -- ] || dir=$dir-$tools
	if [ ! -f "$dir/vmlinux" ]; then
		"$tests_dir/unit/build-fixture.sh" "$dir" "$mode" >&2 ||
			{ echo "cannot build the fixture" >&2; exit 1; }
	fi
	echo "$dir"
}

# fixture_tables: the relocatable fixture in $fx, its image in $v, its
# tables generated into fx.kms in $tmp, the working directory.
fixture_tables() {
	fx=$(fixture relocatable)
	v=$fx/vmlinux
	cd "$tmp" || exit 1
	kms_gen -q -f sidecar -o fx.kms "$v" || fail "generate"
}

# fixture_copy: the relocatable fixture ($fx) copied into $tmp, the
# working directory, to be damaged there, with its tables in good.kms.
fixture_copy() {
	fx=$(fixture relocatable)
	cd "$tmp" || exit 1
	cp -a "$fx"/. .
	kms_gen -q -f sidecar -o good.kms vmlinux || fail "generate"
}

# lookup_error SPEC PROBLEM: after fixture_tables, looking SPEC up fails
# with exit 1 and the one line 'kallmodsyms: "SPEC": PROBLEM'.
lookup_error() {
	testrun_error 1 "kallmodsyms: \"$1\": $2" kms lookup -t fx.kms "$v" "$1"
}

# fixture_objects: kallmodsyms-gen -e's lines for the objects every link of
# the fixture through vmlinux.a orders alike, init/main.o to
# drivers/notbuiltin/helper.o; each link puts its others around them.
fixture_objects() {
	cat <<'EOF'
init/main.o
kernel/smp.o	{kernel/smp.o}
kernel/sched/core.o	{sched/core.o}
kernel/events/core.o	{core.o}
arch/x86/kernel/smp.o	{x86/kernel/smp.o}
drivers/base/core.o	{base/core.o}
drivers/a/core.o	[mod_a]
drivers/b/core.o	[mod_b]
drivers/net/liquid/common.o	[liquid] [liquid_vf]
drivers/net/liquid/main.o	[liquid]
drivers/net/liquid/vf_main.o	[liquid_vf]
drivers/notbuiltin/helper.o
EOF
}
