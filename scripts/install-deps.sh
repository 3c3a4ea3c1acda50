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
	shellcheck python3-pyflakes python3-docutils
	# the tests
	binutils elfutils zstd gawk valgrind python3
	# the Debian package (debian/, tests/kernel/run-package.sh)
	dpkg-dev debhelper dh-python lintian man-db
	# the fuzz targets (make fuzz)
	clang-14 libclang-rt-14-dev
	# building Linux 6.12 and 6.1
	linux-source-6.12 linux-source-6.1 bc bison flex libssl-dev cpio
	xz-utils kmod ccache
	# the BPF kernel's BTF (small-bpf.config: pahole)
	dwarves
	# the clang kernels (make LLVM=-16, ThinLTO)
	clang-16 lld-16 llvm-16
	# perf for the guests, linked statically (tests/kernel/build-perf.sh):
	# the static libraries it takes (libelf, libdw, zstd: above)
	zlib1g-dev liblzma-dev libbz2-dev
	# booting it
	qemu-system-x86 busybox-static gdb
	# the gdb helpers decompress the note in gdb's Python
	python3-zstandard
	# post-mortem: the drgn helpers, crash, makedumpfile (run-vmcore.sh)
	python3-drgn crash makedumpfile
	# the tracers users have, in the guests of make check-full
	# (tests/tracers/run-bpftrace-guest.sh: bpftrace, bcc, strace, an
	# ext4 image made with mke2fs)
	bpftrace bpfcc-tools python3-bpfcc strace e2fsprogs
	# the arm64 kernel: cross-built, booted and debugged; other targets'
	# assemblers for the note (32-bit, big-endian)
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
	gdb-multiarch binutils-arm-linux-gnueabihf
	binutils-powerpc64-linux-gnu binutils-s390x-linux-gnu
	# the kernel's parser on a big-endian and a 32-bit target
	# (tests/conformance/run-cross.sh)
	gcc-s390x-linux-gnu libc6-dev-s390x-cross gcc-arm-linux-gnueabihf
	libc6-dev-armhf-cross qemu-user
)

# Files of other architectures' packages, unpacked into $libdir/ARCH
# rather than installed: the arm64 guests' busybox (busybox-static:arm64
# would replace the host's /bin/busybox) and the cross targets' libzstd.a
# (the foreign libzstd1 must match the host's version exactly, which the
# security archive's update breaks).  "PACKAGE:ARCH PATH-IN-PACKAGE".
libdir=/usr/local/lib/kallmodsyms
unpacked=(
	"busybox-static:arm64 bin/busybox"
	"libzstd-dev:s390x usr/lib/s390x-linux-gnu/libzstd.a"
	"libzstd-dev:armhf usr/lib/arm-linux-gnueabihf/libzstd.a"
)
unpacked_missing() {
	local u
	for u in "${unpacked[@]}"; do
		u=${u#*:}
		[ -e "$libdir/${u%% *}/${u##*/}" ] || return 0
	done
	return 1
}

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
[ ${#missing[@]} -eq 0 ] && ! unpacked_missing && exit 0

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# (The unpacked packages need their architectures in apt's lists.)
foreign=$(dpkg --print-foreign-architectures)
update=${missing[*]}
for arch in arm64 s390x armhf; do
	grep -qx "$arch" <<< "$foreign" && continue
	$sudo dpkg --add-architecture "$arch"
	update=1
done
# An index that fails to download (a mirror caught mid-sync, seen with
# bookworm-security's armhf list) makes apt-get update exit non-zero
# though apt then works from the lists it did fetch: say so and go on;
# the install below fails, naming the package, if one is really missing.
if [ -n "$update" ] && ! $sudo apt-get update -q >&2; then
	echo "install-deps: apt-get update could not fetch every index; going on with the lists it has" >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}" >&2
	$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
if unpacked_missing; then
	deb=$(mktemp -d)
	for u in "${unpacked[@]}"; do
		pkg=${u%% *} file=${u#* } arch=${pkg#*:}
		[ -e "$libdir/$arch/${file##*/}" ] && continue
		echo "install-deps: unpacking $pkg's $file into $libdir/$arch" >&2
		(cd "$deb" && apt-get download -q "$pkg" >&2 &&
			dpkg-deb -x "${pkg%:*}"_*_"$arch".deb "root-$arch")
		$sudo install -D -m 755 "$deb/root-$arch/$file" \
			"$libdir/$arch/${file##*/}"
	done
	rm -rf "$deb"
fi
