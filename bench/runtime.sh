#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the series costs the running kernel, in QEMU (TCG: every figure is
# inflated by emulation, the ratios much less so):
#  - one full read of /proc/kallmodsyms vs one of /proc/kallsyms (median of
#    ROUNDS reads, the two taking turns; bench/guest-read.c);
#  - the boot-time parse of the note (initcall_debug) vs all initcalls;
#  - 1,000 opens and closes of /proc/kallmodsyms vs of /proc/kallsyms
#    (median of ROUNDS), and the direct map's 4K pages (DirectMap4k, x86)
#    after them vs before: an open decodes nothing and maps nothing;
#  - one kallmodsyms_lookup() vs one kallsyms_lookup(), timed by the
#    samples' bench parameter over 100,000 addresses spread over the text.
#
# usage: bench/runtime.sh [CONFIG...]   (default: small defconfig small-arm64)
# Environment: ROUNDS (default 51)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig small-arm64)
rounds=${ROUNDS:-51}

bench_qemu_setup

cat > "$tmp/guest.sh" <<GUEST
echo "@@@ read"
guest-read $rounds /proc/kallmodsyms /proc/kallsyms
echo "@@@ meminfo-before"
grep DirectMap4k /proc/meminfo
echo "@@@ open"
guest-read -o 1000 $rounds /proc/kallmodsyms /proc/kallsyms
echo "@@@ meminfo-after"
grep DirectMap4k /proc/meminfo
echo 100000 > /sys/module/kms_sample_c/parameters/bench
echo "@@@ dmesg"
dmesg
GUEST

# file_row LABEL FILE: the row of guest-read's medians in FILE, ms, ours
# against /proc/kallsyms, with the 1.1 target.
file_row() {
	local ours peer
	ours=$(gawk '$1 == "/proc/kallmodsyms" { print $3 }' "$2")
	peer=$(gawk '$1 == "/proc/kallsyms" { print $3 }' "$2")
	[ -n "$ours" ] && [ -n "$peer" ] ||
		{ note "$1: no times in $2"; cat "$2" >&2; exit 1; }
	row "$1" "$(gawk -v n="$ours" 'BEGIN { printf "%.2f", n / 1e6 }')" \
		"$(gawk -v n="$peer" 'BEGIN { printf "%.2f", n / 1e6 }')" ms 1.1
}

row_header "runtime, QEMU TCG"
for config in "${configs[@]}"; do
	kbuild=$(tests/kernel/build.sh "$config")
	arch=$(guest_arch)
	initrd=$(guest_initramfs "$arch" "$tmp/guest.sh" guest-read) ||
		{ note "cannot build guest-read for $arch"; exit 1; }
	note "booting $config ($arch)"
	mapfile -t clock < <(guest_clock "$arch") || exit 1
	boot "$(boot_image)" "$initrd" "$tmp/$config" \
		initcall_debug printk.time=1 nosmp ${clock[@]+"${clock[@]}"} ||
		{ note "$config: the boot failed"; exit 1; }
	out=$tmp/$config

	file_row "$config: read /proc/kallmodsyms vs kallsyms" "$out/read"
	file_row "$config: 1000 open+close /proc/kallmodsyms vs kallsyms" \
		"$out/open"
	# x86 only: arm64's meminfo has no DirectMap lines.
	before=$(gawk '{ print $2 }' "$out/meminfo-before")
	after=$(gawk '{ print $2 }' "$out/meminfo-after")
	if [ -n "$before" ] && [ -n "$after" ]; then
		row "$config: DirectMap4k after the opens vs before" \
			"$after" "$before" kB 1.0
	fi

	# initcall_debug's own durations tick with jiffies until the
	# clocksource switch at fs_initcall; the printk times (sched_clock,
	# on the TSC) do not: "[    0.691190] calling  kallmodsyms_init+..."
	# to "[    0.701533] initcall kallmodsyms_init+... returned".
	read -r parse all < <(gawk '
		function t() { return substr($0, 2, index($0, "]") - 2) + 0 }
		/\] calling  / && first == "" { first = t() }
		/\] initcall .* returned / { last = t() }
		/\] calling  kallmodsyms_init\+/ { a = t() }
		/\] initcall kallmodsyms_init\+.* returned/ { b = t() }
		END { if (a != "" && b != "")
			printf "%d %d\n", (b - a) * 1e6, (last - first) * 1e6 }' \
		"$out/dmesg")
	[ -n "${parse:-}" ] || { note "$config: no initcall lines"; exit 1; }
	row "$config: note parse at boot vs all initcalls" "$parse" "$all" us

	# "kms_sample_c: 100000 lookups (N annotated): kallmodsyms_lookup()
	#  A ns, kallsyms_lookup() B ns per call".
	read -r a b < <(gawk '/kms_sample_c: [0-9]+ lookups/ {
		for (i = 1; i < NF; i++) if ($(i + 1) == "ns,") a = $i
			else if ($(i + 1) == "ns") b = $i
		print a, b }' "$out/dmesg")
	[ -n "${b:-}" ] || { note "$config: no lookup timing line"; exit 1; }
	row "$config: kallmodsyms_lookup() vs kallsyms_lookup()" "$a" "$b" ns
done
