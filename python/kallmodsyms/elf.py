# SPDX-License-Identifier: GPL-2.0
"""Just enough ELF to read a vmlinux file: its notes, a few symbols, and
the bytes at a link-time address.  Any inconsistency is a KmsError naming
the file."""

import struct

from .blob import KmsError

SHT_SYMTAB = 2
SHT_RELA = 4
SHT_NOTE = 7
SHT_NOBITS = 8
SHF_ALLOC = 0x2
EM_AARCH64 = 183
# Per machine, the R_*_RELATIVE relocation a RELOCATABLE image applies to
# itself at boot, its pointers zero in the file (kms_arch in the C tools).
RELATIVE_RELOCS = {EM_AARCH64: 1027}


NT_GNU_BUILD_ID = 3


def iter_notes(data, byteorder):
    """(name without its NUL, type, descriptor) of each note in @data;
    stops at the first that does not fit."""
    pos = 0
    while pos + 12 <= len(data):
        namesz, descsz, ntype = struct.unpack_from(byteorder + "III", data,
                                                   pos)
        name_end = pos + 12 + namesz
        desc = name_end + (-namesz % 4)
        if desc + descsz > len(data):
            return
        yield data[pos + 12:name_end].rstrip(b"\0"), ntype, \
            data[desc:desc + descsz]
        pos = desc + descsz + (-descsz % 4)


class ElfFile:
    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.data = f.read()
        except OSError as e:
            raise KmsError("%s: %s" % (path, e.strerror)) from None
        d = self.data
        if len(d) < 52 or d[:4] != b"\x7fELF" or d[4] not in (1, 2) \
                or d[5] not in (1, 2):
            raise KmsError("%s: not an ELF file" % path)
        self.is64 = d[4] == 2
        self.byteorder = "<" if d[5] == 1 else ">"
        self.pointer_size = 8 if self.is64 else 4
        bo = self.byteorder
        self.machine, = struct.unpack_from(bo + "H", d, 18)
        try:
            if self.is64:
                shoff, = struct.unpack_from(bo + "Q", d, 0x28)
                shentsize, shnum, shstrndx = struct.unpack_from(bo + "HHH", d,
                                                                0x3A)
                fmt = bo + "IIQQQQIIQQ"
            else:
                shoff, = struct.unpack_from(bo + "I", d, 0x20)
                shentsize, shnum, shstrndx = struct.unpack_from(bo + "HHH", d,
                                                                0x2E)
                fmt = bo + "IIIIIIIIII"
            if shentsize != struct.calcsize(fmt) or not shnum or \
                    shstrndx >= shnum:
                raise KmsError("%s: bad section header table" % path)
            raw = [struct.unpack_from(fmt, d, shoff + i * shentsize)
                   for i in range(shnum)]
        except struct.error:
            raise KmsError("%s: truncated ELF file" % path) from None
        self.sections = []
        for (name, stype, flags, addr, off, size, link, _info, _align,
             entsize) in raw:
            if stype != SHT_NOBITS and off + size > len(d):
                raise KmsError("%s: truncated ELF file" % path)
            self.sections.append({"name_off": name, "type": stype,
                                  "flags": flags, "addr": addr,
                                  "offset": off, "size": size,
                                  "link": link, "entsize": entsize})
        shstr = self.sections[shstrndx]
        for s in self.sections:
            start = shstr["offset"] + s["name_off"]
            end = d.find(b"\0", start, shstr["offset"] + shstr["size"])
            s["name"] = d[start:end].decode("latin-1") if end >= 0 else ""
        self._symbols = None

    def section_bytes(self, s):
        return self.data[s["offset"]:s["offset"] + s["size"]]

    def note_sections(self):
        """(link-time address or None, bytes) of each note section."""
        return [(s["addr"] if s["flags"] & SHF_ALLOC else None,
                 self.section_bytes(s))
                for s in self.sections if s["type"] == SHT_NOTE]

    def build_id(self):
        """The GNU build id (NT_GNU_BUILD_ID) as hex, or None."""
        for _addr, data in self.note_sections():
            for name, ntype, desc in iter_notes(data, self.byteorder):
                if name == b"GNU" and ntype == NT_GNU_BUILD_ID:
                    return desc.hex()
        return None

    def read(self, addr, length, partial=False):
        """Bytes of the loaded image at link-time @addr, or None; with
        @partial, as many as the section holds (at least one)."""
        for s in self.sections:
            end = s["addr"] + s["size"]
            if (s["flags"] & SHF_ALLOC and s["type"] != SHT_NOBITS and
                    s["addr"] <= addr < end and
                    (partial or addr + length <= end)):
                off = s["offset"] + addr - s["addr"]
                return self.data[off:off + min(length, end - addr)]
        return None

    def relative_reloc(self, addr):
        """The addend of the RELATIVE relocation of the pointer at @addr in
        .rela.dyn, or None: a RELOCATABLE arm64 image holds zero there and
        relocates itself at boot."""
        rtype = RELATIVE_RELOCS.get(self.machine)
        if rtype is None or not self.is64:
            return None
        for s in self.sections:
            if s["type"] != SHT_RELA or s["entsize"] != 24:
                continue
            for off, info, addend in struct.iter_unpack(
                    self.byteorder + "QQq", self.section_bytes(s)[
                        :s["size"] - s["size"] % 24]):
                if off == addr and info & 0xffffffff == rtype:
                    return addend & ((1 << 64) - 1)
        return None

    def symbol(self, name):
        """Link-time value of the first symbol called @name, or None."""
        bo = self.byteorder
        want = name.encode()
        for s in self.sections:
            if s["type"] != SHT_SYMTAB or s["link"] >= len(self.sections):
                continue
            strtab = self.section_bytes(self.sections[s["link"]])
            # Any occurrence: the linker may share a name with a tail.
            offsets = set()
            pos = strtab.find(want + b"\0")
            while pos >= 0:
                offsets.add(pos)
                pos = strtab.find(want + b"\0", pos + 1)
            if not offsets:
                continue
            fmt = bo + ("IBBHQQ" if self.is64 else "IIIBBH")
            for ent in struct.iter_unpack(fmt, self.section_bytes(s)[
                    :s["size"] - s["size"] % struct.calcsize(fmt)]):
                if ent[0] in offsets:
                    return ent[4] if self.is64 else ent[1]
        return None
