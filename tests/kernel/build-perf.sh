#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build perf, statically linked, from the tools/perf of a cached test
# kernel's tree (the series applied), for the guests' initramfs, and print
# the path of the stripped binary on stdout.  Progress goes to stderr.
#
# usage: tests/kernel/build-perf.sh KBUILD   (a build directory that
#        tests/kernel/build.sh printed; its tree is ../src)
#
# The tree is only read: perf builds out of tree (make O=), into
# $KMS_PERF_CACHE, cached by a key of the kernel source's version, the
# patches applied to the tree (../applied, as build.sh records them) and
# the make variables below.  A rerun with the same key costs
# nothing; a new key rebuilds in the same directory, where make rebuilds
# only what changed.
#
# What the guests lack decides the features.  The small kernels are
# tinyconfig-based, without CONFIG_EVENTFD: perf record must not wait on an
# eventfd, so builtin-record.o is built without HAVE_EVENTFD_SUPPORT (it
# then polls its ring buffers alone, as where the libc has no eventfd;
# perf's feature-eventfd cannot be overridden from make's command line).
# Debian 12's static libraries give libelf, libdw, zlib, lzma and zstd;
# everything else is off (NO_LIBTRACEEVENT: Debian ships no static
# libtraceevent; the tests record tracepoints by id, tracepoint/config=ID/).
#
# Environment:
#   KALLMODSYMS_CACHE  cache root (default: ~/.cache/kallmodsyms)
#   KMS_PERF_CACHE     where perf is built (default: $KALLMODSYMS_CACHE/perf-VERSION)
#   JOBS               make -j value (default: nproc)

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kbuild=${1:?usage: build-perf.sh KBUILD}
# shellcheck source=SCRIPTDIR/env.sh
. "$here/env.sh"

log() { printf 'perf-build: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

kdir=$(cd "$kbuild/.." && pwd)
src=$kdir/src
[ -f "$src/tools/perf/Makefile.perf" ] || die "$src: no tools/perf"
[ -f "$kdir/.source" ] && [ -d "$kdir/applied" ] ||
	die "$kdir: not a tree tests/kernel/build.sh made"
version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = /./p' "$src/Makefile" | tr -d '\n')
[ -n "$version" ] || die "$src/Makefile: no kernel version"
dir=${KMS_PERF_CACHE:-$kms_cache/perf-$version}
jobs=${JOBS:-$(nproc)}

make_vars=(LDFLAGS=-static CFLAGS_REMOVE_builtin-record.o=-DHAVE_EVENTFD_SUPPORT
	NO_LIBTRACEEVENT=1
	NO_JEVENTS=1 NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_LIBBPF=1
	NO_BPF_SKEL=1 NO_GTK2=1 NO_SLANG=1 NO_LIBUNWIND=1 NO_LIBNUMA=1
	NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_CAPSTONE=1 NO_LIBLLVM=1
	NO_LIBCRYPTO=1 NO_LIBPFM4=1 NO_AUXTRACE=1 NO_SHELLCHECK=1)

key=$( {
	echo "source $(cat "$kdir/.source")"
	cat "$kdir"/applied/*
	printf '%s\n' "${make_vars[@]}"
} | sha256sum | cut -c1-16)

cached() {
	if [ "$(cat "$dir/.key" 2> /dev/null)" = "$key" ] && [ -x "$dir/perf" ]; then
		log "cached: $dir/perf"
		echo "$dir/perf"
		exit 0
	fi
}
cached

mkdir -p "$dir/build"
exec 8>"$dir/.lock"
flock 8
cached
# The tree must not be repatched while perf reads it: build.sh holds this
# lock while it changes the tree.
if [ -e "$kdir/.lock" ]; then
	exec 9< "$kdir/.lock"
	flock -s 9
fi

rm -f "$dir/.key"
log "building perf from $src in $dir/build with -j$jobs"
start=$(date +%s)
# (Makefile.perf itself: tools/perf/Makefile does not pass variables
# like CFLAGS_REMOVE_* down.)
kms_make -C "$src/tools/perf" -f Makefile.perf O="$dir/build" "${make_vars[@]}" \
	-j"$jobs" perf >&2 || die "perf did not build"
strip -o "$dir/perf.tmp" "$dir/build/perf"
mv "$dir/perf.tmp" "$dir/perf"
log "built in $(($(date +%s) - start))s"
echo "$key" > "$dir/.key"
echo "$dir/perf"
