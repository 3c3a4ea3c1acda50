#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The real-world case: x86_64 defconfig (IBT, so linked from vmlinux.o)
# with the series and the fixture, booted in QEMU.
. "$(dirname "$0")/../lib.sh"
. "$tests_dir/kernel/qemu.sh"

plain_only boots
need_kernel defconfig
cd "$tmp" || exit 1

write_listing_guest guest.sh
make_initramfs initrd.gz guest.sh
boot "$kbuild/arch/x86/boot/bzImage" initrd.gz nokaslr nokaslr ||
	{ fail "boot"; exit 1; }
check_boot nokaslr "$kbuild/vmlinux"

# Every text symbol's modules agree with modules.builtin.ranges, but for
# the two that it gets wrong: its entry for cpuidle-haltpoll.o's
# .cpuidle.text ends before it starts.
gawk -f "$tests_dir/kernel/compare-builtin-ranges.awk" \
	"$kbuild/modules.builtin.ranges" "$kbuild/System.map" nokaslr/list \
	> compare
testrun_compare sh -c "grep -E '^differ: ' compare | cut -d' ' -f3-" <<'EOF'
__pfx_default_enter_idle: kallmodsyms [cpuidle_haltpoll], modules.builtin.ranges []
default_enter_idle: kallmodsyms [cpuidle_haltpoll], modules.builtin.ranges []
EOF
cat compare

finish
