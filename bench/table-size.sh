#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The size of the tables, against two peers built from the same kernel:
#
#  - the earlier (unmerged) kallmodsyms series' layout.  It described
#    text only: per object-file text range (the ranges tile the text, so
#    no sizes), a 4-byte start offset, a 4-byte offset into a name table
#    for the module or module list, and a 4-byte offset for the object
#    file's name, plus the NUL-separated name table, all uncompressed in
#    .rodata.  For the same ranges and names as our code-only tables
#    (kallmodsyms-gen without --all-classes, made here from the build):
#
#	earlier = 12 * ranges + name table bytes
#
#    where ranges and name table bytes are those `kallmodsyms stats`
#    prints (our string table holds exactly the module and object names,
#    each NUL-terminated, once).  The kernel's own note (every class, with
#    CONFIG_KALLSYMS_ALL) is held against it: everything for what the
#    earlier series paid for text;
#  - 6.12's modules.builtin.ranges, the text file kbuild writes beside
#    vmlinux (CONFIG_BUILTIN_MODULE_RANGES).
#
# What the kernel keeps in RAM after boot is the tables it made from the
# note (FORMAT.md 5), whose bytes the kernel's own parser, built in
# userspace (kms-kernel-judge -k), reports for a note, and the note too
# unless it lies in the init area (between __init_begin and __init_end,
# freed after boot, as series v4 links it): for the code-only tables,
# what the kernel would keep of their note, against the earlier layout;
# for the kernel's own (every class), per range.
#
# usage: bench/table-size.sh [CONFIG...]   (default: small defconfig small-arm64)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig small-arm64)
make -s build/kallmodsyms build/kms-kernel-judge

# stat_of LABEL FILE: the number `kallmodsyms stats` prints after LABEL.
stat_of() {
	gawk -v k="$1" 'substr($0, 1, length(k) + 1) == k " " &&
		substr($0, length(k) + 1) ~ /^ +[0-9.]+$/ { print $NF }' "$2"
}

# in_init VMLINUX: whether its .note.kallmodsyms lies in the init area,
# which the kernel frees after boot.
in_init() {
	local note
	note=$(objdump -h -j .note.kallmodsyms "$1" |
		gawk '$2 == ".note.kallmodsyms" { print $4 }')
	nm "$1" | gawk -v n="$note" '
		$3 == "__init_begin" { b = $1 } $3 == "__init_end" { e = $1 }
		END {
			if (n == "" || b == "" || e == "") exit 1
			n = strtonum("0x" n); exit !(strtonum("0x" b) <= n && n < strtonum("0x" e))
		}'
}

row_header "table size, bytes"
for config in "${configs[@]}"; do
	kbuild=$(tests/kernel/build.sh "$config")
	stats=$(mktemp)
	code=$(mktemp)
	build/kallmodsyms-gen -q -f sidecar -o "$code.kms" "$kbuild/vmlinux" ||
		{ note "$config: kallmodsyms-gen failed"; exit 1; }
	build/kallmodsyms stats -t "$code.kms" "$kbuild/vmlinux" > "$code"
	build/kallmodsyms stats "$kbuild/vmlinux" > "$stats"
	# The kernel's own note, in its section.
	objcopy -O binary --only-section=.note.kallmodsyms "$kbuild/vmlinux" \
		"$code.notes"
	code_kept=$(build/kms-kernel-judge -k "$code.kms" | gawk '$2 == "kept" { print $3 }')
	kept=$(build/kms-kernel-judge -k "$code.notes" | gawk '$2 == "kept" { print $3 }')
	ranges=$(stat_of ranges "$code")
	strings=$(stat_of 'string bytes' "$code")
	code_note=$(stat_of 'note bytes (compressed)' "$code")
	code_image=$(stat_of 'image bytes (uncompressed)' "$code")
	all_ranges=$(stat_of ranges "$stats")
	note=$(stat_of 'note bytes (compressed)' "$stats")
	padding=$(stat_of 'of which padding' "$stats")
	image=$(stat_of 'image bytes (uncompressed)' "$stats")
	rm -f "$stats" "$code" "$code.kms" "$code.notes"
	[ -n "$ranges" ] && [ -n "$strings" ] && [ -n "$code_note" ] &&
		[ -n "$note" ] && [ -n "$padding" ] && [ -n "$image" ] &&
		[ -n "$code_kept" ] && [ -n "$kept" ] ||
		{ note "$config: no stats"; exit 1; }
	earlier=$((12 * ranges + strings))
	# The note stays in RAM beside the kept tables unless it is init data.
	resident_note=$note resident_code_note=$code_note
	if in_init "$kbuild/vmlinux"; then
		resident_note=0 resident_code_note=0
	fi
	mbr=$(stat -c %s "$kbuild/modules.builtin.ranges")
	note "$config: code $ranges ranges, $strings bytes of names;" \
		"the kernel's tables $all_ranges ranges"
	row "$config: kernel's note (all classes) vs earlier layout" \
		"$note" "$earlier" B 1.0
	row "$config: ...without its link padding" \
		"$((note - padding))" "$earlier" B 1.0
	row "$config: code-only note vs earlier layout" \
		"$code_note" "$earlier" B 0.5
	row "$config: image (all classes) vs code-only image" \
		"$image" "$code_image" B
	row "$config: image (all classes) vs earlier layout" \
		"$image" "$earlier" B
	# After boot the kernel keeps its tables, and the note unless it is
	# init data (FORMAT.md 5).
	row "$config: kept tables (all classes) vs image" "$kept" "$image" B
	row "$config: RAM after boot, code-only: resident note + kept vs earlier" \
		"$((resident_code_note + code_kept))" "$earlier" B 1.0
	row "$config: RAM after boot, all classes: per range vs earlier" \
		"$(gawk -v a="$((resident_note + kept))" -v r="$all_ranges" 'BEGIN { printf "%.2f", a / r }')" \
		"$(gawk -v a="$earlier" -v r="$ranges" 'BEGIN { printf "%.2f", a / r }')" B 0.45
	row "$config: kernel's note vs modules.builtin.ranges" \
		"$note" "$mbr" B
	row "$config: note bytes per range vs earlier layout" \
		"$(gawk -v a="$note" -v r="$all_ranges" 'BEGIN { printf "%.2f", a / r }')" \
		"$(gawk -v a="$earlier" -v r="$ranges" 'BEGIN { printf "%.2f", a / r }')" B 0.5
done
