# SPDX-License-Identifier: GPL-2.0
"""One kernel image's tables and symbols, whoever reads its memory.

The debugger front ends (gdb-scripts/, drgn-scripts/) differ only in how
they read memory and find symbols; they hand this module a reader:

    reader.symbol(name)   the runtime address of a vmlinux symbol, or None
    reader.read(addr, n)  n bytes of the kernel's memory (KmsError if not)

and it finds the note in the kernel's .notes, judges it as the kernel
judged it at boot (blob.py), reads the kernel's kallsyms (kallsyms.py) and
names addresses as /proc/kallmodsyms and the inspector do.
"""

import fnmatch

from .blob import KmsError, Tables, decode, find_note
from .constants import (NOTES_START_SYMBOL, NOTES_STOP_SYMBOL,
                        TABLES_START_SYMBOL, TABLES_STOP_SYMBOL)


def file_tables(elf):
    """The tables of the note in the vmlinux file @elf (elf.ElfFile)."""
    desc = None
    for _addr, data in elf.note_sections():
        desc = find_note(data, elf.byteorder)
        if desc is not None:
            break
    if desc is None:
        raise KmsError("%s has no kallmodsyms note: built without "
                       "CONFIG_KALLMODSYMS?" % elf.path)
    try:
        return Tables(decode(desc))
    except KmsError as e:
        raise KmsError("%s: %s" % (elf.path, e)) from None


class NoNotesError(KmsError):
    """vmlinux's symbols do not say where the kernel's note lies."""


def notes_range(reader, path):
    """[start, stop) of the kernel's note section, by vmlinux's own symbols:
    its own section, or .notes where a kernel kept the note there
    (FORMAT.md 1)."""
    for first, last in ((TABLES_START_SYMBOL, TABLES_STOP_SYMBOL),
                        (NOTES_START_SYMBOL, NOTES_STOP_SYMBOL)):
        start = reader.symbol(first)
        stop = reader.symbol(last)
        if start is not None and stop is not None and stop >= start:
            return start, stop
    raise NoNotesError("%s has neither %s and %s nor %s and %s to find the "
                       "kernel's note" % (path, TABLES_START_SYMBOL,
                                          TABLES_STOP_SYMBOL,
                                          NOTES_START_SYMBOL,
                                          NOTES_STOP_SYMBOL))


def memory_tables(reader, byteorder, path, file_has_note=None):
    """The tables of the note in the kernel's memory, as the kernel reads
    them at boot (what it keeps is its own: FORMAT.md 5).  @file_has_note, if
    given, is called when memory holds no note, to tell "built without"
    from "not this kernel"."""
    start, stop = notes_range(reader, path)
    data = b""
    while len(data) < stop - start:
        data += reader.read(start + len(data), stop - start - len(data))
    desc = find_note(data, byteorder)
    if desc is None:
        if file_has_note is not None:
            file_has_note()
        raise KmsError("the kernel's notes at %#x hold no kallmodsyms "
                       "note, though %s has one: not the kernel of this "
                       "file?" % (start, path))
    try:
        return Tables(decode(desc))
    except KmsError as e:
        raise KmsError("the kernel's note at %#x: %s (the kernel "
                       "refused it too, and logged \"kallmodsyms: "
                       "disabled: ...\")" % (start, e)) from None


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
