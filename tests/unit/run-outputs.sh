#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# The three containers (FORMAT.md section 1) give the same tables, the same
# input gives the same bytes, and adding the note moves nothing.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fx=$(fixture relocatable)
lds=$tests_dir/unit/fixture/vmlinux.lds
cd "$tmp" || exit 1

kms_gen -q -f sidecar -o fx.kms "$fx/vmlinux" || fail "sidecar"
kms list -t fx.kms "$fx/vmlinux" > want || fail "list from the sidecar"

# kbuild's Kconfig asks the tool which format version it writes: the one
# in its notes (a sidecar is the note record: 12 bytes, the 12-byte name,
# then the blob, whose version is at 4).
kms_gen --format-version > version || fail "--format-version"
testrun_compare sh -c "od -An -tu2 -j28 -N2 fx.kms | tr -d ' '" < version

# Determinism: run it again, and from a copy of the tree elsewhere.
kms_gen -q -f sidecar -o again.kms "$fx/vmlinux" || fail "sidecar again"
assert_same fx.kms again.kms "two runs"
cp -a "$fx" copy
kms_gen -q -f sidecar -o copy.kms copy/vmlinux || fail "sidecar of the copy"
assert_same fx.kms copy.kms "the tree and its copy"

# The sidecar is one ELF note record: namesz 12, descsz, type, name.
testrun_compare od -An -tx4 -N4 fx.kms <<'EOF'
 0000000c
EOF
testrun_compare od -An -tx4 -j8 -N4 fx.kms <<'EOF'
 4b4d5301
EOF
testrun_compare od -An -c -j12 -N12 fx.kms <<'EOF'
   k   a   l   l   m   o   d   s   y   m   s  \0
EOF

# (a) Assembler source, assembled and linked into vmlinux as kbuild will
# do: the note lands in .notes, the text does not move, and the image
# carries it.
kms_gen -q -f asm -o note.S "$fx/vmlinux" || fail "asm"
kms_gen -q -f asm -o note2.S "$fx/vmlinux" || fail "asm again"
assert_same note.S note2.S "two assembler sources"
as -o note.o note.S || fail "assembling note.S"
testrun_compare sh -c "readelf -SW note.o | grep -o '\.note\.kallmodsyms *NOTE.*'" <<'EOF'
.note.kallmodsyms NOTE            0000000000000000 000040 000224 00   A  0   0  4
EOF
# The same note as the sidecar holds, byte for byte.
objcopy -O binary -j .note.kallmodsyms note.o note.bin
assert_same fx.kms note.bin "the assembled note vs the sidecar"
ld --no-warn-rwx-segments -T "$lds" -o linked "$fx/vmlinux.o" note.o ||
	fail "link with note.o"
kms list linked > got-linked || fail "list from the linked note"
# Only the bounds of .notes, which now holds something, differ.
grep -v '_notes$' want > want-text
grep -v '_notes$' got-linked > got-linked-text
assert_same want-text got-linked-text "linked note"
nm -n "$fx/vmlinux" | grep -v notes > nm-before
nm -n linked | grep -v notes > nm-after
assert_same nm-before nm-after "symbols of vmlinux with and without the note"

# Other targets' assemblers, where installed (Debian's binutils-*-cross):
# a 32-bit one (arm) and big-endian ones (powerpc64, s390x).  The note
# header comes out in the target's byte order, which readelf reads, the
# descriptor is the same little-endian blob, and the inspector reads the
# tables from each object.
for t in arm-linux-gnueabihf powerpc64-linux-gnu s390x-linux-gnu; do
	command -v "$t-as" > /dev/null || continue
	"$t-as" -o "note-$t.o" note.S || fail "$t-as note.S"
	testrun_compare sh -c "readelf -n note-$t.o | grep -o 'kallmodsyms *0x[0-9a-f]*'" <<'EOF'
kallmodsyms          0x00000209
EOF
	"$t-objcopy" -O binary -j .note.kallmodsyms "note-$t.o" "note-$t.bin"
	testrun_empty cmp -i 24:24 fx.kms "note-$t.bin"
	kms list -t "note-$t.o" "$fx/vmlinux" > "got-$t" ||
		fail "list from the $t object"
	assert_same want "got-$t" "tables from the $t object"
