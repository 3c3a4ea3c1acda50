#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# Hostile inputs for every tool (issue #7, part 3): each gives one error line
# naming the file and the problem, exit 1, nothing on stdout, no output file
# left behind, and no crash.  The table below pairs each command with the
# exact line it must print; run-errors.sh has the finer-grained corruptions
# of the note.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_copy
size=$(stat -c %s vmlinux)
mutate() { "$KMS_BUILD/kms-mutate" good.kms "$@" || fail "kms-mutate $*"; }
long=$(printf 'a%.0s' $(seq 5000))

## The hostile inputs.
: > empty
head -c 100 vmlinux > truncated
objcopy -O elf32-i386 vmlinux elf32
cp vmlinux s390
printf '\026\000' | dd of=s390 bs=1 seek=18 conv=notrunc 2> /dev/null
strip -o stripped vmlinux
printf '\377\376\200\001garbage\n' > binary
# A map from another build: everything linked 16 MiB higher.
sed 's/0xffffffff81000/0xffffffff82000/' vmlinux.map > other.map
sed $'s|drivers/a/core.o|drivers/a/c\xffore.o|' vmlinux.o.map > nonutf8.o.map
sed "s|drivers/a/core.o|drivers/a/$long.o|" vmlinux.o.map > long.o.map
{ cat modules.builtin; printf 'kernel/drivers/a/m\377\376od.ko\n'; } > nonutf8.builtin
{ cat modules.builtin; echo "kernel/drivers/a/$long.ko"; } > long.builtin
mutate dup.kms img:starts+4=0
mutate overlap.kms img:16=48
mutate huge.kms hdr:16=0xffffffff
mutate hugepayload.kms hdr:12=0xffffffff
mutate nonprint.kms imgbyte:strtab+1=0x80
mutate future.kms hdr16:4=6
printf '\014\0\0\0\377\377\377\377\001\123\115\113kallmodsyms\0' > note4g
mkdir audit-tree && : > audit-tree/.config
# More than the one zstd frame the format allows (the kernel's parser takes
# all three; see tests/fuzz/README.md).
for f in twoframes skippable trailing-skippable; do
	cp "$tests_dir/fuzz/regressions/blob/zstd-$f.kms" "$f.kms"
done

# STATUS|expected stderr|command (run with eval; kms_gen writes out.kms)
while IFS='|' read -r status want cmd; do
	[ -n "$status" ] || continue
	rm -f out.kms
	eval "testrun_error $status \"\$want\" $cmd"
	assert_absent out.kms
