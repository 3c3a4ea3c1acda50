# SPDX-License-Identifier: GPL-2.0
"""ELF crash dumps (kdump's /proc/vmcore, QEMU's dump-guest-memory): what
a dump says of the kernel in it, from its notes alone -- VMCOREINFO (the
KASLR offset, the build id) and each CPU's registers (NT_PRSTATUS).  The
memory itself is the debugger's business.  Any problem is a KmsError
naming the file."""

import os
import struct

from .blob import KmsError
from .elf import iter_notes

ET_CORE = 4
PT_LOAD = 1
PT_NOTE = 4
NT_PRSTATUS = 1
EM_X86_64 = 62
EM_AARCH64 = 183
# struct elf_prstatus: pr_reg's offset, and where pc and sp are in it
# (x86-64: struct user_regs_struct; arm64: struct user_pt_regs).
PRSTATUS_REGS = {EM_X86_64: (112, 16, 19), EM_AARCH64: (112, 32, 31)}
PRSTATUS_PID = 32
X86_64_REGS = ("r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9",
               "r8", "ax", "cx", "dx", "si", "di", "orig_ax", "ip", "cs",
               "flags", "sp", "ss")


class Vmcore:
    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                head = f.read(64)
                if len(head) < 64 or head[:4] != b"\x7fELF" or \
                        head[4] != 2 or head[5] != 1:
                    raise KmsError("%s: not an ELF core dump (64-bit, "
                                   "little-endian)" % path)
                etype, self.machine = struct.unpack_from("<HH", head, 16)
                if etype != ET_CORE:
                    raise KmsError("%s: not an ELF core dump" % path)
                phoff, = struct.unpack_from("<Q", head, 32)
                phentsize, phnum = struct.unpack_from("<HH", head, 54)
                f.seek(phoff)
                phdrs = f.read(phentsize * phnum)
                if len(phdrs) < phentsize * phnum or phentsize < 56:
                    raise KmsError("%s: truncated: no program headers"
                                   % path)
                notes = b""
                for i in range(phnum):
                    ptype, _flags, off, _vaddr, _paddr, filesz = \
                        struct.unpack_from("<IIQQQQ", phdrs, i * phentsize)
                    if ptype in (PT_LOAD, PT_NOTE) and off + filesz > size:
                        raise KmsError(
                            "%s: truncated: segment %u ends at byte %u, the "
                            "file has %u" % (path, i, off + filesz, size))
                    if ptype == PT_NOTE:
                        f.seek(off)
                        notes += f.read(filesz)
        except OSError as e:
            raise KmsError("%s: %s" % (path, e.strerror)) from None
        self.info, self.prstatus, self.qemu = None, [], False
        for name, ntype, desc in iter_notes(notes, "<"):
            if name == b"QEMU":
                self.qemu = True
            elif name == b"VMCOREINFO":
                self.info = dict(line.split("=", 1) for line in
                                 desc.decode("latin-1").splitlines()
                                 if "=" in line)
            elif name == b"CORE" and ntype == NT_PRSTATUS:
                self.prstatus.append(desc)
        if self.info is None:
            raise KmsError("%s: no VMCOREINFO note: not a kernel dump, or "
                           "QEMU ran without -device vmcoreinfo" % path)

    def kaslr_offset(self):
        """KERNELOFFSET: 0 when the kernel has no KASLR."""
        return int(self.info.get("KERNELOFFSET", "0"), 16)

    def check_vmlinux(self, elf):
        """KmsError unless @elf (elf.ElfFile) is the dumped kernel."""
        ours, theirs = self.info.get("BUILD-ID"), elf.build_id()
        if ours and theirs and ours != theirs:
            raise KmsError("%s: a dump of another kernel: its build id is "
                           "%s, %s's is %s" % (self.path, ours, elf.path,
                                               theirs))

    def registers(self, cpu):
        """CPU @cpu's registers by name (x86-64), as the dump saved them:
        the PRSTATUS notes are the CPUs in order."""
        if self.machine != EM_X86_64:
            raise KmsError("%s: registers of machine %u are not known here"
                           % (self.path, self.machine))
        if not 0 <= cpu < len(self.prstatus):
            raise KmsError("%s: no CPU %d (the dump has %u)"
                           % (self.path, cpu, len(self.prstatus)))
        off = PRSTATUS_REGS[EM_X86_64][0]
        values = struct.unpack_from("<%uQ" % len(X86_64_REGS),
                                    self.prstatus[cpu], off)
        return dict(zip(X86_64_REGS, values))

    def task_registers(self, pid, cpu):
        """The registers of task @pid, running on CPU @cpu: kdump writes
        the running task's pid in its CPU's note (pr_pid, after
        pr_info, pr_cursig and two signal masks); QEMU writes the CPU's
        number plus one there, and a note of its own beside each."""
        if not self.qemu:
            for i, desc in enumerate(self.prstatus):
                if struct.unpack_from("<i", desc, PRSTATUS_PID)[0] == pid:
                    return self.registers(i)
        return self.registers(cpu)