done
if [ -f note-powerpc64-linux-gnu.bin ]; then
	testrun_compare od -An -tx1 -N4 note-powerpc64-linux-gnu.bin <<'EOF'
 00 00 00 0c
EOF
fi

# Padded to a fixed size (kbuild relinks with new tables of that size), and
# checked after the link: --verify accepts the image whose tables these are
# and refuses one whose inputs say otherwise.
kms_gen -q -f asm --pad-to 1024 -o padded.S "$fx/vmlinux" || fail "--pad-to"
as -o padded.o padded.S || fail "assembling padded.S"
testrun_compare sh -c "readelf -SW padded.o | grep -o '\.note\.kallmodsyms *NOTE.*'" <<'EOF'
.note.kallmodsyms NOTE            0000000000000000 000040 000400 00   A  0   0  4
EOF
# The padding is inside the one note's descriptor (FORMAT.md 2): no empty
# notes after it.
testrun_compare sh -c "readelf -n padded.o | grep -cE 'note type|NT_'" <<'EOF'
1
EOF
ld --no-warn-rwx-segments -T "$lds" -o padded -Map=padded.map "$fx/vmlinux.o" \
	padded.o || fail "link with padded.o"
kms list padded | grep -v '_notes$' > got-padded
assert_same want-text got-padded "padded note"
testrun_empty kms_gen -q --verify -m padded.map -b "$fx" padded
grep -v ext9 "$fx/modules.builtin" > other.builtin
testrun_error 1 "kallmodsyms-gen: padded: the linked kallmodsyms tables do not match this image (stale note?)" \
	kms_gen -q --verify -m padded.map -b "$fx" -B other.builtin padded
testrun_error_match 1 "kallmodsyms-gen: small.S: the note needs [0-9]+ bytes, more than --pad-to 64 \(or that is not a multiple of 4\)" \
	kms_gen -q -f asm --pad-to 64 -o small.S "$fx/vmlinux"
assert_absent small.S

# --headroom, kbuild's first link: the note (24 bytes of header and name,
# the 521-byte descriptor rounded up to 524: 548) with 1/64 more and at
# least 64 more, a multiple of 64: (548 * 65 / 64 + 127) / 64 * 64 = 640.
# The later links --pad-to that size.
kms_gen -q -f asm --headroom -o room.S "$fx/vmlinux" || fail "--headroom"
as -o room.o room.S || fail "assembling room.S"
testrun_compare sh -c "readelf -SW room.o | grep -o '\.note\.kallmodsyms *NOTE.*'" <<'EOF'
.note.kallmodsyms NOTE            0000000000000000 000040 000280 00   A  0   0  4
EOF
testrun_error 2 "kallmodsyms-gen: --pad-to or --headroom, not both" \
	kms_gen -q -f asm --headroom --pad-to 1024 -o room2.S "$fx/vmlinux"
assert_absent room2.S

# (b) Appended to a copy of vmlinux: the loaded bytes are unchanged, the
# note is a non-allocated section, and a second append replaces it.
kms_gen -q -f append -o appended "$fx/vmlinux" || fail "append"
kms list appended > got-appended || fail "list from the appended note"
assert_same want got-appended "appended note"
objcopy -O binary "$fx/vmlinux" before.bin
objcopy -O binary appended after.bin
assert_same before.bin after.bin "loaded image before and after append"
# Name, type, address, size, and 9 columns: no flags, so not allocated.
testrun_compare sh -c "readelf -SW appended | grep -o '\.note\.kallmodsyms *NOTE.*' | awk '{ print \$1, \$2, \$3, \$5, NF }'" <<'EOF'
.note.kallmodsyms NOTE 0000000000000000 000224 9
EOF
cp appended twice
kms_gen -q -f append -m "$fx/vmlinux.map" -b "$fx" twice || fail "append again"
testrun_compare sh -c "readelf -SW twice | grep -c kallmodsyms" <<'EOF'
1
EOF
kms list twice > got-twice || fail "list after a second append"
assert_same want got-twice "appended twice"
# In place, the file's mode is kept.
cp -p "$fx/vmlinux" inplace
chmod 750 inplace
kms_gen -q -f append -m "$fx/vmlinux.map" -b "$fx" inplace || fail "append in place"
testrun_compare stat -c %a inplace <<'EOF'
750
EOF
kms list inplace > got-inplace || fail "list after appending in place"
assert_same want got-inplace "appended in place"
# A vmlinux whose note is linked in refuses a second, appended copy.
testrun_error 1 "kallmodsyms-gen: linked: section .notes holds a linked kallmodsyms note already" \
	kms_gen -q -f append -m "$fx/vmlinux.map" -b "$fx" linked
