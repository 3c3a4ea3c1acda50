#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the tools, the tests and the kernel builds
# need.  Idempotent: does nothing when everything is there.

set -euo pipefail

packages=(
	# the tools
	gcc make libc6-dev libelf-dev libdw-dev libzstd-dev
	# lint (scripts/check)
	shellcheck python3-pyflakes
	# the tests
	binutils elfutils zstd gawk valgrind python3
	# the fuzz targets (make fuzz)
	clang-14 libclang-rt-14-dev
	# building Linux 6.12 and 6.1
	linux-source-6.12 linux-source-6.1 bc bison flex libssl-dev cpio
	xz-utils kmod ccache
	# the clang kernels (make LLVM=-16, ThinLTO)
	clang-16 lld-16 llvm-16
	# booting it
	qemu-system-x86 busybox-static gdb
	# the gdb helpers decompress the note in gdb's Python
	python3-zstandard
	# the arm64 kernel: cross-built, booted and debugged; other targets'
	# assemblers for the note (32-bit, big-endian)
	gcc-aarch64-linux-gnu qemu-system-arm gdb-multiarch
	binutils-arm-linux-gnueabihf binutils-powerpc64-linux-gnu
	binutils-s390x-linux-gnu
)

# The arm64 guests' busybox: Debian's busybox-static for arm64, unpacked
# (installing it would replace the host's /bin/busybox).
arm64_busybox=/usr/local/lib/kallmodsyms/arm64/busybox

# kbuild's compiler probes compile "-x c /dev/null": where /dev/null is a
# regular file that other programs write into, they fail at random, and a
# kernel configured then gets other compiler flags (ccache misses every
# object of the tree).  Make it the device again.
if [ ! -c /dev/null ]; then
	echo "install-deps: /dev/null is not a character device; making it one" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo sh -c 'mknod -m 666 /dev/null.kms c 1 3 && mv -f /dev/null.kms /dev/null'
fi

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && [ -x "$arm64_busybox" ] && exit 0

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# (busybox-static:arm64 below needs arm64 in apt's lists.)
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$sudo dpkg --add-architecture arm64
	$sudo apt-get update -q >&2
elif [ ${#missing[@]} -gt 0 ]; then
	$sudo apt-get update -q >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}" >&2
	$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
if [ ! -x "$arm64_busybox" ]; then
	echo "install-deps: unpacking busybox-static:arm64 into ${arm64_busybox%/*}" >&2
	deb=$(mktemp -d)
	(cd "$deb" && apt-get download -q busybox-static:arm64 >&2 &&
		dpkg-deb -x busybox-static_*_arm64.deb root)
	$sudo install -D -m 755 "$deb/root/bin/busybox" "$arm64_busybox"
	rm -rf "$deb"
fi
