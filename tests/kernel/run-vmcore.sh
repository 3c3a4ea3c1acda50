#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-dwarf
#
# Post-mortem: QEMU's dumps of the small kernel (dump-guest-memory, with
# -device vmcoreinfo so that a dump carries VMCOREINFO and its KASLR
# offset), read by the inspector (--vmcore, stack), the drgn helpers
# (drgn-scripts/), crash and its extension (crash-extension/), each held
# to /proc/kallmodsyms of the same boot.
#
# Boot 1, KASLR, under the gdbstub: a dump after the samples' WARN (at
# boot, kms_sample_a.warn=1), then one while the CPU is stopped at the
# start of kms_sample_c's two/util.o kms_sample_show().  Boot 2, no KASLR,
# panic_on_warn: the dump of a kernel that panicked in kms_sample_a's
# kms_sample_show(), as ELF and kdump-compressed.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small-dwarf
[ "$(guest_arch)" = x86_64 ] || exit 77
command -v gdb > /dev/null || { echo "no gdb" >&2; exit 77; }
cd "$tmp" || exit 1
vmlinux=$kbuild/vmlinux
qmp="$tests_dir/kernel/qmp.py"
# A dump is the guest's RAM: no more of it than the guest needs.
qemu_mem=256M

run_gdb() { # NAME GDB-COMMANDS...
	local name=$1 c args=()
	shift
	for c in "$@"; do
		args+=(-ex "$c")
	done
	timeout -k 10 240 gdb -batch -nx -iex 'set pagination off' \
		-iex 'set confirm off' "$vmlinux" "${args[@]}" \
		> "$name.stdout" 2> "$name.stderr"
}

#
# Boot 1: KASLR, a listing, a dump while stopped in kms_sample_show.
#
cat > guest.sh <<'EOF'
stty -F /dev/kms-ctl raw -echo
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ pid"
echo $$
echo "@@@ ready"
read -r go < /dev/kms-ctl
echo two > /sys/module/kms_sample_c/parameters/run
echo "@@@ end"
EOF
make_initramfs initrd.gz guest.sh
start_gdbstub_moved "$(boot_image)" initrd.gz live "${vmcore_opts[@]}" -- \
	"$vmcore_param" || { fail "a guest with KASLR"; exit 1; }
two=$(grep -P ' kms_sample_show\t\[kms_sample_c\] \{two/util.o\}$' live/kallmodsyms | cut -d' ' -f1)
[ -n "$two" ] || { fail "the guest's listing lacks the samples"; exit 1; }
# A dump with the guest's page tables' view too (paging): drgn 0.0.22
# reads no other kind on x86-64 (it cannot find the kernel's page tables
# in physical memory alone).
run_gdb live "target remote $gdbstub" "break *0x$two" \
	"shell echo go > live/ctl.in" 'continue' \
	"shell $qmp $tmp/qmp.sock dump $tmp/stopped.core paging" \
	'delete' 'detach' || fail "gdb session"
wait_qemu 120 || fail "the guest did not finish"
[ -s stopped.core ] || { fail "no dump"; exit 1; }

#
# Boot 2: no KASLR, panic_on_warn; the dumps once the panic is over.
#
panic_dumps panic initrd.gz core paging flat || fail "the panic's dumps"
# QEMU writes makedumpfile's flattened format; makedumpfile -R makes the
# file crash and the tools read.
if command -v makedumpfile > /dev/null; then
	makedumpfile -R panic.kdump < panic/panic.flat > /dev/null || fail "makedumpfile -R"
fi

#
# The inspector: the KASLR offset from the dump, the CPUs' stacks.
#
mapfile -t shows < <(grep -P ' kms_sample_show(\t|$)' live/kallmodsyms | sed 's/ .*//; s/^/0x/')
kms lookup -K live/kallmodsyms "$vmlinux" "${shows[@]}" > lookups ||
	fail "kallmodsyms lookup -K"
sed 's/^[0-9a-f]* //' lookups > lookups.names
kms lookup --vmcore stopped.core "$vmlinux" "${shows[@]}" > vmcore-lookups ||
	fail "kallmodsyms lookup --vmcore"
