# SPDX-License-Identifier: GPL-2.0
"""The kernel gdb is looking at: a stopped kernel behind a gdbstub, or the
vmlinux file alone (--file without a target).

Everything is located through the vmlinux file's own symbols plus one
offset, the KASLR shift, which is found by looking for the file's
linux_banner in the target's memory; gdb's symbol values are not used, so
the helpers work whether or not the user relocated them.
"""

import os
import struct

import gdb

from kallmodsyms import image, kallsyms
from kallmodsyms.blob import KmsError
from kallmodsyms.elf import EM_AARCH64, ElfFile

# x86-64 moves the kernel by multiples of CONFIG_PHYSICAL_ALIGN (at least
# 2 MiB) within KERNEL_IMAGE_SIZE (1 GiB).  arm64 moves it by multiples of
# 2 MiB (MIN_KIMG_ALIGN) too, but over far more of the address space than
# can be searched: there the vector base register says where the kernel's
# vectors are.
KASLR_ALIGN = 2 << 20
KASLR_RANGE = 1 << 30
SIGNATURE_LEN = 64

_elf_cache = {}
_offset_cache = {}
_tables_cache = {}
_symbols_cache = {}


def _vmlinux():
    path = gdb.current_progspace().filename
    if not path:
        raise KmsError("no vmlinux loaded (file vmlinux)")
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    elf = _elf_cache.get(key)
    if elf is None:
        _elf_cache.clear()
        elf = _elf_cache[key] = ElfFile(path)
    return elf


def attached():
    return gdb.selected_inferior().pid != 0


class Kernel:
    """Memory, symbols and tables of one kernel.

    offset: runtime address minus link-time address of the image (the
    KASLR shift); 0 when reading the file alone.
    """

    def __init__(self, use_file=False):
        self.elf = _vmlinux()
        self.live = attached()
        self.use_file = use_file
        if not self.live and not use_file:
            raise KmsError("no kernel attached (target remote HOST:PORT); "
                           "--file reads the vmlinux file alone")
        self.pointer_size = self.elf.pointer_size
        self.byteorder = self.elf.byteorder
        self.offset = self._find_offset() if self.live else 0
        self._symbol_cache = {}

    # The reader interface of kallsyms.read_symbols().
    def symbol(self, name):
        if name not in self._symbol_cache:
            self._symbol_cache[name] = self.elf.symbol(name)
        value = self._symbol_cache[name]
        return None if value is None else value + self.offset

    def relative_reloc(self, addr):
        """The file's relocation of the pointer at runtime address @addr;
        None when reading a live kernel, which relocated itself."""
        if self.live:
            return None
        return self.elf.relative_reloc(addr - self.offset)

    def read(self, addr, length):
        if not self.live:
            data = self.elf.read(addr, length, partial=True)
            if data is None:
                raise KmsError("%s: no bytes at %#x" % (self.elf.path, addr))
            return data
        try:
            return bytes(gdb.selected_inferior().read_memory(addr, length))
        except gdb.MemoryError:
            if length > 4096:
                # A chunked read crossed the end of a mapping.
                return self.read(addr, 4096)
            raise KmsError("cannot read the kernel's memory at %#x" % addr) \
                from None

    def _matches(self, banner, signature, offset):
        try:
            got = gdb.selected_inferior().read_memory(banner + offset,
                                                      len(signature))
        except gdb.MemoryError:
            return False
        return bytes(got) == signature

    def _find_offset(self):
        banner = self.elf.symbol("linux_banner")
        signature = banner is not None and self.elf.read(banner, SIGNATURE_LEN)
        if not signature:
            raise KmsError("%s: no linux_banner; is it a vmlinux?"
                           % self.elf.path)
        key = (gdb.selected_inferior().num, self.elf.path)
        candidates = []
        if key in _offset_cache:
            candidates.append(_offset_cache[key])
        candidates.append(0)
        # Where the CPU stopped is usually kernel text: try the shifts
        # that put it inside the image first.
        text = self.elf.symbol("_text")
        end = self.elf.symbol("_end")
        try:
            pc = int(gdb.selected_frame().pc())
        except gdb.error:
            pc = None
        candidates += self._vector_base_shift()
        if pc is not None and text is not None and end is not None:
            top = (pc - text) & ~(KASLR_ALIGN - 1)
            size = end - text + KASLR_ALIGN
            candidates += [top - k * KASLR_ALIGN
                           for k in range(size // KASLR_ALIGN + 1)]
        candidates += range(0, KASLR_RANGE, KASLR_ALIGN)
        tried = set()
        for c in candidates:
            if c in tried or c < 0:
                continue
            tried.add(c)
            if self._matches(banner, signature, c):
                _offset_cache[key] = c
                return c
        raise KmsError("the kernel in the target is not %s (its linux_banner "
                       "is nowhere in the kernel's address range)"
                       % self.elf.path)

    def _vector_base_shift(self):
        """arm64: VBAR_EL1 (QEMU's gdbstub shows the system registers)
        minus the link-time address of the kernel's vectors."""
        vectors = self.elf.symbol("vectors")
        if self.elf.machine != EM_AARCH64 or vectors is None:
            return []
        try:
            vbar = int(gdb.parse_and_eval("$VBAR_EL1")) & ((1 << 64) - 1)
        except gdb.error:
            return []
        return [vbar - vectors]

    def text(self):
        t = self.symbol("_text")
        if t is None:
            raise KmsError("%s: no symbol _text" % self.elf.path)
        return t

    def file_tables(self):
        """The tables of the note in the vmlinux file."""
        st = os.stat(self.elf.path)
        key = ("file", self.elf.path, st.st_mtime_ns)
        if key not in _tables_cache:
            _tables_cache[key] = image.file_tables(self.elf)
        return _tables_cache[key]

    def tables(self):
        """The tables the kernel uses, and a notice to print, or None.

        They are decoded from the note in the vmlinux file, judged as the
        kernel judged it at boot: a running kernel frees its note after
        boot and keeps the tables in a form of its own (FORMAT.md 5).  The
        kernel is the file's: its KASLR shift was found by the file's
        linux_banner in its memory.
        """
        try:
            return self.file_tables(), None
        except image.NoNoteError:
            raise
        except KmsError as e:
            if self.use_file or not self.live:
                raise
            raise KmsError("%s (the kernel refused it too, and logged "
                           "\"kallmodsyms: disabled: ...\")" % e) from None

    def modules_loaded(self):
        """Whether the kernel's list of loadable modules is not empty."""
        head = self.symbol("modules") if self.live else None
        if head is None:
            return False
        fmt = self.byteorder + ("Q" if self.pointer_size == 8 else "I")
        first, = struct.unpack(fmt, self.read(head, self.pointer_size))
        return first != head

    def symbols(self):
        """The kernel's kallsyms (cached per file and offset)."""
        st = os.stat(self.elf.path)
        key = (self.elf.path, st.st_mtime_ns, self.live, self.offset)
        if key not in _symbols_cache:
            _symbols_cache.clear()
            _symbols_cache[key] = kallsyms.read_symbols(
                self, self.pointer_size, self.byteorder)
        return _symbols_cache[key]
