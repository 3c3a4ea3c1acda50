#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that every prefix of a series builds: extract linux-source-VERSION
# into a scratch directory, then apply the patches one at a time and build
# vmlinux (small test config, with CONFIG_KALLMODSYMS and the function
# tracer) after each, and the C files each patch touches again with W=1.
# A patch that touches tools/perf/ also gets perf built after it (out of
# tree, -Werror as perf builds by default, the optional libraries off but
# libelf and libzstd), with the same
# ccache.
# Slow (a full build, then one incremental build per patch): run it by
# hand before changing the series, not in CI.  The default scratch
# directory is the same every time, under the kernel cache, and the
# compilers go through ccache as tests/kernel/build.sh's do: a second run
# recompiles only what the series changed.  The test fixture
# (kernel-patches/VERSION-fixture) is not part of the series: it is not
# applied.
#
# usage: kernel-patches/check-each.sh [-k VERSION] [-f NUMBER] [SCRATCH_DIR]
#        VERSION: 6.12 (default) or 6.1
#        NUMBER:  build from this patch on (0013): the ones before it are
#                 applied and not built, to check a new patch at the
#                 series' end without a build per earlier prefix
#   SCRATCH_DIR: default $KALLMODSYMS_CACHE/check-each-VERSION

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
version=6.12
first=
if [ "${1:-}" = -k ]; then
	version=${2:?usage: check-each.sh [-k VERSION] [-f NUMBER] [SCRATCH_DIR]}
	shift 2
fi
if [ "${1:-}" = -f ]; then
	first=${2:?usage: check-each.sh [-k VERSION] [-f NUMBER] [SCRATCH_DIR]}
	shift 2
fi
series=$top/kernel-patches/$version
# shellcheck source=SCRIPTDIR/../tests/kernel/env.sh
. "$top/tests/kernel/env.sh"
scratch=${1:-$kms_cache/check-each-$version}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-$version.tar.xz}

rm -rf "$scratch/src" "$scratch/build"
mkdir -p "$scratch/src" "$scratch/build"
tar -xf "$tarball" -C "$scratch/src" --strip-components=1
kmake() {
	kms_make -C "$scratch/src" O="$scratch/build" ARCH=x86_64 \
		-j"$(nproc)" "$@"
}
kmake tinyconfig > /dev/null
# The small config, and the function tracer: the 6.12 series changes
# ftrace.c, which only CONFIG_FUNCTION_TRACER compiles.
printf 'CONFIG_%s=y\n' FUNCTION_TRACER DYNAMIC_FTRACE FUNCTION_GRAPH_TRACER \
	> "$scratch/tracers.config"

# w1 PATCH: the objects of this build PATCH touches a C file of, compiled
# again with W=1 (the extra warnings upstream asks new code to be free
# of); prints how many warnings that gave, after printing them.
w1() {
	local f objs=()
	while read -r f; do
		[ -f "$scratch/build/${f%.c}.o" ] && objs+=("${f%.c}.o")
	done < <(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$1")
	[ ${#objs[@]} -gt 0 ] || { echo 0; return; }
	kmake W=1 "${objs[@]}" > "$scratch/w1.log" 2>&1 || true
	grep -A3 'warning:' "$scratch/w1.log" >&2 || true
	grep -c 'warning:' "$scratch/w1.log" || true
}

# perf_build PATCH: perf, if PATCH touches tools/perf/; "" or "; perf builds".
perf_build() {
	grep -q '^+++ b/tools/perf/' "$1" || return 0
	if kms_make -C "$scratch/src/tools/perf" -f Makefile.perf \
		O="$scratch/perf" NO_LIBTRACEEVENT=1 NO_JEVENTS=1 NO_JVMTI=1 \
		NO_LIBPYTHON=1 NO_LIBPERL=1 NO_LIBBPF=1 NO_BPF_SKEL=1 NO_GTK2=1 \
		NO_SLANG=1 NO_LIBUNWIND=1 NO_LIBNUMA=1 NO_LIBCAP=1 \
		NO_LIBBABELTRACE=1 NO_CAPSTONE=1 NO_LIBLLVM=1 NO_LIBPFM4=1 \
		NO_SHELLCHECK=1 -j"$(nproc)" perf > "$scratch/perf.log" 2>&1; then
		echo "; perf builds"
	else
		echo "; perf FAILS to build:"
		grep -B2 -A3 'error' "$scratch/perf.log" | head -n 20
		return 1
	fi
}

status=0
mkdir -p "$scratch/perf"
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	patch -d "$scratch/src" -p1 -s < "$series/$p"
	if [ -n "$first" ] && [[ $p < $first ]]; then
		printf 'applied: %s (not built: -f %s)\n' "$p" "$first"
		continue
	fi
	# Again after each patch: the options it adds become known.
	"$scratch/src/scripts/kconfig/merge_config.sh" -m -O "$scratch/build" \
		"$scratch/build/.config" "$top/tests/kernel/configs/small.config" \
		"$scratch/tracers.config" > /dev/null
	kmake olddefconfig > /dev/null
	if kmake vmlinux > "$scratch/build.log" 2>&1; then
		if ! perf=$(perf_build "$series/$p"); then
			printf 'FAILS:   %s (vmlinux builds)%s\n' "$p" "$perf"
			status=1
			break
		fi
		printf 'builds:  %s (%s warnings, %s with W=1 in the C files it touches; CONFIG_KALLMODSYMS=%s%s)\n' "$p" \
			"$(grep -c 'warning:' "$scratch/build.log" || true)" \
			"$(w1 "$series/$p")" \
			"$(grep -q '^CONFIG_KALLMODSYMS=y' "$scratch/build/.config" && echo y || echo n)" \
			"$perf"
	else
		printf 'FAILS:   %s\n' "$p"
		tail -n 20 "$scratch/build.log"
		status=1
		break
	fi
done < "$series/series"
exit $status
