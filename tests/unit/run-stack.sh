#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# Crash dumps (--vmcore) on the synthetic tree: synthetic x86_64 ELF cores
# as QEMU's dump-guest-memory writes them (mkvmcore.py), with page tables
# of 4 KiB, 2 MiB and 1 GiB pages, 4 and 5 levels; the KASLR offset for
# lookup and decode, the stack command in text and JSON, and each refusal
# in one line.  Sizes, which the compiler decides, are replaced by SIZE.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables
# The fixture has no build id: a copy with one, as kernels have.
build_id=0123456789abcdef0123456789abcdef01234567
{
	printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000'
	for ((i = 0; i < ${#build_id}; i += 2)); do
		printf '%b' "\\x${build_id:i:2}"
	done
} > build-id.note
objcopy --add-section .note.gnu.build-id=build-id.note "$fx/vmlinux" vmlinux ||
	fail "objcopy"
mkvmcore() { python3 "$tests_dir/unit/mkvmcore.py" "$@"; }
norm() { sed -E 's#\+0x([0-9a-f]+)/0x\1\b#+SIZE/SIZE#; s#/0x[0-9a-f]+#/SIZE#'; }

kaslr=0x2000000
# The address of SYMBOL+OFFSET once relocated, 16 hex digits.
at() {
	local link
	link=$(nm vmlinux | awk -v s="$1" '$3 == s { print $1; exit }')
	printf '%016x' $((0x$link + kaslr + $2))
}

cat > info <<EOF
info OSRELEASE=6.12.0-fixture
info BUILD-ID=$build_id
info PAGESIZE=4096
info KERNELOFFSET=${kaslr#0x}
EOF
# CPU 0: a 4 KiB-page stack; CPU 1 in user space; CPU 2: 2 MiB pages;
# CPU 3: 1 GiB pages, its pc at _etext (outside the text).
cat info - > spec <<EOF
cpu $(at schedule 4) ffffc90000013f00
cpu 00007f0000001000 00007ffc00000000
cpu $(at liquid_probe 1) ffff888000213f80
cpu $(at _etext 0) ffff888040003fc0
map ffffc90000010000 4000 4k
word ffffc90000013f00 $(at start_kernel 5)
word ffffc90000013f08 1234
word ffffc90000013f10 $(at liquid_init 0)
word ffffc90000013ff8 $(at liquid_common_init 1)
map ffff888000210000 4000 2m
word ffff888000213f80 $(at ext9_iget 1)
map ffff888040000000 4000 1g
word ffff888040003fc8 $(at _stext 0)
word ffff888040003ff8 $(at native_smp_send 1)
EOF
mkvmcore dump < spec || fail "mkvmcore.py"
# run COMMAND DUMP [ARG...]
run() { kms "$1" -t fx.kms --vmcore "$2" vmlinux "${@:3}"; }
# ...its output normalised
runn() { run "$@" > raw || return; norm < raw; }

## The offset for lookup and decode.
testrun_compare runn lookup dump "$(at schedule 4)" <<'EOF'
schedule+0x4/SIZE {sched/core.o}
EOF
echo "[<$(at schedule 4)>]" > log
# (without the file:line DWARF adds)
decode_log() { runn decode dump < log | sed 's/ [^ ]*:[0-9]*$//'; }
testrun_compare decode_log <<EOF
[<$(at schedule 4)>] schedule+0x4/SIZE {sched/core.o}
EOF

## stack
expected() {
	cat <<EOF
CPU 0 pc $(at schedule 4) schedule+0x4/SIZE {sched/core.o}
 ? start_kernel+0x5/SIZE
 ? liquid_common_init+SIZE/SIZE [liquid] [liquid_vf]
 ? liquid_common_init+0x1/SIZE [liquid] [liquid_vf]
CPU 1 pc 00007f0000001000 not in the kernel's text
CPU 2 pc $(at liquid_probe 1) liquid_probe+0x1/SIZE [liquid] [liquid_vf]
 ? ext9_iget+0x1/SIZE [ext9] {inode.o}
CPU 3 pc $(at _etext 0) not in the kernel's text
 ? $(at _stext 0)
 ? native_smp_send+0x1/SIZE {x86/kernel/smp.o}
EOF
}
run stack dump > out 2> err || fail "stack exited $?"
norm < out > stack.out
expected | diff -u - stack.out >&2 || fail "stack: output differs"
[ -s err ] && fail "stack: unexpected stderr: $(cat err)"

# Five levels of page tables read alike.
sed 's/^info PAGESIZE/info NUMBER(pgtable_l5_enabled)=1\n&/' spec |
	mkvmcore dump5 || fail "mkvmcore.py (5 levels)"
testrun_compare run stack dump5 < out

run stack dump --json > out.json || fail "stack --json"
testrun_compare python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["kaslr_offset"], d["thread_size"])
for c in d["cpus"]:
    print(c["cpu"], c["sp"], c["in_text"], c.get("symbol"), c.get("objfile"),
          [(e.get("symbol"), e["modules"] if "symbol" in e else None)
           for e in c.get("stack", [])])' out.json <<'EOF'
0x2000000 0x4000
0 0xffffc90000013f00 True schedule sched/core.o [('start_kernel', []), ('liquid_common_init', ['liquid', 'liquid_vf']), ('liquid_common_init', ['liquid', 'liquid_vf'])]
1 0x7ffc00000000 False None None []
2 0xffff888000213f80 True liquid_probe None [('ext9_iget', ['ext9'])]
3 0xffff888040003fc0 False None None [(None, None), ('native_smp_send', [])]
EOF

# A stack the dump cannot give: the other CPUs are still shown, the error
# follows, exit 1.
{ cat spec; echo "hole ffffc90000013000"; } | mkvmcore hole || fail "mkvmcore.py"
status=0
run stack hole > out 2> err || status=$?
[ "$status" = 1 ] || fail "stack of a dump with a hole exited $status"
grep -v '^ ? [sl]' stack.out | diff -u - <(norm < out) >&2 ||
	fail "stack of a dump with a hole: output differs"
testrun_compare cat err <<'EOF'
kallmodsyms: hole: kernel address ffffc90000013f00 (physical 0x10003f00) is not in the dump
EOF
{ cat spec; echo "cpu $(at schedule 0) ffffc90000023f00"; } |
	mkvmcore unmapped || fail "mkvmcore.py"
run stack unmapped > /dev/null 2> err && fail "stack of an unmapped stack succeeded"
testrun_compare cat err <<'EOF'
kallmodsyms: unmapped: kernel address ffffc90000023f00 is not mapped (no PTE entry)
EOF

# An arm64 dump: the pcs, then why the stacks are not read.
{ echo "machine aarch64"; cat info; echo "cpu $(at schedule 4) ffffc90000013f00"; } |
	mkvmcore arm64 || fail "mkvmcore.py (arm64)"
status=0
run stack arm64 > out 2> err || status=$?
[ "$status" = 1 ] || fail "stack of an arm64 dump exited $status"
norm < out > arm64.out
testrun_compare cat arm64.out <<EOF
CPU 0 pc $(at schedule 4) schedule+0x4/SIZE {sched/core.o}
EOF
testrun_compare cat err <<'EOF'
kallmodsyms: arm64: reading aarch64 kernel memory is not supported yet
EOF

# A kdump-compressed dump gives the offset, not the memory.
{ echo kdump; cat spec; } | mkvmcore kdump || fail "mkvmcore.py (kdump)"
testrun_compare runn lookup kdump "$(at schedule 4)" <<'EOF'
schedule+0x4/SIZE {sched/core.o}
EOF
testrun_error 1 "kallmodsyms: kdump: reading memory is not supported for kdump-compressed dumps: use an ELF dump" \
	run stack kdump

## Refusals: one line naming the file.
testrun_error 1 "kallmodsyms: vmlinux: not an ELF core dump" \
	run lookup vmlinux 0
echo hello > text
testrun_error 1 "kallmodsyms: text: not an ELF core dump" \
	run lookup text 0
testrun_error 1 "kallmodsyms: nope: cannot open: No such file or directory" \
	run stack nope
printf 'makedumpfile\0\0\0\0' > flat
testrun_error 1 "kallmodsyms: flat: a flattened kdump-compressed dump: rearrange it first (makedumpfile -R NEWFILE < FILE)" \
	run stack flat
grep -v '^info' spec | mkvmcore noinfo || fail "mkvmcore.py"
testrun_error 1 "kallmodsyms: noinfo: no VMCOREINFO note: not a kernel's dump, or QEMU ran without -device vmcoreinfo" \
	run lookup noinfo 0
[ "$(stat -c %s dump)" -gt 30000 ] || fail "the dump is too small to cut"
head -c 30000 dump > truncated
testrun_error_match 1 "kallmodsyms: truncated: truncated: segment [0-9]+ \\(PT_LOAD, [0-9]+ bytes from offset [0-9]+\\) ends at byte [0-9]+, the file has 30000 bytes" \
	run lookup truncated 0
head -c 100 dump > short
testrun_error 1 "kallmodsyms: short: truncated: its program header table ends at byte $((64 + 56 * 5)), the file has 100 bytes" \
	run lookup short 0
sed "s/BUILD-ID=0/BUILD-ID=f/" spec | mkvmcore other || fail "mkvmcore.py"
testrun_error 1 "kallmodsyms: other: a dump of another kernel: its build id is f${build_id#0}, vmlinux's is $build_id" \
	run stack other
grep -v 'BUILD-ID' spec | mkvmcore old || fail "mkvmcore.py"
testrun_error 1 "kallmodsyms: old: its VMCOREINFO has no BUILD-ID (a kernel before 5.16?): cannot tell whether it is a dump of vmlinux" \
	run lookup old 0
testrun_error 1 "kallmodsyms: $fx/vmlinux: no GNU build-id note: cannot tell whether dump is a dump of it" \
	kms lookup -t fx.kms --vmcore dump "$fx/vmlinux" 0
grep -v 'KERNELOFFSET' spec | mkvmcore nooffset || fail "mkvmcore.py"
testrun_error 1 "kallmodsyms: nooffset: its VMCOREINFO has no KERNELOFFSET" \
	run lookup nooffset 0

## Usage.
testrun_error 2 "kallmodsyms: stack needs --vmcore FILE" \
	kms stack -t fx.kms vmlinux
testrun_error 2 "kallmodsyms: --kaslr-offset and --vmcore exclude each other" \
	run lookup dump -k 1 0
testrun_error 2 "kallmodsyms: --kallsyms and --vmcore exclude each other" \
	run decode dump -K dump

finish
