#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The kernel's parser from the series on other targets than the host: built
# with Debian's cross compilers for s390x (big-endian, 64-bit) and armhf
# (little-endian, 32-bit), run under qemu-user, it must judge every file
# of the conformance corpus exactly as on x86-64 (verdict, counts,
# message and annotation lines), and accept the fixture's note as each target's assembler lays
# it out.  For s390x the corpus's note headers are rewritten big-endian
# first, as a big-endian kernel's .notes holds them (FORMAT.md 1.1); the
# blobs stay as they are, little-endian on every target.
#
# Needs gcc-s390x-linux-gnu, gcc-arm-linux-gnueabihf, their libc6-dev-*-
# cross, qemu-user, and each target's libzstd.a, which
# scripts/install-deps.sh unpacks into /usr/local/lib/kallmodsyms/ARCH.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

libdir=/usr/local/lib/kallmodsyms
kernel_src=$KMS_BUILD/kernel/kernel/kallmodsyms.c
[ -f "$kernel_src" ] && [ -x "$KMS_BUILD/kms-kernel-judge" ] ||
	{ echo "the kernel judge is not built (make tests)"; exit 77; }
fx=$(fixture relocatable)
cd "$tmp" || exit 1

# The note header rewritten big-endian, record by record, as far as the
# records can be followed (FORMAT.md 1.1's walk); the rest as it is.
cat > swap-notes.py <<'EOF'
import os
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    d = bytearray(open(os.path.join(src, name), "rb").read())
    pos = 0
    while len(d) - pos >= 12:
        namesz, descsz, ntype = struct.unpack_from("<III", d, pos)
        struct.pack_into(">III", d, pos, namesz, descsz, ntype)
        pos += 12 + ((namesz + 3) & ~3) + ((descsz + 3) & ~3)
        if pos > len(d):
            break
    open(os.path.join(dst, name), "wb").write(d)
EOF

# The fixture's note, and the x86-64 judge's verdicts: the reference.
mkdir corpus-le corpus-be
cp "$tests_dir"/conformance/corpus/*.kms corpus-le/
python3 swap-notes.py corpus-le corpus-be || fail "rewriting the corpus big-endian"
kms_gen -q -f asm -o note.S "$fx/vmlinux" || fail "kallmodsyms-gen -f asm"
as -o note.o note.S && objcopy -O binary -j .note.kallmodsyms note.o note.kms ||
	fail "assembling the note"
(cd corpus-le && "$KMS_BUILD/kms-kernel-judge" -v -a ./*.kms) > want ||
	fail "kms-kernel-judge on the corpus"
"$KMS_BUILD/kms-kernel-judge" -v -a note.kms | cut -d' ' -f2- > want-note ||
	fail "kms-kernel-judge on the note"
grep -q '^accept ' want-note || fail "the host's judge refused the fixture's note"

ran=
for t in s390x:s390x-linux-gnu:be armhf:arm-linux-gnueabihf:le; do
	IFS=: read -r arch triplet order <<< "$t"
	missing=
	for prog in "$triplet-gcc" "$triplet-as" "qemu-${arch/armhf/arm}"; do
		command -v "$prog" > /dev/null || missing="$missing $prog"
	done
	[ -f "$libdir/$arch/libzstd.a" ] || missing="$missing $libdir/$arch/libzstd.a"
	if [ -n "$missing" ]; then
		echo "$arch: skipped, missing$missing"
		continue
	fi
	ran="$ran $arch"
	# The library as the tools build it, the judge over tests/fuzz/kshim
	# as the Makefile builds kms-kernel-judge; static, for qemu-user.
	mkdir "lib-$arch"
	for f in "$top"/sidecar/lib/*.c; do
		"$triplet-gcc" -std=gnu11 -O1 -D_GNU_SOURCE -I"$top/sidecar/include" \
			-c -o "lib-$arch/$(basename "$f" .c).o" "$f" ||
			fail "$arch: compiling $f"
	done
	"$triplet-gcc" -std=gnu11 -O1 -static -D_GNU_SOURCE \
		-I"$top/sidecar/include" -I"$tests_dir/fuzz/kshim" \
		-I"$tests_dir/conformance" -I"$KMS_BUILD/kernel/include" \
		-I"$KMS_BUILD/kernel/kernel" -o "judge-$arch" \
		"$tests_dir/conformance/kernel-judge.c" "lib-$arch"/*.o \
		"$libdir/$arch/libzstd.a" || { fail "$arch: building the judge"; continue; }
	judge=(qemu-"${arch/armhf/arm}" "$tmp/judge-$arch")

	(cd "corpus-$order" && "${judge[@]}" -v -a ./*.kms) > "got-$arch" ||
		fail "$arch: the judge exited $?"
	assert_same want "got-$arch" "$arch's verdicts on the corpus vs x86-64's"

	"$triplet-as" -o "note-$arch.o" note.S || fail "$triplet-as note.S"
	"$triplet-objcopy" -O binary -j .note.kallmodsyms "note-$arch.o" "note-$arch.kms"
	"${judge[@]}" -v -a "note-$arch.kms" | cut -d' ' -f2- > "got-note-$arch"
	assert_same want-note "got-note-$arch" "$arch's verdict on its own note vs x86-64's"
done
[ -n "$ran" ] || { echo "no cross target to run"; exit 77; }
echo "judged on:$ran"
finish
