#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# Bad input: one line naming the file and the problem, a non-zero exit, and
# nothing left behind; the library's errors with their class (kms/error.h).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_copy
size=$(stat -c %s vmlinux)
mutate() { "$KMS_BUILD/kms-mutate" good.kms bad.kms "$@" || fail "kms-mutate $*"; }

## The generator's inputs.  Each failing run must leave no out.kms behind.
gen_error() {
	testrun_error 1 "$@"
	assert_absent out.kms
}

gen_error "kallmodsyms-gen: nope: cannot open: No such file or directory" \
	kms_gen -f sidecar -o out.kms nope
echo hello > text
gen_error "kallmodsyms-gen: text: not an ELF file" \
	kms_gen -f sidecar -o out.kms text
head -c 3000 vmlinux > truncated
gen_error "kallmodsyms-gen: truncated: truncated or corrupt: section headers end at $size, the file has 3000 bytes" \
	kms_gen -f sidecar -o out.kms -m vmlinux.map truncated
cp vmlinux ppc
printf '\025\000' | dd of=ppc bs=1 seek=18 conv=notrunc 2> /dev/null
gen_error "kallmodsyms-gen: ppc: ELF machine 21 (class 2, data 1) is not an architecture kallmodsyms knows (x86_64, aarch64)" \
	kms_gen -f sidecar -o out.kms -m vmlinux.map ppc
# An x86 map with an arm64 vmlinux (GNU ld's maps name their format).
cp vmlinux arm64
printf '\267\000' | dd of=arm64 bs=1 seek=18 conv=notrunc 2> /dev/null
gen_error "kallmodsyms-gen: vmlinux.map: a map of an elf64-x86-64 link, but arm64 is aarch64 (elf64-littleaarch64)" \
	kms_gen -f sidecar -o out.kms -m vmlinux.map arm64
strip -o stripped vmlinux
gen_error "kallmodsyms-gen: stripped: no symbol table" \
	kms_gen -f sidecar -o out.kms -m vmlinux.map stripped
gen_error "kallmodsyms-gen: nomap: cannot open linker map: No such file or directory" \
	kms_gen -f sidecar -o out.kms -m nomap vmlinux
gen_error "kallmodsyms-gen: text: not a linker map: neither GNU ld's \"Linker script and memory map\" nor ld.lld's column header" \
	kms_gen -f sidecar -o out.kms -m text vmlinux
sed 's/0xffffffff81000/0xffffffff82000/' vmlinux.map > other.map
gen_error "kallmodsyms-gen: other.map: vmlinux.o at 0xffffffff82000000+0x2 lies outside section .text of vmlinux: is the map from another build?" \
	kms_gen -f sidecar -o out.kms -m other.map vmlinux
gen_error "kallmodsyms-gen: vmlinux.map links vmlinux.o, whose map is needed: nomap: cannot open linker map: No such file or directory" \
	kms_gen -f sidecar -o out.kms -M nomap vmlinux
echo "kernel/fs/ext9/ext9.ko extra" > bad-builtin
gen_error 'kallmodsyms-gen: bad-builtin: line 1: "kernel/fs/ext9/ext9.ko extra" is not a module path ending in .ko' \
	kms_gen -f sidecar -o out.kms -B bad-builtin vmlinux
mv modules.builtin modules.builtin.saved
gen_error "kallmodsyms-gen: ./modules.builtin: cannot open: No such file or directory" \
	kms_gen -f sidecar -o out.kms vmlinux
mv modules.builtin.saved modules.builtin
echo "garbage" > fs/ext9/.inode.o.cmd
gen_error "kallmodsyms-gen: ./fs/ext9/.inode.o.cmd: not a kbuild .cmd file (no savedcmd_ line)" \
	kms_gen -f sidecar -o out.kms vmlinux
# No .cmd file is absent (core kernel, a warning); one that cannot be
# read is an error.
rm fs/ext9/.inode.o.cmd
kms_gen -f sidecar -o out.kms vmlinux 2> "$tmp/stderr" ||
	fail "an object without a .cmd file must not fail the generator"
grep -Eq '^kallmodsyms-gen: .*1 of [0-9]+ objects have no \.cmd file in \.; they count as core kernel$' \
	"$tmp/stderr" || fail "no warning for a missing .cmd file: $(cat "$tmp/stderr")"
rm -f out.kms
mkdir fs/ext9/.inode.o.cmd
gen_error "kallmodsyms-gen: ./fs/ext9/.inode.o.cmd: read error: Is a directory" \
	kms_gen -f sidecar -o out.kms vmlinux
rmdir fs/ext9/.inode.o.cmd
cp "$fx/fs/ext9/.inode.o.cmd" fs/ext9/
testrun_error 1 "kallmodsyms-gen: /nonexistent/out.kms: cannot create a temporary file beside it: No such file or directory" \
	kms_gen -q -f sidecar -o /nonexistent/out.kms vmlinux
testrun_error 2 'kallmodsyms-gen: unknown format "elf" (asm, sidecar, append)' \
	kms_gen -f elf -o out.kms vmlinux
testrun_error 2 "kallmodsyms-gen: -o FILE is needed for format sidecar" \
	kms_gen -f sidecar vmlinux

# A failed append leaves the vmlinux exactly as it was.
cp vmlinux keep
gen_error "kallmodsyms-gen: nomap: cannot open linker map: No such file or directory" \
	kms_gen -f append -m nomap vmlinux
assert_same keep vmlinux "vmlinux after a failed append"
assert_absent vmlinux.tmp

## The readers' inputs.
testrun_error 1 "kallmodsyms: vmlinux: no kallmodsyms note (not generated for this vmlinux?)" \
	kms list vmlinux
