#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64,arm64-llvm configs=small
#
# Boot the patched small kernel in QEMU and hold /proc/kallmodsyms against
# the offline reader, as root and as nobody, with and without KASLR; boot
# it with damaged notes and see it carry on without the feature, and with
# kallmodsyms.proc=0 and see the file, only, gone.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
cd "$tmp" || exit 1

write_listing_guest guest.sh
make_initramfs initrd.gz guest.sh

# show_log DIR: the console of a failed boot.
show_log() { echo "console of $1:" >&2; tail -n 40 "$1/console.log" >&2; }

boot "$(boot_image)" initrd.gz nokaslr nokaslr ||
	{ fail "boot"; exit 1; }

check_boot nokaslr "$kbuild/vmlinux"

# /sys/kernel/notes, which every user may read (as nobody does here),
# holds no tables: they give each object's offset from _text, which
# /proc/kallsyms hides from such a user.
base64 -d nokaslr/notes > notes.bin || fail "decoding /sys/kernel/notes"
testrun_error 1 "kallmodsyms: notes.bin: no kallmodsyms note among its notes" \
	kms list -t notes.bin "$kbuild/vmlinux"

# With KASLR: the same names and annotations, every core address moved by
# one offset.
# KASLR may pick the link-time slot (CI saw it once on 6.1): boot again
# then, and say so.
text_of() { grep -m1 ' T _text$' "$1/kallmodsyms" | cut -d' ' -f1; }
for try in 1 2 3; do
	rm -rf kaslr
	boot "$(boot_image)" initrd.gz kaslr kaslr ||
		{ fail "boot with kaslr"; exit 1; }
	[ "$(text_of kaslr)" != "$(text_of nokaslr)" ] && break
	echo "boot $try: KASLR kept the link-time address; $(grep -i kaslr kaslr/dmesg | tr '\n' ' ')"
done
cut -d' ' -f2- nokaslr/kallmodsyms > root-rest
cut -d' ' -f2- kaslr/kallmodsyms > kaslr-rest
assert_same root-rest kaslr-rest "annotations with and without KASLR"
paste -d' ' <(cut -d' ' -f1 nokaslr/kallmodsyms) <(cut -d' ' -f1 kaslr/kallmodsyms) |
	grep -v '^0000000000000000 0000000000000000$' |
	while read -r a b; do printf '%x\n' $(( 0x$b - 0x$a )); done |
	sort | uniq -c > shifts
# Per-CPU symbols (absolute, not relocated) aside, one shift.
grep -vc ' 0$' shifts > nshifts
testrun_compare cat nshifts <<'EOF'
1
EOF

# Damaged notes, booted from an edited copy of the image (note_in_image):
# one error line, no oops, and no /proc/kallmodsyms.
write_damaged_guest guest-damaged.sh
make_initramfs initrd-damaged.gz guest-damaged.sh

# kallmodsyms.proc=0 (for DTrace 2.0, which reads a /proc/kallmodsyms of
# another layout): no file, the tables kept all the same (the parser said
# nothing: a refusal is an error line), and the kprobe events of 6.12
# still resolve "vmlinux:SYM" with them.  The KUnit suite's refusals of
# its damaged copies are run-selftests.sh's to judge.
if boot "$(boot_image)" initrd-damaged.gz noproc nokaslr kallmodsyms.proc=0; then
	sed -nE '/KUnit test refused a damaged copy/d
		s/^(\[ *[0-9.]+\] )?(kallmodsyms: .*)/\2/p' noproc/dmesg \
		> noproc/lines
	testrun_compare cat noproc/lines < /dev/null
	testrun_compare cat noproc/proc <<'EOF'
absent
EOF
	[ "${KMS_KERNEL:-6.12}" = 6.1 ] ||
		testrun_compare cat noproc/kprobe <<'EOF'
accepted
EOF
else
	fail "boot with kallmodsyms.proc=0"
fi
read -r image desc < <(note_in_image)
[ -n "$desc" ] || fail "no note in vmlinux"
while IFS='|' read -r what offset byte message; do
	[ -n "$what" ] || continue
	cp "$image" "vmlinux.$what"
	if [ "$byte" = flip ]; then
		old=$(od -An -tx1 -j $((desc + offset)) -N1 "vmlinux.$what" | tr -d ' ')
		byte=$(printf '%02x' $(( 0x$old ^ 0xff )))
	fi
	printf '%b' "\\x$byte" |
		dd of="vmlinux.$what" bs=1 seek=$((desc + offset)) conv=notrunc status=none
	if ! boot "vmlinux.$what" initrd-damaged.gz "$what" nokaslr; then
		fail "boot with a damaged note ($what)"
		continue
	fi
	check_damaged "$what" "$message"
done <<'EOF'
magic|0|58|bad note header
version|4|02|format version 2, this kernel reads version 5
init-paths-size|31|flip|bad note header
frame|32|00|payload is not one zstd frame of the image size with a checksum
EOF

finish