true

# (c) A file of notes (a copy of a section of notes, as a v2 kernel's
# /sys/kernel/notes was): other notes first (here a GNU build-id note),
# then ours.
{
	printf '\004\000\000\000\010\000\000\000\003\000\000\000GNU\000'
	printf '\001\002\003\004\005\006\007\010'
	cat fx.kms
} > sys-kernel-notes
kms list -t sys-kernel-notes "$fx/vmlinux" > got-notes || fail "list from notes"
assert_same want got-notes "file of notes"

# kallmodsyms note: where the note lies, for tests that patch it.  In the
# notes copy after the build-id note; linked, in .notes where readelf puts
# it, the descriptor starting with the blob's magic; appended, in its own
# section.
testrun_compare kms note sys-kernel-notes <<'EOF'
note_offset 24
note_size 548
name_offset 36
desc_offset 48
desc_size 521
EOF
kms note linked > where || fail "note of the linked image"
read -r addr off size < <(readelf -SW linked |
	sed -nE 's/.*\] \.notes +NOTE +([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+) .*/\1 \2 \3/p')
testrun_compare grep -v _offset where <<EOF
section .notes
section_address $(printf "0x%x" "0x$addr")
section_size $((0x$size))
note_size 548
desc_size 521
EOF
testrun_compare grep -x "section_offset $((0x$off))" where <<EOF
section_offset $((0x$off))
EOF
testrun_compare od -An -c -j "$(awk '$1 == "desc_offset" { print $2 }' where)" \
	-N4 linked <<'EOF'
   K   M   S   1
EOF
kms note --json appended > where.json || fail "note --json"
testrun_compare python3 -c '
import json
n = json.load(open("where.json"))
print(n["section"], n["section_address"], n["note_size"], n["desc_size"])' <<'EOF'
.note.kallmodsyms 0x0 548 521
EOF
testrun_error 1 "kallmodsyms: $fx/vmlinux: no kallmodsyms note (not generated for this vmlinux?)" \
	kms note "$fx/vmlinux"

# A bare blob (the note's descriptor) is accepted too.
"$KMS_BUILD/kms-mutate" fx.kms bare.blob raw || fail "kms-mutate raw"
kms list -t bare.blob "$fx/vmlinux" > got-bare || fail "list from a bare blob"
assert_same want got-bare "bare blob"

# An object entry with neither modules nor a name (the generator writes
# none; the format allows it) prints nothing, as /proc/kallmodsyms does.
"$KMS_BUILD/kms-mutate" fx.kms empty.kms img:objects+12=0xffffffff ||
	fail "kms-mutate objects"
kms list -t empty.kms "$fx/vmlinux" > empty.list || fail "list, empty entry"
testrun_compare sh -c "grep -F ' t show' empty.list | cat -A" <<'EOF'
ffffffff81000012 t show$
ffffffff8100002b t show^I{x86/kernel/smp.o}$
EOF

# An output that is there and no regular file (-o /dev/null, a pipe) is
# written through, never renamed over: the FIFO stays a FIFO, and what
# comes out of it is the sidecar.
for f in sidecar asm; do
	mkfifo out.fifo
	timeout 20 cat out.fifo > through &
	kms_gen -q -f "$f" -o out.fifo "$fx/vmlinux" || fail "-f $f into a FIFO"
	wait $!
	[ -p out.fifo ] || fail "-f $f: the FIFO was replaced"
	kms_gen -q -f "$f" -o regular "$fx/vmlinux" || fail "-f $f"
	assert_same regular through "-f $f through a FIFO"
	rm -f out.fifo regular through
done
testrun_empty sh -c "ls | grep tmp || true"

finish
