# SPDX-License-Identifier: GPL-2.0
"""One kernel image's tables and symbols, whoever reads its memory.

The debugger front ends (gdb-scripts/, drgn-scripts/) differ only in how
they read memory and find symbols; they hand this module a reader:

    reader.symbol(name)   the runtime address of a vmlinux symbol, or None
    reader.read(addr, n)  n bytes of the kernel's memory (KmsError if not)

and it reads the kernel's kallsyms (kallsyms.py) and names addresses as
/proc/kallmodsyms and the inspector do.  The tables come from the note in
the vmlinux file (file_tables), judged as the kernel judged it at boot
(blob.py): a running kernel frees its note after boot (FORMAT.md 5), so
its memory is read for kallsyms and the KASLR shift only, once
check_banner() has said the kernel is the file's.
"""

import fnmatch

from .blob import KmsError, find_note, load

# At most this many bytes of linux_banner are compared, up to its NUL: the
# release, the builder, the compiler, the build's number and time, which
# tell two builds of one tree apart.
BANNER_MAX = 512


class NoNoteError(KmsError):
    """The vmlinux file has no kallmodsyms note."""


def file_tables(elf):
    """The tables of the note in the vmlinux file @elf (elf.ElfFile), its
    paths images included (blob.load)."""
    desc = None
    for _addr, data in elf.note_sections():
        desc = find_note(data, elf.byteorder)
        if desc is not None:
            break
    if desc is None:
        raise NoNoteError("%s has no kallmodsyms note: built without "
                       "CONFIG_KALLMODSYMS?" % elf.path)
    try:
        return load(desc)
    except KmsError as e:
        raise KmsError("%s: %s" % (elf.path, e)) from None


def check_banner(reader, elf, where="the kernel"):
    """Refuse unless @reader's kernel is the one of @elf (elf.ElfFile): its
    linux_banner, at the file's symbol moved as @reader moves symbols,
    holds the file's bytes.  The tables come from the file (the running
    kernel freed its note after boot: FORMAT.md 5), so they describe the
    kernel read only if it is the file's."""
    link = elf.symbol("linux_banner")
    runtime = reader.symbol("linux_banner")
    want = link is not None and elf.read(link, BANNER_MAX, partial=True)
    if not want or runtime is None:
        raise KmsError("%s: no linux_banner; is it a vmlinux?" % elf.path)
    want = want.split(b"\0")[0] + b"\0"
    try:
        got = reader.read(runtime, len(want))
    except KmsError:
        got = None
    if got != want:
        raise KmsError("%s is not the kernel of %s (its linux_banner "
                       "differs)" % (where, elf.path))


def percpu_start(symbols):
    """__per_cpu_start, the per-CPU class's base, or None: through the
    table's name index, built once, not a walk per address described."""
    found = symbols.named("__per_cpu_start")
    return symbols.addresses[found[0]] if found else None


def describe(tables, symbols, text, addr, percpu=None, call=False):
    """ "sym+0xoff/0xsize [mod] {obj}" for @addr, or None outside every
    symbol.  @text: the runtime _text; @percpu: percpu_start(symbols).
    @call: @addr is a return address, named by the call before it, as the
    kernel's %pB does (a call that ends a function returns past its end)."""
    where = addr - 1 if call else addr
    found = symbols.at(where)
    if found is None:
        return None
    index, size = found
    start = symbols.addresses[index]
    out = "%s+%#x/%#x" % (symbols.names[index], addr - start, size)
    obj = tables.symbol_object(where, symbols.types[index], text, percpu)
    annotation = tables.annotation(obj)
    return out + " " + annotation if annotation else out


def listing(tables, symbols, text, width, pattern=None, module=None,
            objfile=None):
    """The /proc/kallmodsyms lines (without newlines) of the symbols whose
    name is @pattern (a name or an fnmatch glob), in built-in module
    @module, printed with {@objfile}; None matches all.  @width: hex
    digits of an address."""
    is_glob = pattern is not None and any(c in pattern for c in "*?[")
    percpu = percpu_start(symbols)
    for addr, type_, name in zip(symbols.addresses, symbols.types,
                                 symbols.names):
        if pattern is not None and not (
                fnmatch.fnmatchcase(name, pattern) if is_glob
                else name == pattern):
            continue
        obj = tables.symbol_object(addr, type_, text, percpu)
        if module is not None and module not in tables.modules(obj):
            continue
        if objfile is not None and tables.objfile(obj) != objfile:
            continue
        annotation = tables.annotation(obj)
        yield "%0*x %s %s%s" % (width, addr, type_, name,
                                "\t" + annotation if annotation else "")
