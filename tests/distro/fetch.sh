#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Download a Debian kernel's debug vmlinux and the files installed beside
# it, once, into the cache: $cache/distro/RELEASE/ holds what the two
# packages unpack to (usr/lib/debug/boot/vmlinux-RELEASE, boot/config-*,
# boot/System.map-*, lib/modules/RELEASE/modules.builtin*, modules.order),
# and the .debs stay in $cache/distro/debs/.  Never installed: apt-get
# download, dpkg-deb --fsys-tarfile.  Prints the directory.
#
# usage: tests/distro/fetch.sh RELEASE ARCH
#        tests/distro/fetch.sh --source X.Y

set -euo pipefail
# shellcheck source=SCRIPTDIR/../kernel/env.sh
. "$(dirname "$0")/../kernel/env.sh"

die() { echo "fetch.sh: $*" >&2; exit 1; }

# fetch.sh --source X.Y: /usr/src/linux-source-X.Y.tar.xz (the package
# linux-source-X.Y, which scripts/install-deps.sh installs for 6.1 and
# 6.12) unpacked once into $cache/distro/src/; prints the tree.
if [ "${1:-}" = --source ] && [ $# = 2 ]; then
	src=$kms_cache/distro/src/linux-source-$2
	tarball=/usr/src/linux-source-$2.tar.xz
	mkdir -p "${src%/*}"
	# Kernels of one version run side by side: one unpacks, the others wait.
	exec 9> "$src.lock"
	flock 9
	if [ ! -f "$src/Makefile" ]; then
		[ -f "$tarball" ] || die "$tarball: missing (apt-get install linux-source-$2)"
		rm -rf "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xf "$tarball" -C "$src.tmp" --strip-components=1 ||
			die "$tarball: cannot unpack"
		rm -rf "$src"
		mv "$src.tmp" "$src"
	fi
	echo "$src"
	exit 0
fi
[ $# = 2 ] || die "usage: fetch.sh RELEASE ARCH | --source X.Y"
release=$1 arch=$2
dir=$kms_cache/distro/$release
debs=$kms_cache/distro/debs
vmlinux=$dir/usr/lib/debug/boot/vmlinux-$release

if [ -s "$vmlinux" ] && [ -s "$dir/lib/modules/$release/modules.builtin" ]; then
	echo "$dir"
	exit 0
fi
[ "$arch" = "$(dpkg --print-architecture)" ] ||
	dpkg --print-foreign-architectures | grep -qx "$arch" ||
	die "apt knows no $arch packages: dpkg --add-architecture $arch && apt-get update"
mkdir -p "$debs"
for p in linux-image-$release-unsigned linux-image-$release-dbg; do
	compgen -G "$debs/${p}_*_$arch.deb" > /dev/null && continue
	(cd "$debs" && apt-get download -q "$p:$arch" > /dev/null 2>&1) ||
		die "cannot download $p:$arch (apt-cache search ${p%-*}: the archive keeps only its current ABI; change tests/distro/kernels)"
done
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
dpkg-deb --fsys-tarfile "$debs/linux-image-$release-unsigned"_*_"$arch.deb" |
	tar -x -C "$dir.tmp" --wildcards "./boot/config-$release" \
		"./boot/System.map-$release" "./lib/modules/$release/modules.*"
# Only the vmlinux of the 0.8 GB package; tar still reads it all.
dpkg-deb --fsys-tarfile "$debs/linux-image-$release-dbg"_*_"$arch.deb" |
	tar -x -C "$dir.tmp" "./usr/lib/debug/boot/vmlinux-$release"
[ -s "$dir.tmp/usr/lib/debug/boot/vmlinux-$release" ] ||
	die "no vmlinux-$release in linux-image-$release-dbg"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$dir"