assert_same lookups vmcore-lookups "lookup --vmcore vs lookup -K /proc/kallmodsyms"
# The stopped CPU: at the breakpoint, the instance /proc/kallmodsyms
# names there; its caller on the stack.
kms stack --vmcore stopped.core "$vmlinux" > stack || fail "kallmodsyms stack"
printf 'CPU 0 pc %s kms_sample_show+0x0/SIZE %s\n' "$two" \
	"$(grep "^$two " live/kallmodsyms | cut -f 2)" > stack.expected
sed -n '1s#/0x[0-9a-f]* #/SIZE #p' stack > stack.first
testrun_compare cat stack.first < stack.expected
grep -q '^ ? run_set+0x[0-9a-f]*/0x[0-9a-f]* \[kms_sample_c\] {c_main.o}$' stack ||
	fail "stack: no run_set [kms_sample_c] {c_main.o} on CPU 0's stack"
# The panic: the WARN's instance on the panicking CPU's stack.
kms stack --vmcore panic/panic.core "$vmlinux" > panic-stack || fail "kallmodsyms stack (panic)"
grep -E '^ \? kms_sample' panic-stack | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF\/SIZE/' | sort -u > panic-stack.lines
testrun_compare cat panic-stack.lines <<'EOF'
 ? kms_sample_a_init+OFF/SIZE [kms_sample_a]
 ? kms_sample_show+OFF/SIZE [kms_sample_a]
EOF
# kdump-compressed: VMCOREINFO, so offsets; no memory read.
if [ -f panic.kdump ]; then
	kms lookup --vmcore panic/panic.core "$vmlinux" kms_sample_show,1 > a-show ||
		fail "lookup --vmcore of an ELF dump"
	kms lookup --vmcore panic.kdump "$vmlinux" kms_sample_show,1 > a-show.kdump ||
		fail "lookup --vmcore of a kdump-compressed dump"
	assert_same a-show a-show.kdump "lookup --vmcore: kdump-compressed vs ELF"
fi

# Bad input, one line each.
head -c 100000 panic/panic.core > truncated.core
testrun_error_match 1 "^kallmodsyms: truncated.core: truncated: segment 1 \(PT_LOAD, [0-9]+ bytes from offset [0-9]+\) ends at byte [0-9]+, the file has 100000 bytes$" \
	kms stack --vmcore truncated.core "$vmlinux"
cp panic/panic.core noinfo.core
chmod u+w noinfo.core
off=$(grep -obaF VMCOREINFO noinfo.core | head -n 1 | cut -d: -f1)
patch_byte noinfo.core "$off" 58	# "XMCOREINFO"
testrun_error_match 1 "kallmodsyms: noinfo.core: no VMCOREINFO note.*" \
	kms lookup --vmcore noinfo.core "$vmlinux" "${shows[0]}"
testrun_error 1 "kallmodsyms: panic/panic.flat: a flattened kdump-compressed dump: rearrange it first (makedumpfile -R NEWFILE < FILE)" \
	kms lookup --vmcore panic/panic.flat "$vmlinux" "${shows[0]}"
cp "$vmlinux" vmlinux.other
bid=$(readelf -n "$vmlinux" | sed -n 's/.*Build ID: //p')
# (the kernel's note in .notes, not the vDSO's in .rodata)
off=$(python3 - "$top/python" vmlinux.other <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from kallmodsyms.elf import ElfFile
elf = ElfFile(sys.argv[2])
notes = [s for s in elf.sections if s["name"] == ".notes"][0]
print(elf.data.find(b"\x04\0\0\0\x14\0\0\0\x03\0\0\0GNU\0",
                    notes["offset"]) + 16)
EOF
)
patch_byte vmlinux.other "$off" ff
testrun_error 1 "kallmodsyms: stopped.core: a dump of another kernel: its build id is $bid, vmlinux.other's is ff${bid:2}" \
	kms stack --vmcore stopped.core vmlinux.other

