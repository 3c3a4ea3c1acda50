#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-debug suite=full timeout=3000 (a KASAN, UBSAN and lockdep kernel of its own, booted under TCG for up to 50 minutes)
#
# The kernel's own sanitizers on the series' code: the small-debug kernel
# (small.config with generic KASAN, UBSAN's bounds and shift checks,
# lockdep's PROVE_LOCKING, DEBUG_ATOMIC_SLEEP and kmemleak, on from boot)
# booted in QEMU (TCG), in one boot:
#  - the series' own tests, as run-selftests.sh runs them (selftests.sh):
#    the KUnit suites at boot, the kselftest, the ftracetests;
#  - a stress: 8 readers of /proc/kallmodsyms, each cat after cat, while
#    $nprobes kprobe events are added by the notation of the guest's own
#    /proc/kallmodsyms ("MOD:SYM", "MOD:SYM{OBJ}", "SYM{OBJ}": functions
#    of the fixture, of every built-in module, of core objects; ones
#    ftrace can trace and the kprobe blacklist does not list, each spec
#    fitting one line of the listing), then enabled, the fixture's run
#    (its probes fire), disabled and removed, $batch at a time; with each
#    batch, ":mod:MOD" of the next built-in module is set in
#    set_ftrace_filter, the function tracer runs on it, and the filter is
#    cleared.  A probe the kernel refuses for an address it cannot probe
#    is counted; one it refuses by the series' own reasons (not unique, no
#    such module or symbol) is a failure: the listing and the resolution
#    disagree;
#  - kmemleak's scan, which must find nothing.
# Then no report may be in the log (dmesg, and the console, which keeps
# what an overrun ring buffer would lose): BUG:, KASAN, UBSAN, WARNING:,
# lockdep's "possible circular locking", "sleeping function called from
# invalid context", a kmemleak report, Oops, Call Trace.  The scanner is
# first held to a log with one line of each kind, so that a scan that
# finds nothing means something.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

nprobes=1000 batch=50

# sanitizer_reports [GREP OPTION...] LOG: the lines of a kernel log that
# report a problem.
report='BUG:|KASAN|UBSAN|WARNING:|possible circular locking|sleeping function called from invalid context|kmemleak: .*suspected memory leak|Oops|Call Trace|kernel BUG at|general protection fault|INFO: .*(stall|blocked|lock)'
sanitizer_reports() { grep -E "${@:1:$#-1}" -- "$report" "${@: -1}"; }

