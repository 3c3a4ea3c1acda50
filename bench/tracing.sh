#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the tracers' use of the tables costs (series patches 1-2 and 8-11), in QEMU
# (TCG):
#  - on a kernel with the function tracer (small-arm64; not defconfig),
#    a write of ":mod:BIG" to set_ftrace_filter, BIG the built-in module
#    with the most functions, vs a write of the glob "BIG*": both walk
#    every ftrace record, ":mod:" also looks each core-kernel record up in
#    the tables;
#  - adding a kprobe event on a function with a unique name by
#    "MOD:SYM{OBJ}" vs by the plain name (the kernel's own lookup; goal
#    1.1x); the same notation without "{OBJ}", which needs no object
#    paths, and on a name several functions share; and vs by the address
#    the kernel lists; each add is undone, untimed, before the next;
#    twice, the address first and then last, since the first add of a
#    round pays for the undo before it; the rows take the better of the
#    two medians.
# Medians of ROUNDS writes, the commands taking turns (bench/guest-write.c).
# The kernel keeps its tables from boot (FORMAT.md 5): no write decodes.
#
# usage: bench/tracing.sh [CONFIG...]   (default: small-arm64)
# Environment: ROUNDS (default 21)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small-arm64)
rounds=${ROUNDS:-21}

bench_qemu_setup

cat > "$tmp/guest.sh" <<GUEST
t=/sys/kernel/tracing
mount -t tracefs nodev \$t
if [ -e \$t/set_ftrace_filter ]; then
big=\$(sed -n 's/^[0-9a-f]* [tT] [^	]*	\[\([a-z0-9_]*\)\]\$/\1/p' /proc/kallmodsyms |
	sort | uniq -c | sort -n | tail -n 1 | sed 's/.* //')
echo ":mod:\$big" > \$t/set_ftrace_filter
echo "@@@ counts"
echo "\$big \$(wc -l < \$t/set_ftrace_filter)"
echo "\$big* \$(echo "\$big*" > \$t/set_ftrace_filter && wc -l < \$t/set_ftrace_filter)"
echo "@@@ filter"
guest-write $rounds \$t/set_ftrace_filter trunc ":mod:\$big" "\$big*"
fi
addr=\$(grep '	\[kms_sample_c\] {two/util.o}\$' /proc/kallmodsyms |
	grep ' kms_sample_show	' | cut -d' ' -f1)
echo "@@@ kprobe"
guest-write $rounds \$t/kprobe_events append \
	'p:kms/x kms_sample_c:kms_sample_show{two/util.o}' +-:kms/x \
	'p:kms/x kms_sample_c:kms_sample_util_two' +-:kms/x \
	'p:kms/x kms_sample_c:kms_sample_util_two{two/util.o}' +-:kms/x \
	'p:kms/x kms_sample_util_two' +-:kms/x \
	"p:kms/x 0x\$addr" +-:kms/x
echo "@@@ kprobe2"
guest-write $rounds \$t/kprobe_events append \
	"p:kms/x 0x\$addr" +-:kms/x \
	'p:kms/x kms_sample_util_two' +-:kms/x \
	'p:kms/x kms_sample_c:kms_sample_util_two{two/util.o}' +-:kms/x \
	'p:kms/x kms_sample_c:kms_sample_util_two' +-:kms/x \
	'p:kms/x kms_sample_c:kms_sample_show{two/util.o}' +-:kms/x
GUEST

# median_us FILE... COMMAND: the smallest median of COMMAND's writes in
# the FILEs, microseconds; COMMAND "0x" stands for any address.
median_us() {
	local c=${!#}
	gawk -F '\t' -v c="$c" '
		($1 == c || (c == "0x" && $1 ~ /^p:kms\/x 0x/)) {
			split($2, f, " ")
			if (best == "" || f[2] < best) best = f[2] }
		END { if (best != "") printf "%.1f", best / 1000 }' "${@:1:$#-1}"
}

# kprobe_us PLACE: the better median of "p:kms/x PLACE" in the two
# kprobe rounds ("0x": by address).
kprobe_us() {
	local c="p:kms/x $1"
	[ "$1" != 0x ] || c=0x
	median_us "$out/kprobe" "$out/kprobe2" "$c"
}

row_header "tracers by built-in module, QEMU TCG, microseconds"
for config in "${configs[@]}"; do
	kbuild=$(tests/kernel/build.sh "$config")
	grep -qx 'CONFIG_KPROBE_EVENTS=y' "$kbuild/.config" ||
		{ note "$config: no CONFIG_KPROBE_EVENTS"; continue; }
	arch=$(guest_arch)
	initrd=$(guest_initramfs "$arch" "$tmp/guest.sh" guest-write) ||
		{ note "cannot build guest-write for $arch"; exit 1; }
	note "booting $config ($arch)"
	mapfile -t clock < <(guest_clock "$arch") || exit 1
	boot "$(boot_image)" "$initrd" "$tmp/$config" nosmp \
		${clock[@]+"${clock[@]}"} ||
		{ note "$config: the boot failed"; exit 1; }
	out=$tmp/$config
	if [ -s "$out/counts" ]; then
		read -r big n < "$out/counts"
		note "$config: ':mod:$big' selects $n functions; $(sed -n 2p "$out/counts")"
		row "$config: ':mod:$big' vs glob '$big*'" \
			"$(median_us "$out/filter" ":mod:$big")" \
			"$(median_us "$out/filter" "$big*")" us
	else
		note "$config: no CONFIG_FUNCTION_TRACER: no :mod: row"
	fi
	plain=$(kprobe_us kms_sample_util_two)
	row "$config: kprobe, unique name: MOD:SYM{OBJ} vs SYM" \
		"$(kprobe_us 'kms_sample_c:kms_sample_util_two{two/util.o}')" \
		"$plain" us 1.1
	row "$config: ...MOD:SYM (no object paths) vs SYM" \
		"$(kprobe_us 'kms_sample_c:kms_sample_util_two')" "$plain" us
	ours=$(kprobe_us 'kms_sample_c:kms_sample_show{two/util.o}')
	row "$config: kprobe, shared name: MOD:SYM{OBJ} vs unique SYM" \
		"$ours" "$plain" us
	row "$config: ...MOD:SYM{OBJ} vs by address" "$ours" \
		"$(kprobe_us 0x)" us
done
