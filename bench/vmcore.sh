#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Post-mortem costs, on a QEMU dump of the small kernel with DWARF
# (small-dwarf) that panicked after the samples' WARN (panic_on_warn):
#  - annotating every frame of every task's stack in the dump
#    (drgn-scripts/' modsym()) vs drgn's own symbolization of the same
#    frames (StackFrame.symbol()), in one drgn process, both warm; and the
#    one-time read of the tables and kallsyms from the dump vs drgn's
#    unwinding of all those stacks;
#  - `kallmodsyms decode` of the panic's log vs the kernel's own
#    scripts/decode_stacktrace.sh on the same log and vmlinux: the time,
#    and how many trace lines both give the same file:line.
#
# usage: bench/vmcore.sh
# Environment: RUNS (default 5)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
runs=${RUNS:-5}

command -v drgn > /dev/null || { note "no drgn (python3-drgn)"; exit 1; }
make -s build/kallmodsyms python/kallmodsyms/constants.py
kbuild=$(tests/kernel/build.sh small-dwarf)
vmlinux=$kbuild/vmlinux
bench_qemu_setup
qemu_mem=256M

echo 'echo "@@@ not reached"' > "$tmp/guest.sh"
make_initramfs "$tmp/initrd.gz" "$tmp/guest.sh"
note "booting small-dwarf to its panic, dumping it"
panic_dumps "$tmp/panic" "$tmp/initrd.gz" paging
# drgn 0.0.22 does not know Linux 6.4's ORC entries: it unwinds with the
# DWARF's CFI when vmlinux has no .orc_* (tests/kernel/run-vmcore.sh).
objcopy --remove-section='.orc_*' "$vmlinux" "$tmp/vmlinux.noorc"

cat > "$tmp/frames.py" <<'EOF'
import statistics
import sys
import time

from drgn.helpers.linux.pid import for_each_task

sys.path.insert(0, sys.argv[1])
from kallmodsyms_drgn import kernel, modsym  # noqa: E402

runs = int(sys.argv[2])
t = time.perf_counter()
frames = []
# (not prog.threads(): drgn 0.0.22 walks thread_group, gone in Linux 6.7)
for task in for_each_task(prog):  # noqa: F821 (drgn's)
    try:
        frames.extend(prog.stack_trace(task))  # noqa: F821
    except Exception:  # a task drgn cannot unwind
        pass
unwind = time.perf_counter() - t
t = time.perf_counter()
kernel(prog)  # noqa: F821
load = time.perf_counter() - t


def timed(fn):
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        for f in frames:
            fn(f)
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def drgn_symbol(f):
    try:
        f.symbol()
    except LookupError:
        pass


named = sum(1 for f in frames if modsym(prog, f) is not None)  # noqa: F821
print(len(frames), named, "%.6f" % timed(lambda f: modsym(prog, f)),  # noqa: F821
      "%.6f" % timed(drgn_symbol), "%.6f" % load, "%.6f" % unwind)
EOF
read -r nframes named ours peer load unwind < <(
	drgn -q -c "$tmp/panic/panic.paging" -s "$tmp/vmlinux.noorc" \
		"$tmp/frames.py" "$bench_top/drgn-scripts" "$runs")
note "$nframes frames of every task's stack, $named of them in a core-kernel symbol"

# decode_stacktrace.sh: the kernel's own, from the build's source tree.
src=$(readlink -f "$kbuild/source" 2> /dev/null || readlink -f "$kbuild/../src")
log=$tmp/panic/console.log
dst() { bash "$src/scripts/decode_stacktrace.sh" "$vmlinux" "$src" < "$log"; }
kdecode() { build/kallmodsyms decode "$vmlinux" < "$log"; }
t_ours=() t_peer=()
for ((i = 0; i < runs; i++)); do
	t_ours+=("$(seconds kdecode)")
	[ "$i" -lt 2 ] && t_peer+=("$(seconds dst)")
done
# The same answers: the file:line of each trace line, in order, both ways
# (decode_stacktrace.sh prints paths relative to the tree and the inlined
# callers after; decode prints DWARF's absolute path of the innermost).
dst 2> /dev/null | tr -d '\r' |
	sed -nE 's/^ *(\? )?[A-Za-z_][A-Za-z0-9_.]* \(([^ :)]+:[0-9]+).*/\2/p' > "$tmp/dst.lines"
kdecode | tr -d '\r' |
	sed -nE "s#^ *(\\? )?[A-Za-z_][A-Za-z0-9_.]*\\+0x[0-9a-f]+/0x[0-9a-f]+.* ${src}/([^ ]+:[0-9]+)\$#\\2#p" > "$tmp/ours.lines"
same=$(paste -d' ' "$tmp/dst.lines" "$tmp/ours.lines" | gawk '$1 == $2' | wc -l)
note "decode: $(wc -l < "$tmp/ours.lines") trace lines with file:line, decode_stacktrace.sh $(wc -l < "$tmp/dst.lines"), $same the same in order"

echo "post-mortem: a panic dump of small-dwarf, $nframes frames of every task"
row_header "vs drgn 0.0.22 and the kernel's decode_stacktrace.sh"
row "annotate each frame vs drgn's StackFrame.symbol()" \
	"$ours" "$peer" s
row "read tables+kallsyms from dump vs drgn's unwinding" \
	"$load" "$unwind" s
row "decode the panic log vs decode_stacktrace.sh" \
	"$(median "${t_ours[@]}")" "$(median "${t_peer[@]}")" s 0.01
