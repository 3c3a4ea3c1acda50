# SPDX-License-Identifier: GPL-2.0
"""drgn helpers for kernels built with the kallmodsyms tables: the
built-in module and object file of every address, in a crash dump (or any
program drgn opens on such a kernel).

As a script:

    drgn -c VMCORE -s VMLINUX kallmodsyms_drgn.py list [-m MOD] [-o OBJ] [PATTERN]
    drgn -c VMCORE -s VMLINUX kallmodsyms_drgn.py lookup ADDR...
    drgn -c VMCORE -s VMLINUX kallmodsyms_drgn.py bt [PID | --cpu N]

(before the command, "--vmcore VMCORE --vmlinux VMLINUX" when drgn has no
DWARF to load; --vmcore for bt of a task running on a CPU and bt --cpu).

In a drgn session (sys.path gaining this directory):

    >>> from kallmodsyms_drgn import modsym
    >>> for frame in prog.thread(2).stack_trace():
    ...     print(frame, modsym(prog, frame))

(for a task running on a CPU, prog.crashed_thread() among them, the
frames of thread_trace(prog, thread, Vmcore(path)): see thread_trace).

The tables are decoded from the note in the vmlinux file (--vmlinux, or
the file drgn loaded with -s), since a running kernel frees its note
after boot; the dump's linux_banner must be the file's.  The symbols come
from the kernel's kallsyms in the dump, found through vmlinux's symbols
and the dump's KASLR offset: listing and lookups need no DWARF.  drgn 0.0.22 loads no vmlinux without DWARF, so then the
symbols come from the file (--vmlinux) and the offset from the dump's
VMCOREINFO (--vmcore), whose build id must be the file's.  Stack traces
are drgn's own unwinding, which needs vmlinux's DWARF (the task
structures).  The decoder is python/kallmodsyms, shared with the gdb
helpers.
"""

import os
import sys

import drgn
from drgn.helpers.linux.sched import task_cpu

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))), "python"))

from kallmodsyms import image, kallsyms  # noqa: E402
from kallmodsyms.blob import KmsError  # noqa: E402
from kallmodsyms.elf import ElfFile  # noqa: E402
from kallmodsyms.vmcore import Vmcore  # noqa: E402

_cache = {}


class Kernel:
    """One drgn Program's kernel: the image.py reader interface.  The
    symbols are drgn's when it loaded vmlinux's DWARF, else those of
    @vmlinux (a path) moved by @vmcore's (a Vmcore) KASLR offset."""

    def __init__(self, prog, vmlinux=None, vmcore=None):
        self.prog = prog
        flags = prog.platform.flags
        self.pointer_size = 8 if flags & drgn.PlatformFlags.IS_64_BIT else 4
        self.byteorder = ("<" if flags & drgn.PlatformFlags.IS_LITTLE_ENDIAN
                          else ">")
        self.elf = None
        if self._drgn_symbol("_text") is None:
            if vmlinux is None or vmcore is None:
                raise KmsError("drgn has no vmlinux symbols (no DWARF "
                               "loaded): give --vmlinux VMLINUX --vmcore "
                               "VMCORE before the command")
            self.elf = ElfFile(vmlinux)
            vmcore.check_vmlinux(self.elf)
            self.offset = vmcore.kaslr_offset()
        # The note in the file: the kernel freed its own after boot.
        file = self.elf or ElfFile(_vmlinux_path(vmlinux))
        image.check_banner(self, file, "the kernel in the dump")
        self.tables = image.file_tables(file)
        self.symbols = kallsyms.read_symbols(self, self.pointer_size,
                                             self.byteorder)
        self.text = self.symbol("_text")
        self.percpu = image.percpu_start(self.symbols)

    def _drgn_symbol(self, name):
        try:
            return self.prog.symbol(name).address
        except LookupError:
            return None

    def symbol(self, name):
        if self.elf is None:
            return self._drgn_symbol(name)
        value = self.elf.symbol(name)
        return None if value is None else value + self.offset

    def read(self, addr, length):
        try:
            return self.prog.read(addr, length)
        except drgn.FaultError:
            raise KmsError("the dump has no bytes at %#x" % addr) from None

    def describe(self, addr, call=False):
        return image.describe(self.tables, self.symbols, self.text, addr,
                              self.percpu, call)


