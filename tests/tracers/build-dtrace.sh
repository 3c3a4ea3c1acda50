#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: build-dtrace.sh SRC BASE [PATCH...]
#
# Builds libdtrace from the dtrace-utils git repository SRC at commit BASE
# with the PATCHes (git format-patch files) applied, once: the checkout and
# its build are kept in $cache/dtrace/KEY, KEY being BASE and a hash of
# the patches, and a later call with the same key only prints the
# directory.  Prints that directory, which holds src/ (the checkout) and
# build/ (libdtrace.so, the dtrace command, dlibs/).  The build needs
# dtrace-utils' packages (its README.md: gcc-bpf, binutils-bpf, libbpf-dev,
# libpcap-dev, libfuse3-dev, binutils-dev...); exits 1 with the log's tail
# when the build fails.  Debian 12's gcc-bpf 12 rejects libbpf's helper
# declarations (function pointers: "indirect call in function"), so BPF
# code is compiled against a copy of them declared with gcc's
# kernel_helper attribute instead, outside the checkout.
set -eu
src=$1 base=$2
shift 2
cache=${KALLMODSYMS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/kallmodsyms}
key=$(git -C "$src" rev-parse --short=12 "$base^{commit}")
[ $# = 0 ] || key=$key-$(cat "$@" | sha256sum | cut -c1-12)
dir=$cache/dtrace/$key
if [ -e "$dir/build/libdtrace.so" ] && [ -e "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
log=$dir/build.log
{
	git clone -q --no-checkout "$src" "$dir/src"
	git -C "$dir/src" checkout -q "$base"
	if [ $# -gt 0 ]; then
		git -C "$dir/src" -c user.name=kms-test -c user.email=kms-test@invalid \
			am -q "$@"
	fi
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; exit 1; }

# The helper declarations, for gcc-bpf before 13.
bpfc=$(command -v bpf-unknown-none-gcc || command -v bpf-gcc)
bpfld=$(command -v bpf-unknown-none-ld || command -v bpf-ld)
if [ "$("$bpfc" -dumpversion | cut -d. -f1)" -lt 13 ]; then
	mkdir -p "$dir/bpf-compat/bpf"
	cp /usr/include/bpf/bpf_helpers.h "$dir/bpf-compat/bpf/"
	sed 's/^static \(.*\)(\*\([A-Za-z0-9_]*\))(\(.*\)) = (void \*) \([0-9]*\);$/\1\2(\3) __attribute__((kernel_helper(\4)));/' \
		/usr/include/bpf/bpf_helper_defs.h > "$dir/bpf-compat/bpf/bpf_helper_defs.h"
	printf '#!/bin/sh\nexec %s -I%s "$@"\n' "$bpfc" "$dir/bpf-compat" > "$dir/bpf-cc"
	chmod +x "$dir/bpf-cc"
	bpfc=$dir/bpf-cc
fi

# "make -k": the USDT test triggers do not link with Debian 12's binutils
# (R_X86_64_NONE relocations); libdtrace and the command do.
(cd "$dir/src" && nice -n 10 make -k -j2 objdir="$dir/build" \
	BPFC="$bpfc" BPFLD="$bpfld") >> "$log" 2>&1 || true
for f in libdtrace.so dtrace dlibs/bpf_dlib.o; do
	[ -e "$dir/build/$f" ] || {
		echo "build-dtrace.sh: $dir/build/$f was not built; $log ends:" >&2
		grep -E 'error|Error' "$log" | tail -n 20 >&2
		exit 1
	}
done
touch "$dir/done"
echo "$dir"
