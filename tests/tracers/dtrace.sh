# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced (after tests/lib.sh) by the DTrace tests: dtrace-utils, built
# with and without tracers/dtrace's patches.
#
# need_dtrace: skips the test (exit 77, one line saying why) where there
# is no dtrace-utils git repository with the patches' base at
# $KMS_DTRACE_SRC (default: a clone in the cache, dtrace-utils.git) or no
# gcc-bpf; else builds (or reuses: tests/tracers/build-dtrace.sh caches
# them) libdtrace and the dtrace command with the patches into $patched
# and without them into $unpatched, each a directory with src/ and build/.
# Exits 1 when a build fails.

# $tests_dir, $top: tests/lib.sh's.
# shellcheck disable=SC2154

need_dtrace() {
	local patches=$top/tracers/dtrace cache src base series

	cache=${KALLMODSYMS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/kallmodsyms}
	src=${KMS_DTRACE_SRC:-$cache/dtrace-utils.git}
	base=$(sed -n 's/^base-commit: //p' "$patches/0001-"*.patch)
	git -C "$src" cat-file -e "$base^{commit}" 2> /dev/null || {
		echo "no dtrace-utils source with $base at $src (set KMS_DTRACE_SRC)"
		exit 77
	}
	command -v bpf-gcc > /dev/null || command -v bpf-unknown-none-gcc > /dev/null || {
		echo "gcc-bpf is not installed (dtrace-utils' README.md lists its packages)"
		exit 77
	}
	mapfile -t series < <(sed "s|^|$patches/|" "$patches/series")
	# shellcheck disable=SC2034 # the tests'
	patched=$("$tests_dir/tracers/build-dtrace.sh" "$src" "$base" "${series[@]}") || exit 1
	# shellcheck disable=SC2034
	unpatched=$("$tests_dir/tracers/build-dtrace.sh" "$src" "$base") || exit 1
}
