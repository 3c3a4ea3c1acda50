#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What CONFIG_KALLMODSYMS costs in image size: build (or reuse from the
# cache) each test config with and without it (CONFIG-nokms) and compare
# vmlinux's loaded sections (text+data+bss, `size`) and bzImage.
#
# usage: bench/image-size.sh [CONFIG...]   (default: small defconfig)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig)

row_header "image size with/without, bytes"
for c in "${configs[@]}"; do
	with=$(tests/kernel/build.sh "$c")
	without=$(tests/kernel/build.sh "$c-nokms")
	a=$(size "$without/vmlinux" | gawk 'NR == 2 { print $4 }')
	b=$(size "$with/vmlinux" | gawk 'NR == 2 { print $4 }')
	row "$c: vmlinux text+data+bss" "$b" "$a" B
	a=$(stat -c %s "$without/arch/x86/boot/bzImage")
	b=$(stat -c %s "$with/arch/x86/boot/bzImage")
	row "$c: bzImage" "$b" "$a" B
	note "$c: .note.kallmodsyms $(readelf -SW "$with/vmlinux" |
		gawk '$2 == ".note.kallmodsyms" { print strtonum("0x" $6) }') bytes"
done