cd "$tmp" || exit 1
cat > synthetic <<'EOF'
[   12.345678] BUG: KASAN: slab-out-of-bounds in kallmod_show+0x2a/0x90
[   12.345678] UBSAN: array-index-out-of-bounds in kernel/kallmodsyms.c:100:7
[   12.345678] WARNING: CPU: 1 PID: 77 at kernel/kallmodsyms.c:120 kallmod_show+0x5/0x90
[   12.345678] WARNING: possible circular locking dependency detected
[   12.345678] BUG: sleeping function called from invalid context at mm/slub.c:4107
[   12.345678] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
[   12.345678] Oops: general protection fault, probably for non-canonical address 0xdffffc0000000000: 0000 [#1] PREEMPT SMP KASAN
[   12.345678] Call Trace:
[   12.345678] kernel BUG at kernel/kallmodsyms.c:42!
[   12.345678] INFO: rcu_preempt self-detected stall on CPU
EOF
testrun_compare sanitizer_reports synthetic < synthetic
sanitizer_reports - <<'EOF' && fail "the scanner flags lines of a clean boot"
[    0.000000] kasan: KernelAddressSanitizer initialized (generic)
[    0.100000] kmemleak: Kernel memory leak detector initialized (mem pool available: 15000)
[    0.200000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
EOF

need_kernel small-debug
# shellcheck source=SCRIPTDIR/selftests.sh
. "$tests_dir/kernel/selftests.sh"
for opt in KASAN KASAN_GENERIC UBSAN UBSAN_BOUNDS UBSAN_SHIFT PROVE_LOCKING \
	DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK KALLMODSYMS_KUNIT_TEST KPROBE_EVENTS \
	FUNCTION_TRACER; do
	grep -qx "CONFIG_$opt=y" "$kbuild/.config" ||
		{ fail "the small-debug kernel has no CONFIG_$opt"; exit 1; }
done
grep -qx 'CONFIG_UBSAN_TRAP=y' "$kbuild/.config" &&
	{ fail "the small-debug kernel traps on UBSAN: no report to read"; exit 1; }

{
	selftests_guest
	echo "nprobes=$nprobes batch=$batch"
	cat "$tests_dir/kernel/sanitizers-guest.sh"
} > guest.sh
make_initramfs initrd.gz guest.sh "${selftests_files[@]}"
start=$SECONDS
# A larger log than tinyconfig's, so that dmesg keeps the whole boot.
qemu_mem=1G qemu_timeout=2900 boot "$(boot_image)" initrd.gz out log_buf_len=4M ||
	{ fail "boot"; exit 1; }
echo "boot and run: $((SECONDS - start)) s"

check_kunit out
check_parser_lines out
check_kselftest out
check_ftracetest out
echo "KUnit: $(grep -c '^\[PASSED\]' kunit.cases) cases passed;" \
	"kselftest: $(grep -c '^ok ' kselftest) passed;" \
	"ftracetest: $(cat out/ftracetest out/ftracetest-others 2> /dev/null |
		grep -cE '^ok ')" "passed of $(cat out/ftracetest out/ftracetest-others \
		2> /dev/null | grep -cE '^(not )?ok ')"

# The stress: every probe added was removed, none refused by the series'
# own reasons, 8 readers, each of which read to the end at least once.
cat out/stress
count() { sed -n "s/^$1 //p" out/counts; }
echo "stress: $(count readers) readers read /proc/kallmodsyms $(count loops) times" \
	"(the fewest $(count fewest)) while $(count added) probes of $(count specs)" \
	"specs were added ($(count refused) refused) and $(count removed) removed," \
	"in batches of $batch, with $(count filters) :mod: filters over" \
	"$(count modules) modules; $(count hits) probe hits; $(count seconds) s"
[ "$(count readers)" = 8 ] || fail "$(count readers) readers, not 8"
[ "$(count added)" = "$nprobes" ] || fail "$(count added) probes added, not $nprobes"
[ "$(count removed)" = "$(count added)" ] ||
	fail "$(count removed) of $(count added) probes removed"
[ "$(count filters)" -ge $((nprobes / batch)) ] ||
	fail "$(count filters) :mod: filters set"
[ "$(count fewest)" -ge 1 ] || fail "a reader never read /proc/kallmodsyms to the end"
if grep -E 'error: (The symbol is not unique|No built-in module|No such symbol|Not a function|Invalid module or object|No kallmodsyms)' out/stress; then
	fail "the kernel refused a probe its own /proc/kallmodsyms lists"
fi
if grep -E '^(reader|enable|disable|remove|filter|tracer)' out/stress; then
	fail "a step of the stress failed"
fi

# kmemleak ran, found nothing.
grep -q 'kmemleak: Kernel memory leak detector initialized' out/dmesg ||
	fail "kmemleak did not start"
if grep -E 'kmemleak: .*(disabled|Cannot|exceeded)' out/dmesg; then
	fail "kmemleak stopped"
fi
if [ -s out/kmemleak ]; then
	cat out/kmemleak
	fail "kmemleak reports leaks"
fi

# And no report, in the log or on the console.
grep -q 'KernelAddressSanitizer initialized' out/dmesg || fail "KASAN did not start"
sanitizer_reports out/dmesg > reports
sanitizer_reports out/console.log >> reports
if [ -s reports ]; then
	echo "the first report, and the 40 lines after it:"
	sanitizer_reports -m 1 -A 40 out/console.log ||
		sanitizer_reports -m 1 -A 40 out/dmesg
	fail "the kernel reported problems, $(wc -l < reports) lines:
$(cat reports)"
fi
echo "reports in the log: $(wc -l < reports)"

finish