def _vmlinux_path(given):
    """The vmlinux file: @given (--vmlinux), else the file drgn loaded
    the symbols of (-s/--symbols on drgn's own command line: drgn 0.0.22
    does not say which file it loaded)."""
    if given is not None:
        return given
    try:
        with open("/proc/self/cmdline", "rb") as f:
            words = [w.decode(errors="replace")
                     for w in f.read().split(b"\0")]
    except OSError:
        words = []
    for i, word in enumerate(words):
        if word in ("-s", "--symbols") and i + 1 < len(words):
            return words[i + 1]
        if word.startswith("--symbols="):
            return word[len("--symbols="):]
    raise KmsError("the tables are read from the vmlinux file: give "
                   "--vmlinux VMLINUX before the command")


def kernel(prog, vmlinux=None, vmcore=None):
    """The Kernel of @prog, read once per program (see Kernel)."""
    if id(prog) not in _cache:
        _cache.clear()
        _cache[id(prog)] = (prog, Kernel(prog, vmlinux, vmcore))
    return _cache[id(prog)][1]


def _address(value):
    """(address, is a return address) of an int, a drgn Object (pointer,
    function, integer), a Symbol or a StackFrame."""
    if isinstance(value, drgn.StackFrame):
        return value.pc, not value.interrupted
    if isinstance(value, drgn.Symbol):
        return value.address, False
    if isinstance(value, drgn.Object):
        if value.type_.kind == drgn.TypeKind.FUNCTION:
            return value.address_, False
        return value.value_(), False
    return int(value), False


def modsym(prog, value):
    """ "sym+0xoff/0xsize [mod] {obj}" for an address, Object, Symbol or
    StackFrame (a return address is named by its call), None outside every
    core-kernel symbol."""
    addr, call = _address(value)
    return kernel(prog).describe(addr, call)


def listing(prog, pattern=None, module=None, objfile=None):
    """The /proc/kallmodsyms lines of the kernel in @prog, as a list."""
    k = kernel(prog)
    return list(image.listing(k.tables, k.symbols, k.text,
                              2 * k.pointer_size, pattern, module, objfile))


def _saved_regs(frame):
    """The struct pt_regs * an exception or interrupt handler's frame was
    given (its "regs" parameter, by DWARF), or None."""
    try:
        regs = frame["regs"]
    except (KeyError, LookupError, ValueError):
        return None
    kind = regs.type_.kind
    if kind != drgn.TypeKind.POINTER or regs.absent_ or \
            regs.type_.type.unqualified().type_name() != "struct pt_regs":
        return None
    return regs


def _frame_lines(k, trace, first):
    lines, regs = [], None
    for i, frame in enumerate(trace, first):
        addr, call = _address(frame)
        text = k.describe(addr, call)
        if frame.is_inline:
            note = text.split(" ", 1)[1] if text and " " in text else ""
            text = "%s (inlined)%s" % (frame.name, " " + note if note else "")
        elif text is None:
            text = "%#x" % addr
        lines.append("#%-2d %s" % (i, text))
        if regs is None:
            regs = _saved_regs(frame)
    return lines, regs


def annotated_trace(prog, trace):
    """drgn's StackTrace as lines "#N  sym+off/size [mod] {obj}"; inlined
    frames (DWARF's) by drgn's name, with the annotation of their code.
    drgn 0.0.22 unwinds with DWARF CFI, which the kernel's entry code has
    none of: where it stops at an exception's entry, the trace goes on from
    the registers the exception saved (the handler's pt_regs), as the
    kernel's own dump does."""
    k = kernel(prog)
    lines, regs = _frame_lines(k, trace, 0)
    if regs is not None and trace and \
            not trace[len(trace) - 1].interrupted:
        more, _ = _frame_lines(k, prog.stack_trace(regs), len(lines))
        lines += more
    return lines


def _thread(prog, pid):
    if pid is not None:
        return prog.thread(pid)
    try:
        return prog.crashed_thread()
    except Exception as e:  # drgn's errors for a dump without a panic
        raise KmsError("no crashed thread in the dump (%s): give a PID or "
                       "--cpu N" % e)