#
# crash (Debian 12's 8.0.2, older than Linux 6.12) in its minimal mode:
# a full session needs --no_kmem_cache (SLAB is gone since 6.8), cannot
# read 6.12's task stacks (its bt fails), and its gdb may crash in its
# start-up, after which crash hangs (ignoring SIGTERM).  sym, log and
# extensions work in minimal mode: crash's addresses and log through
# kallmodsyms --vmcore, and the extension's kms sym and lookup.
#
if command -v crash > /dev/null; then
	crash_run() { # CORE COMMAND...: crash's output of COMMANDs
		local core=$1
		shift
		printf '%s\n' "$@" quit |
			timeout -k 10 120 crash --minimal -s --kaslr auto "$vmlinux" "$core" 2> /dev/null
	}
	crash_run stopped.core 'sym kms_sample_show' |
		sed -nE 's/^([0-9a-f]{16}) \(t\) kms_sample_show .*/0x\1/p' > crash-shows
	printf '%s\n' "${shows[@]}" | testrun_compare cat crash-shows
	mapfile -t crash_addrs < crash-shows
	kms lookup --vmcore stopped.core "$vmlinux" "${crash_addrs[@]}" > crash-lookups ||
		fail "lookup of crash's addresses"
	assert_same lookups crash-lookups "crash's sym + lookup --vmcore vs /proc/kallmodsyms"
	# The extension (crash-extension/), when built: crash's own symbols
	# annotated from the note in vmlinux, as /proc/kallmodsyms has them.
	ext=$KMS_BUILD/crash/kallmodsyms.so
	if [ -f "$ext" ]; then
		crash_run stopped.core "extend $ext" 'kms sym kms_sample_show' \
			"kms lookup ${shows[*]}" 'kms lookup no_such_symbol' > crash-ext 2>&1
		grep -P ' kms_sample_show(\t|$)' live/kallmodsyms > shows.listed
		grep ' t kms_sample_show' crash-ext > crash-ext.sym
		assert_same shows.listed crash-ext.sym "crash's kms sym vs /proc/kallmodsyms"
		grep '^ffffffff[0-9a-f]* kms_sample_show+' crash-ext | cut -d' ' -f2- > crash-ext.lookups
		assert_same lookups.names crash-ext.lookups "crash's kms lookup vs kallmodsyms lookup"
		grep -q '^kms: no_such_symbol: neither an address nor a symbol$' crash-ext ||
			fail "crash's kms lookup of no symbol: $(tail -n 3 crash-ext)"
	fi
	crash_run panic/panic.core log > crash-log
	kms decode --vmcore panic/panic.core "$vmlinux" < crash-log > crash-decoded ||
		fail "decode of crash's log"
	# The WARN and the panic that followed, as crash's log holds them.
	sed -E 's/^\[ *[0-9.]+\] //' crash-decoded | grep -E '^(WARNING: CPU|RIP: | *(\? )?kms_sample)' |
		sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF\/SIZE/g; s# /[^ ]*/(samples/)# SRC/\1#; s/a_main\.c:[0-9]+/a_main.c:LINE/g' > crash-decoded.lines
	testrun_compare cat crash-decoded.lines <<'EOF'
kms_sample_a: warning as asked
WARNING: CPU: 0 PID: 1 at samples/kallmodsyms/a_main.c:LINE kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
RIP: 0010:kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 kms_sample_a_init+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 ? kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 ? kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 ? kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 ? kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
RIP: 0010:kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 ? kms_sample_show+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
 kms_sample_a_init+OFF/SIZE [kms_sample_a] SRC/samples/kallmodsyms/a_main.c:LINE
EOF
fi