done <<EOF
1|kallmodsyms-gen: empty: not an ELF file|kms_gen -f sidecar -o out.kms -m vmlinux.map empty
1|kallmodsyms-gen: truncated: truncated or corrupt: section headers end at $size, the file has 100 bytes|kms_gen -f sidecar -o out.kms -m vmlinux.map truncated
1|kallmodsyms-gen: elf32: ELF machine 3 (class 1, data 1) is not an architecture kallmodsyms knows (x86_64, aarch64)|kms_gen -f sidecar -o out.kms -m vmlinux.map elf32
1|kallmodsyms-gen: s390: ELF machine 22 (class 2, data 1) is not an architecture kallmodsyms knows (x86_64, aarch64)|kms_gen -f sidecar -o out.kms -m vmlinux.map s390
1|kallmodsyms-gen: stripped: no symbol table|kms_gen -f sidecar -o out.kms -m vmlinux.map stripped
1|kallmodsyms-gen: binary: not an ELF file|kms_gen -f sidecar -o out.kms -m vmlinux.map binary
1|kallmodsyms-gen: binary: not a linker map: neither GNU ld's "Linker script and memory map" nor ld.lld's column header|kms_gen -f sidecar -o out.kms -m binary vmlinux
1|kallmodsyms-gen: empty: not a linker map: neither GNU ld's "Linker script and memory map" nor ld.lld's column header|kms_gen -f sidecar -o out.kms -m empty vmlinux
1|kallmodsyms-gen: other.map: vmlinux.o at 0xffffffff82000000+0x2 lies outside section .text of vmlinux: is the map from another build?|kms_gen -f sidecar -o out.kms -m other.map vmlinux
1|kallmodsyms-gen: vmlinux.map links vmlinux.o, whose map is needed: nonutf8.o.map: input file of .text at 0x3c is not printable ASCII|kms_gen -f sidecar -o out.kms -M nonutf8.o.map vmlinux
1|kallmodsyms-gen: ./drivers/a/.$long.o.cmd: cannot open: File name too long|kms_gen -f sidecar -o out.kms -M long.o.map vmlinux
1|kallmodsyms-gen: nonutf8.builtin: line 6: module path is not printable ASCII|kms_gen -f sidecar -o out.kms -B nonutf8.builtin vmlinux
1|kallmodsyms-gen: long.builtin: line 6: module name of 5000 bytes, longer than the kernel's 55|kms_gen -f sidecar -o out.kms -B long.builtin vmlinux
1|kallmodsyms: empty: not an ELF file|kms list empty
1|kallmodsyms: truncated: truncated or corrupt: section headers end at $size, the file has 100 bytes|kms list truncated
1|kallmodsyms: elf32: ELF machine 3 (class 1, data 1) is not an architecture kallmodsyms knows (x86_64, aarch64)|kms list -t good.kms elf32
1|kallmodsyms: s390: ELF machine 22 (class 2, data 1) is not an architecture kallmodsyms knows (x86_64, aarch64)|kms lookup -t good.kms s390 0
1|kallmodsyms: stripped: no symbol table|kms find -t good.kms stripped dup_fn
1|kallmodsyms: empty: empty file|kms dump -t empty vmlinux
1|kallmodsyms: truncated: truncated or corrupt: section headers end at $size, the file has 100 bytes|kms dump -t truncated vmlinux
1|kallmodsyms: elf32: no kallmodsyms note (not generated for this vmlinux?)|kms stats -t elf32 vmlinux
1|kallmodsyms: binary: not an ELF file, a note file or a kallmodsyms blob|kms dump -t binary vmlinux
1|kallmodsyms: dup.kms: note: range 1 starts at 0, not after range 0 at 0|kms dump -t dup.kms vmlinux
1|kallmodsyms: overlap.kms: note: range objects overlap sections|kms modules -t overlap.kms vmlinux
1|kallmodsyms: huge.kms: note: implausible image size 4294967295|kms dump -t huge.kms vmlinux
1|kallmodsyms: hugepayload.kms: note: header says 4294967295 payload bytes, the note holds 489|kms dump -t hugepayload.kms vmlinux
1|kallmodsyms: note4g: note record at offset 0 runs past the end of its 24 bytes|kms dump -t note4g vmlinux
1|kallmodsyms: nonprint.kms: note: string table byte 1 is not a printable character|kms list -t nonprint.kms vmlinux
1|kallmodsyms: twoframes.kms: note: payload: 13 bytes after the zstd frame|kms dump -t twoframes.kms vmlinux
1|kallmodsyms: trailing-skippable.kms: note: payload: 12 bytes after the zstd frame|kms dump -t trailing-skippable.kms vmlinux
1|kallmodsyms: skippable.kms: note: payload is a skippable frame, not a zstd frame|kms dump -t skippable.kms vmlinux
1|kallmodsyms: future.kms: note: format version 6, this reader knows version 5|kms dump -t future.kms vmlinux
1|kallmodsyms-audit: $tmp/empty/.config: cannot open: Not a directory|\$KMS_WRAP "\$KMS_BUILD/kallmodsyms-audit" -b empty
1|kallmodsyms-audit: $tmp/audit-tree/arch/x86/Makefile: cannot open: No such file or directory|\$KMS_WRAP "\$KMS_BUILD/kallmodsyms-audit" -b audit-tree
EOF

# A failed append leaves the hostile vmlinux exactly as it was.
cp elf32 keep
testrun_error 1 "kallmodsyms-gen: elf32: ELF machine 3 (class 1, data 1) is not an architecture kallmodsyms knows (x86_64, aarch64)" \
	kms_gen -f append -m vmlinux.map elf32
assert_same keep elf32 "elf32 after a failed append"
assert_absent elf32.tmp

finish
