#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# The kernel side under stress: boot the small kernel with corrupted notes
# (each one error line, no oops, no /proc/kallmodsyms), read
# /proc/kallmodsyms from 8 readers at once and in small pieces and from
# offsets (the same bytes as one read), and let kmemleak look at the
# tables (the small-dwarf kernel).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
cd "$tmp" || exit 1

# le32 FILE OFFSET: the little-endian word at OFFSET of FILE.
le32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

# --- Corrupted notes -------------------------------------------------------
# The note record (header, name, blob) out of vmlinux; the edited record
# goes back in its place, the rest of the old one zeroed.  It is the last
# note of .notes and the section's zero padding follows, so a record of
# another size still fits; kms-mutate's img: edits recompress the image
# with its frame checksum, so only the image's validation can catch them.
kms note "$kbuild/vmlinux" > note || { fail "no note in vmlinux"; finish; }
nhdr=$(awk '$1 == "note_offset" { print $2 }' note)
record=$(awk '$1 == "note_size" { print $2 }' note)
dd if="$kbuild/vmlinux" of=good.kms bs=1 skip="$nhdr" count="$record" status=none
kms list -t good.kms "$kbuild/vmlinux" > /dev/null || fail "the extracted note does not read"
# Room up to the end of the section that holds it.
room=$(awk -v at="$nhdr" '$1 == "section_offset" { off = $2 }
	$1 == "section_size" { size = $2 } END { print off + size - at }' note)
# Where the record lies in the image QEMU boots (note_in_image).
read -r image idesc < <(note_in_image)
inhdr=$((nhdr + idesc - $(awk '$1 == "desc_offset" { print $2 }' note)))
payload=$(le32 good.kms $((24 + 12)))
tail -c +$((24 + 32 + 1)) good.kms | head -c "$payload" | zstd -dcq > image ||
	fail "decompressing the note"
word() { le32 image $(($1 * 4)); }
nr_ranges=$(word 2) starts=$(word 3)

write_damaged_guest guest-damaged.sh
make_initramfs initrd-damaged.gz guest-damaged.sh

while IFS='|' read -r what message edits; do
	[ -n "$what" ] || continue
	# shellcheck disable=SC2086
	"$KMS_BUILD/kms-mutate" good.kms "$what.kms" $edits || { fail "kms-mutate $edits"; continue; }
	size=$(stat -c %s "$what.kms")
	[ "$size" -le "$room" ] || { fail "$what: $size bytes, room for $room"; continue; }
	cp "$image" "vmlinux.$what"
	head -c "$record" /dev/zero |
		dd of="vmlinux.$what" bs=1 seek="$inhdr" conv=notrunc status=none
	dd if="$what.kms" of="vmlinux.$what" bs=1 seek="$inhdr" conv=notrunc status=none
	if ! boot "vmlinux.$what" initrd-damaged.gz "$what" nokaslr; then
		fail "boot with a damaged note ($what)"
		continue
	fi
	check_damaged "$what" "$message"
	echo "$what: $(cat "$what/lines")"
	rm -f "vmlinux.$what"
done <<EOF
magic|bad note header|hdr:0=0x58585858
paths-size|bad note header|hdr:20=0x12345678
padding|bad note header|pad=8 tailxor=1
checksum|init paths frame does not decompress|tailxor=1
truncated|init paths are not one zstd frame of 12 bytes to 64 MiB with a checksum|truncate=-64 fixsize
past-end|range starts (offset 1048576, $((nr_ranges * 4)) bytes) lie outside the image|img:12=0x100000
too-many|range starts (offset $starts, $(((nr_ranges + 0x100000) * 4)) bytes) lie outside the image|img:8=$((nr_ranges + 0x100000))
overlap|tables overlap|img:24=$starts
unknown-class|section 0 has unknown class 8|img:sections+0=8
unprintable|string table byte 1 is not printable|imgbyte:strtab+1=0x01
unordered|range 1 is malformed|img:starts+4=0
EOF

# --- Concurrent and partial reads -----------------------------------------
cat > guest-reads.sh <<'GUEST'
cat /proc/kallmodsyms > /tmp/full
size=$(wc -c < /tmp/full)
echo "@@@ full"
cat /tmp/full
echo "@@@ sums"
echo "full $(md5sum < /tmp/full | cut -d' ' -f1) $size"
for i in 1 2 3 4 5 6 7 8; do
	cat /proc/kallmodsyms > /tmp/par.$i &
done
wait
for i in 1 2 3 4 5 6 7 8; do
	echo "parallel-$i $(md5sum < /tmp/par.$i | cut -d' ' -f1) $(wc -c < /tmp/par.$i)"
done
for bs in 1 7 4093; do
	dd if=/proc/kallmodsyms bs=$bs 2> /dev/null > /tmp/bs
	echo "bs-$bs $(md5sum < /tmp/bs | cut -d' ' -f1) $(wc -c < /tmp/bs)"
done
# From offsets (an lseek on the seq_file), against the full read's tail.
for skip in 1 100 4093 65537 $((size / 2)) $((size - 3)); do
	dd if=/proc/kallmodsyms iflag=skip_bytes skip=$skip bs=4096 2> /dev/null > /tmp/skip
	tail -c +$((skip + 1)) /tmp/full > /tmp/want
	echo "skip-$skip $(md5sum < /tmp/skip | cut -d' ' -f1) $(md5sum < /tmp/want | cut -d' ' -f1)"
done
# 8 readers in small pieces at once.
for i in 1 2 3 4 5 6 7 8; do
	dd if=/proc/kallmodsyms bs=$((i * 61)) 2> /dev/null > /tmp/pp.$i &
done
wait
for i in 1 2 3 4 5 6 7 8; do
	echo "parallel-bs-$i $(md5sum < /tmp/pp.$i | cut -d' ' -f1) $(wc -c < /tmp/pp.$i)"
done
echo "@@@ dmesg"
dmesg
GUEST
make_initramfs initrd-reads.gz guest-reads.sh
if boot "$(boot_image)" initrd-reads.gz reads nokaslr; then
	kms list "$kbuild/vmlinux" > reads/list || fail "kallmodsyms list"
	assert_same reads/list reads/full "/proc/kallmodsyms vs kallmodsyms list"
	full=$(gawk '$1 == "full" { print $2 " " $3 }' reads/sums)
	[ -n "$full" ] || fail "no full read"
	gawk -v full="$full" '
		$1 ~ /^skip-/ { if ($2 != $3) print "differs: " $0; n++; next }
		$1 != "full" { if ($2 " " $3 != full) print "differs: " $0; n++ }
		END { if (n != 25) print "only " n " reads" }' reads/sums > reads/bad
	[ -s reads/bad ] && fail "reads differ: $(cat reads/bad)"
	echo "reads: $(($(wc -l < reads/sums) - 1)) reads agree with one full read ($full)"
	if grep -E 'BUG|Oops|WARNING|Call Trace' reads/dmesg; then
		fail "the boot log of the reads has errors"
	fi
else
	fail "boot for the reads"
fi

# --- kmemleak ---------------------------------------------------------------
# Where this run builds no small-dwarf kernel (kmemleak), the checks above decide.
kernel_in_run small-dwarf || finish
need_kernel small-dwarf
grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$kbuild/.config" || finish
cat > guest-kmemleak.sh <<'GUEST'
mount -t debugfs debugfs /sys/kernel/debug
echo "@@@ lines"
wc -l < /proc/kallmodsyms
cat /proc/kallmodsyms > /dev/null
sleep 5
echo scan > /sys/kernel/debug/kmemleak
sleep 5
echo scan > /sys/kernel/debug/kmemleak
echo "@@@ kmemleak"
cat /sys/kernel/debug/kmemleak
echo "@@@ dmesg"
dmesg
GUEST
make_initramfs initrd-kmemleak.gz guest-kmemleak.sh
if boot "$(boot_image)" initrd-kmemleak.gz kmemleak nokaslr kmemleak=on; then
	[ "$(cat kmemleak/lines)" -gt 20000 ] || fail "/proc/kallmodsyms: $(cat kmemleak/lines) lines"
	if [ -s kmemleak/kmemleak ]; then
		cat kmemleak/kmemleak >&2
		fail "kmemleak reports leaks"
	fi
	grep -q 'kmemleak: Kernel memory leak detector initialized' kmemleak/dmesg ||
		fail "kmemleak did not start"
	# (The tables were kept: the file has its lines, and the parser
	# logged no refusal.)
	if grep -E '^(\[ *[0-9.]*\] )?kallmodsyms: disabled' kmemleak/dmesg; then
		fail "small-dwarf: the note was refused"
	fi
	if grep -E 'BUG|Oops|WARNING|Call Trace' kmemleak/dmesg; then
		fail "the boot log of the kmemleak run has errors"
	fi
	echo "kmemleak: nothing reported"
else
	fail "boot of small-dwarf (kmemleak)"
fi

finish