def cpu_trace(prog, vmcore, cpu, pid=None):
    """drgn's StackTrace of what CPU @cpu of @vmcore ran (task @pid, if
    known), from the registers the dump saved."""
    regs = vmcore.registers(cpu) if pid is None else \
        vmcore.task_registers(pid, cpu)
    fields = {f.name for f in prog.type("struct pt_regs").members}
    return prog.stack_trace(drgn.Object(
        prog, "struct pt_regs",
        value={k: v for k, v in regs.items() if k in fields}))


def _check_own_stack(prog, thread, trace):
    """KmsError unless @trace starts on @thread's own kernel stack: drgn
    0.0.22 gives a task whose pid is the number QEMU wrote in a CPU's
    PRSTATUS note (the CPU's plus one) that CPU's registers."""
    try:
        size = prog.type("union thread_union").size
    except LookupError:
        size = 16384
    base = thread.object.stack.value_()
    try:
        ok = trace and trace[0].pc and base <= trace[0].sp < base + size
    except ValueError:  # "program counter is not known"
        ok = False
    if not ok:
        raise KmsError("the registers drgn has for pid %d are not on its "
                       "stack (a QEMU dump numbers CPUs where kdump writes "
                       "pids): bt --cpu N --vmcore VMCORE" % thread.tid)


def thread_trace(prog, thread, vmcore=None):
    """drgn's StackTrace of @thread.  A task running on a CPU is unwound
    from that CPU's registers in @vmcore (a Vmcore): drgn 0.0.22 matches a
    dump's registers to tasks by pid, which QEMU's dumps do not hold, and
    otherwise unwinds a running task from where it last switched out."""
    task = thread.object
    if task.on_cpu.value_():
        cpu = task_cpu(task)
        if vmcore is None:
            raise KmsError("pid %d is running on CPU %d: --vmcore VMCORE "
                           "before the command, for that CPU's registers"
                           % (thread.tid, cpu))
        return cpu_trace(prog, vmcore, cpu, thread.tid)
    trace = thread.stack_trace()
    _check_own_stack(prog, thread, trace)
    return trace


USAGE = ("usage: kallmodsyms_drgn.py [--vmcore VMCORE] [--vmlinux VMLINUX] "
         "list [-m MOD] [-o OBJ] [PATTERN] | lookup ADDR... | "
         "bt [PID | --cpu N]")


def _options(argv):
    """({"--vmcore": ..., "--vmlinux": ...}, the rest)."""
    opts = {"--vmcore": None, "--vmlinux": None}
    while len(argv) > 1 and argv[0] in opts:
        opts[argv[0]], argv = argv[1], argv[2:]
    return opts, argv


def _list(prog, args):
    opts = {"-m": None, "-o": None}
    pattern = None
    while args:
        if args[0] in opts and len(args) > 1:
            opts[args[0]], args = args[1], args[2:]
        elif pattern is None and not args[0].startswith("-"):
            pattern, args = args[0], args[1:]
        else:
            sys.exit(USAGE)
    out = listing(prog, pattern, opts["-m"], opts["-o"])
    sys.stdout.write("".join(line + "\n" for line in out))


def _bt(prog, args, vmcore):
    if args[:1] == ["--cpu"] and len(args) == 2:
        if vmcore is None:
            raise KmsError("bt --cpu needs --vmcore VMCORE")
        trace = cpu_trace(prog, vmcore, int(args[1]))
    elif len(args) <= 1:
        thread = _thread(prog, int(args[0]) if args else None)
        trace = thread_trace(prog, thread, vmcore)
    else:
        sys.exit(USAGE)
    for line in annotated_trace(prog, trace):
        print(line)


def main(prog, argv):
    opts, argv = _options(argv)
    if not argv:
        sys.exit(USAGE)
    cmd, args = argv[0], argv[1:]
    try:
        vmcore = Vmcore(opts["--vmcore"]) if opts["--vmcore"] else None
        kernel(prog, opts["--vmlinux"], vmcore)
        if cmd == "list":
            _list(prog, args)
        elif cmd == "lookup" and args:
            for a in args:
                text = modsym(prog, int(a, 16))
                print(text if text is not None
                      else "%s: not in a core-kernel symbol" % a)
        elif cmd == "bt":
            _bt(prog, args, vmcore)
        else:
            sys.exit(USAGE)
    except (KmsError, ValueError, LookupError) as e:
        sys.exit("kallmodsyms_drgn.py: %s" % e)


if __name__ == "__main__" and "prog" in globals():
    main(globals()["prog"], sys.argv[1:])
