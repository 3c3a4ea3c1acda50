#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What CONFIG_KALLMODSYMS costs in image size: build (or reuse from the
# cache) each test config with and without it and print the sizes of
# vmlinux's loaded sections and of bzImage, with the growth as a ratio.
#
# usage: bench/image-size.sh [small|defconfig]...   (default: both)

set -euo pipefail
cd "$(dirname "$0")/.."

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig)


printf '%-10s %-8s %14s %14s %10s\n' config image without with growth
for c in "${configs[@]}"; do
	with=$(tests/kernel/build.sh "$c")
	without=$(tests/kernel/build.sh "$c-nokms")
	for what in vmlinux bzImage; do
		case $what in
		vmlinux)
			a=$(size "$without/vmlinux" | awk 'NR == 2 { print $4 }')
			b=$(size "$with/vmlinux" | awk 'NR == 2 { print $4 }')
			label="vmlinux (text+data+bss)"
			;;
		bzImage)
			a=$(stat -c %s "$without/arch/x86/boot/bzImage")
			b=$(stat -c %s "$with/arch/x86/boot/bzImage")
			label=bzImage
			;;
		esac
		printf '%-10s %-8s %14d %14d %+9.3f%%  (%s)\n' "$c" "$what" "$a" "$b" \
			"$(echo "($b - $a) * 100 / $a" | bc -l)" "$label"
	done
	printf '%-10s %-8s %14s %14d\n' "$c" .notes "" \
		"$(readelf -SW "$with/vmlinux" | awk '$2 == ".notes" { print strtonum("0x" $6) }')"
done
