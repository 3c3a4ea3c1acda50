#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: build-perf.sh [PATCH...]
#
# Builds perf from tools/perf of the linux-source tarball
# (KERNEL_TARBALL, default /usr/src/linux-source-6.12.tar.xz, Debian's
# linux-source-6.12) with the PATCHes (git format-patch files, applied
# with patch -p1) once: the tree and its build are kept in
# $cache/perf/KEY, KEY a hash of the tarball's name and the patches' diffs
# (not their messages), and a later call with the same key only prints
# the directory.  (tests/kernel/build-perf.sh builds the tools/perf of a
# cached kernel's tree instead, with the kernel series and no other.)  Prints that
# directory, which holds src/ and build/perf.  The optional libraries are
# off, as kernel-patches/check-each.sh builds perf, and so is eventfd
# (feature-eventfd=0): perf record's wake-up needs it, and the small test
# kernels have no CONFIG_EVENTFD ("Failed to create wakeup eventfd").
# The compilers go through ccache as the test kernels' do.  Exits 1 with
# the log's tail when the build fails.
set -eu
renice -n 10 $$ > /dev/null
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../kernel/env.sh
. "$top/tests/kernel/env.sh"
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
key=$( { echo "$tarball feature-eventfd=0"; [ $# = 0 ] || sed -s '1,/^---$/d' "$@"; } |
	sha256sum | cut -c1-12)
dir=$kms_cache/perf/$key
# One build per key at a time; a second caller waits, then finds it built.
mkdir -p "$kms_cache/perf"
exec 9> "$dir.lock"
flock 9
if [ -x "$dir/build/perf" ] && [ -e "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir/src" "$dir/build"
log=$dir/build.log
{
	tar -xf "$tarball" -C "$dir/src" --strip-components=1 \
		--wildcards '*/tools' '*/include' '*/arch' '*/scripts' '*/lib' '*/Makefile'
	for p in "$@"; do
		patch -d "$dir/src" -p1 -s < "$p"
	done
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; exit 1; }

kms_make -C "$dir/src/tools/perf" -f Makefile.perf O="$dir/build" \
	NO_LIBTRACEEVENT=1 NO_JEVENTS=1 NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 \
	NO_LIBBPF=1 NO_BPF_SKEL=1 NO_GTK2=1 NO_SLANG=1 NO_LIBUNWIND=1 \
	NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_CAPSTONE=1 NO_LIBLLVM=1 \
	NO_LIBPFM4=1 NO_SHELLCHECK=1 feature-eventfd=0 -j2 perf >> "$log" 2>&1 || {
	echo "build-perf.sh: perf did not build; $log ends:" >&2
	grep -E 'error|Error' "$log" | tail -n 20 >&2
	exit 1
}
touch "$dir/done"
echo "$dir"