: > empty
testrun_error 1 "kallmodsyms: empty: empty file" kms list -t empty vmlinux
testrun_error 1 "kallmodsyms: text: not an ELF file, a note file or a kallmodsyms blob" \
	kms list -t text vmlinux
head -c 50 good.kms > short.kms
testrun_error 1 "kallmodsyms: short.kms: note record at offset 0 runs past the end of its 50 bytes" \
	kms list -t short.kms vmlinux
testrun_error 1 "kallmodsyms: stripped: no symbol table" \
	kms list -t good.kms stripped

# Each corruption of the blob: the class of the library's error
# (kms/error.h: FORMAT.md 7's reason, what kms-judge prints) and what the
# message says.  The class is the error's, not read from the message.
n=0 judged=()
while IFS='|' read -r edit class message; do
	[ -n "$edit" ] || continue
	n=$((n + 1))
	# shellcheck disable=SC2086
	mutate $edit
	testrun_error 1 "kallmodsyms: bad.kms: note: $message" \
		kms list -t bad.kms vmlinux
	mv bad.kms "bad-$n.kms"
	judged+=("bad-$n.kms")
	echo "bad-$n refuse $class" >> classes.want
done <<'EOF'
truncate=10|bad-header|10 bytes, shorter than the 32-byte header
hdr:0=0x41414141|bad-header|bad magic
hdr16:4=1|bad-version|format version 1, this reader knows version 5
hdr16:4=4|bad-version|format version 4, this reader knows version 5
hdr16:4=6|bad-version|format version 6, this reader knows version 5
hdr16:6=40|bad-header|header size 40, expected 32
hdr:8=3|bad-header|flags 0x3, expected 0x1
hdr:8=0|bad-header|flags 0, expected 0x1
hdr:28=0x1000000|bad-header|header says 16777216 init paths bytes after 232 payload and 209 paths bytes, the note holds 489
hdr:28=0|bad-header|padding byte 0 after the payload is not zero
hdr:20=0xffffffff|bad-header|header says 4294967295 paths bytes after 232 payload bytes, the note holds 489
hdr:24=11|bad-header|implausible paths image size 11
hdr:24=0x4000001|bad-header|implausible paths image size 67108865
hdr:16=0x10000000|bad-header|implausible image size 268435456
hdr:16=8|bad-header|implausible image size 8
truncate=-5 fixsize|bad-frame|init paths frame is not one whole zstd frame: Src size is incorrect
pad=8 tailxor=1|bad-header|padding byte 7 after the payload is not zero
pad=1 tailxor=0x80|bad-header|padding byte 0 after the payload is not zero
tailxor=1|bad-zstd|init paths frame: zstd: Restored data doesn't match checksum
img:4=2|bad-offset|sections offset 2 is not aligned
img:12=0xffff0|bad-offset|range starts (offset 1048560, 68 bytes) lie outside the 452-byte image
img:8=0x7fffffff|bad-offset|range starts (offset 72, 8589934588 bytes) lie outside the 452-byte image
img:24=72|overlap|objects overlap range starts
img:40=48|overlap|string table overlap sections
img:36=0|bad-strtab|string table is empty or not NUL-terminated
imgbyte:strtab+0=0x20|bad-strtab|string table byte 0 is not a printable character
img:modlists+0=0|bad-modlist|module list at word 0 is empty
img:modlists+0=99|bad-modlist|module list at word 0 claims 99 modules, more than the array holds
img:modlists+4=9999|bad-modlist|module list 0 names string offset 9999 past the 119-byte string table
img:modlists+4=1|bad-modlist|module list 0 names offset 1, which is not the start of a string
img:objects+0=1|bad-object|object 0 points at word 1, not at a module list
img:objects+4=5000|bad-object|object 0 names string offset 5000 past the 119-byte string table
img:sections+0=8|unknown-class|section 0 has unknown class 8 (this reader knows 0-7)
img:sections+4=0|bad-section|section 0 has no ranges
img:sections+4=15|bad-section|sections hold 16 ranges, the header says 17
imgbyte:range_objects+2=0 imgbyte:range_objects+3=1|bad-range|range 1 names object 256 of 13
img:starts+4=0|bad-range|range 1 starts at 0, not after range 0 at 0
img:starts+0=0x7fffffff|bad-range|range 0 starts at 0x7fffffff, past the end 0x98 of section 0
imgbyte:range_objects+2=0 imgbyte:range_objects+3=0|bad-range|ranges 0 and 1 have the same object and are not merged
EOF

# Refusals and the other classes, as kms-judge names them.
mkdir adir
printf '%s\n' "nope refuse absent" "adir refuse io" "empty refuse no-note" \
	"short refuse no-note" "text refuse no-note" >> classes.want
# KMS_WRAP is a command line (valgrind ...), split on purpose.
# shellcheck disable=SC2086
testrun_compare $KMS_WRAP "$KMS_BUILD/kms-judge" "${judged[@]}" nope adir \
	empty short.kms text < classes.want

# Padding inside the descriptor is allowed (FORMAT.md 2).
mutate pad=64
kms list -t bad.kms vmlinux > /dev/null || fail "a padded note is refused"

## Bad usage exits 2.
testrun_error 2 "kallmodsyms: unknown symbol source \"nm\" (auto, kallsyms, symtab)" \
	kms list -S nm vmlinux
kms frobnicate vmlinux > /dev/null 2>&1
[ $? = 2 ] || fail "an unknown command must exit 2"
kms lookup vmlinux > /dev/null 2>&1
[ $? = 2 ] || fail "lookup without addresses must exit 2"

finish