#
# drgn (Debian 12's 0.0.22).  Listing and lookups need vmlinux's symbols
# only: a vmlinux without its debug info.  Stacks need the DWARF; drgn
# 0.0.22 predates the ORC format of Linux 6.4 (commit fb799447ae29, "x86,
# objtool: Split UNWIND_HINT_EMPTY in two") and stops at "unknown ORC entry
# type": without .orc_* it unwinds with the DWARF's CFI.
#
drgn_kms() { # VMLINUX CORE ARGS...
	local v=$1 c=$2
	shift 2
	timeout -k 10 120 drgn -q -c "$c" -s "$v" "$top/drgn-scripts/kallmodsyms_drgn.py" "$@"
}
if command -v drgn > /dev/null; then
	objcopy --strip-debug "$vmlinux" vmlinux.nodebug
	objcopy --remove-section='.orc_*' "$vmlinux" vmlinux.noorc
	for v in vmlinux.noorc vmlinux.nodebug; do
		drgn_kms "$v" stopped.core --vmcore stopped.core --vmlinux "$v" \
			list > "drgn-list.$v" 2>&1 || fail "drgn list ($v): $(head -n 3 "drgn-list.$v")"
		assert_same live/kallmodsyms "drgn-list.$v" "drgn list ($v) vs /proc/kallmodsyms (KASLR)"
	done
	drgn_kms vmlinux.noorc stopped.core lookup "${shows[@]}" > drgn-lookups ||
		fail "drgn lookup"
	assert_same lookups.names drgn-lookups "drgn lookup vs kallmodsyms lookup"

	# The stopped CPU's stack: the breakpoint, its callers.
	drgn_kms vmlinux.noorc stopped.core --vmcore stopped.core bt --cpu 0 > drgn-bt 2>&1 ||
		fail "drgn bt --cpu 0: $(cat drgn-bt)"
	grep -E 'kms_sample' drgn-bt | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF\/SIZE/' > drgn-bt.lines
	testrun_compare cat drgn-bt.lines <<'EOF'
#0  kms_sample_show+OFF/SIZE [kms_sample_c] {two/util.o}
#1  run_set+OFF/SIZE [kms_sample_c] {c_main.o}
EOF
	head -n 1 drgn-bt | grep -q '^#0  kms_sample_show+0x0/' ||
		fail "drgn bt --cpu 0: not at the breakpoint: $(head -n 1 drgn-bt)"
	# By pid: the running shell from CPU 0's registers, which only the
	# dump's notes can give (drgn 0.0.22 matches them to tasks by pid,
	# QEMU numbers them by CPU); a sleeping task from where it switched
	# out, pid 1 refused the CPU registers drgn would give it.
	pid=$(cat live/pid)
	drgn_kms vmlinux.noorc stopped.core --vmcore stopped.core bt "$pid" > drgn-bt-pid 2>&1 ||
		fail "drgn bt PID: $(cat drgn-bt-pid)"
	assert_same drgn-bt drgn-bt-pid "drgn bt of the running pid vs bt --cpu 0"
	testrun_error 1 "kallmodsyms_drgn.py: pid $pid is running on CPU 0: --vmcore VMCORE before the command, for that CPU's registers" \
		drgn_kms vmlinux.noorc stopped.core bt "$pid"
	testrun_error 1 "kallmodsyms_drgn.py: the registers drgn has for pid 1 are not on its stack (a QEMU dump numbers CPUs where kdump writes pids): bt --cpu N --vmcore VMCORE" \
		drgn_kms vmlinux.noorc stopped.core bt 1

	# The panic: the thread that panicked, through the WARN's exception.
	drgn_kms vmlinux.noorc panic/panic.paging --vmcore panic/panic.paging bt > drgn-panic-bt 2>&1 ||
		fail "drgn bt: $(cat drgn-panic-bt)"
	grep -E '^#[0-9]+ +(panic|__warn|kms_sample)' drgn-panic-bt |
		sed -E 's/^#[0-9 ]+ //; s/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF\/SIZE/' > drgn-panic-bt.lines
	testrun_compare cat drgn-panic-bt.lines <<'EOF'
panic+OFF/SIZE
__warn+OFF/SIZE
kms_sample_show+OFF/SIZE [kms_sample_a]
kms_sample_a_init+OFF/SIZE [kms_sample_a]
EOF

	# Bad input: a vmlinux of another build (its build id changed), a
	# DWARF-less session without the dump.
	objcopy --strip-debug vmlinux.other vmlinux.other-nodebug
	testrun_error 1 "kallmodsyms_drgn.py: $tmp/stopped.core: a dump of another kernel: its build id is $bid, vmlinux.other-nodebug's is ff${bid:2}" \
		drgn_kms vmlinux.other-nodebug stopped.core --vmcore "$tmp/stopped.core" \
		--vmlinux vmlinux.other-nodebug list
	testrun_error 1 "kallmodsyms_drgn.py: drgn has no vmlinux symbols (no DWARF loaded): give --vmlinux VMLINUX --vmcore VMCORE before the command" \
		drgn_kms vmlinux.nodebug stopped.core list
fi

finish
