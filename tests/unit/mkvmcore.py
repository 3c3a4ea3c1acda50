#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a synthetic x86_64 crash dump as QEMU's dump-guest-memory writes
one without paging: an ELF64 core whose PT_NOTE holds an NT_PRSTATUS and a
"QEMU" note per CPU, then the VMCOREINFO note, and whose PT_LOAD segments
are physical memory (p_vaddr 0), with page tables that map what the spec
asks for.

usage: mkvmcore.py OUT < SPEC

SPEC, one directive a line (numbers in hex, "#" starts a comment):
  info KEY=VALUE       a VMCOREINFO line (no info lines: no VMCOREINFO
                       note); SYMBOL(init_top_pgt) and NUMBER(phys_base)
                       are added; NUMBER(pgtable_l5_enabled)=1, before
                       any map, makes the page tables 5-level
  cpu PC SP            the next CPU's registers
  map VA LEN 4k|2m|1g  map [VA, VA+LEN) with pages of that size; the dump
                       holds its 4 KiB pages (zeros)
  word VA VALUE        the 64-bit word at VA, mapped
  hole VA              leave the 4 KiB page of VA out of the dump
  machine aarch64      an arm64 dump (its registers; no page tables)
  kdump                a kdump-compressed dump instead: its headers and
                       VMCOREINFO, no pages
"""
import struct
import sys

START_KERNEL_MAP = 0xffffffff80000000
PHYS_BASE = 0x1000000
INIT_TOP_PGT = 0xffffffff82a00000
PAGE = 4096
SIZES = {'4k': (PAGE, 12), '2m': (2 << 20, 21), '1g': (1 << 30, 30)}
PRESENT_RW = 0x3
HUGE = 0x80


class Memory:
    """Physical pages, the page tables, and where each mapping went."""

    def __init__(self):
        self.pages = {}
        self.levels = (39, 30, 21, 12)
        self.root = INIT_TOP_PGT - START_KERNEL_MAP + PHYS_BASE
        self.next_table = self.root
        self.next_data = {12: 0x10000000, 21: 0x40000000, 30: 1 << 32}
        self.table(self.root)

    def page(self, pa):
        return self.pages.setdefault(pa & ~(PAGE - 1), bytearray(PAGE))

    def table(self, pa):
        self.page(pa)
        self.next_table = max(self.next_table, pa + PAGE)
        return pa

    def entry(self, pa):
        return struct.unpack_from('<Q', self.page(pa), pa % PAGE)[0]

    def set_entry(self, pa, value):
        struct.pack_into('<Q', self.page(pa), pa % PAGE, value)

    def map(self, va, shift):
        """Map the page of 1 << @shift bytes holding @va."""
        table = self.root
        for level in self.levels:
            slot = table + ((va >> level) & 511) * 8
            if level == shift:
                if not self.entry(slot):
                    pa = self.next_data[shift]
                    self.next_data[shift] += 1 << shift
                    flags = PRESENT_RW | (HUGE if shift > 12 else 0)
                    self.set_entry(slot, pa | flags)
                return
            if not self.entry(slot):
                self.set_entry(slot, self.table(self.next_table) |
                               PRESENT_RW)
            table = self.entry(slot) & 0x000ffffffffff000

    def translate(self, va):
        table = self.root
        for level in self.levels:
            e = self.entry(table + ((va >> level) & 511) * 8)
            if not e & 1:
                sys.exit(f'mkvmcore.py: {va:x} is not mapped')
            base = e & 0x000ffffffffff000
            if level == 12 or e & HUGE:
                mask = (1 << level) - 1
                return (base & ~mask) | (va & mask)
            table = base


def note(name, type_, desc):
    name = name.encode() + b'\0'
    pad = lambda b: b + b'\0' * (-len(b) % 4)
    return struct.pack('<III', len(name), len(desc), type_) + \
        pad(name) + pad(desc)


# e_machine, then pr_reg's size and where the pc and the sp are in it
MACHINES = {'x86_64': (62, 27, 16, 19), 'aarch64': (183, 34, 32, 31)}


def prstatus(machine, pc, sp):
    _, nr, pc_word, sp_word = MACHINES[machine]
    regs = [0] * nr
    regs[pc_word], regs[sp_word] = pc, sp
    return bytes(112) + struct.pack(f'<{nr}Q', *regs) + bytes(8)


def read_spec(mem, lines):
    info, cpus, holes = [], [], []
    mem.machine, mem.kdump = 'x86_64', False
    for line in lines:
        words = line.split('#')[0].split()
        if not words:
            continue
        op, args = words[0], words[1:]
        if op == 'info':
            info.append(args[0])
            if args[0] == 'NUMBER(pgtable_l5_enabled)=1':
                mem.levels = (48,) + mem.levels
        elif op == 'cpu':
            cpus.append(prstatus(mem.machine, int(args[0], 16),
                                 int(args[1], 16)))
        elif op == 'machine':
            mem.machine = args[0]
        elif op == 'kdump':
            mem.kdump = True
        elif op == 'map':
            va, length = int(args[0], 16), int(args[1], 16)
            size, shift = SIZES[args[2]]
            for a in range(va & ~(PAGE - 1), va + length, PAGE):
                mem.map(a, shift)
                mem.page(mem.translate(a))
        elif op == 'word':
            pa = mem.translate(int(args[0], 16))
            struct.pack_into('<Q', mem.page(pa), pa % PAGE,
                             int(args[1], 16))
        elif op == 'hole':
            holes.append(mem.translate(int(args[0], 16)) & ~(PAGE - 1))
        else:
            sys.exit(f'mkvmcore.py: unknown directive {op}')
    for pa in holes:
        del mem.pages[pa]
    return info, cpus


def notes(info, cpus):
    out = b''
    for regs in cpus:
        out += note('CORE', 1, regs) + note('QEMU', 0, bytes(16))
    if info:
        info += [f'SYMBOL(init_top_pgt)={INIT_TOP_PGT:x}',
                 f'NUMBER(phys_base)={PHYS_BASE}']
        out += note('VMCOREINFO', 0, ''.join(i + '\n' for i in info).encode())
    return out


def runs(pages):
    """The physical pages as (address, bytes) runs of contiguous pages."""
    out = []
    for pa in sorted(pages):
        if out and out[-1][0] + len(out[-1][1]) == pa:
            out[-1][1].extend(pages[pa])
        else:
            out.append((pa, bytearray(pages[pa])))
    return out


def write(path, machine, note_bytes, loads):
    phnum = 1 + len(loads)
    offset = 64 + 56 * phnum
    ehdr = struct.pack('<16sHHIQQQIHHHHHH',
                       b'\x7fELF\x02\x01\x01' + bytes(9), 4,
                       MACHINES[machine][0], 1, 0, 64, 0, 0, 64, 56, phnum,
                       64, 0, 0)
    phdrs = struct.pack('<IIQQQQQQ', 4, 0, offset, 0, 0, len(note_bytes),
                        len(note_bytes), 0)
    body = note_bytes
    offset += len(note_bytes)
    for pa, data in loads:
        phdrs += struct.pack('<IIQQQQQQ', 1, 7, offset, 0, pa, len(data),
                             len(data), 0)
        body += data
        offset += len(data)
    with open(path, 'wb') as f:
        f.write(ehdr + phdrs + body)


def write_kdump(path, note_bytes):
    """makedumpfile's disk_dump_header, header_version 6, and its
    kdump_sub_header in the next 4 KiB block, then the notes."""
    block = 4096
    vmcoreinfo = note_bytes.rfind(b'VMCOREINFO\0')
    header = b'KDUMP   ' + struct.pack('<i', 6) + bytes(412) + \
        struct.pack('<II', 0, block)
    sub = struct.pack('<QiiQQQQQQ', PHYS_BASE, 1, 0, 0, 0,
                      2 * block + vmcoreinfo + 12,
                      struct.unpack_from('<I', note_bytes,
                                         vmcoreinfo - 8)[0] if vmcoreinfo >= 0
                      else 0, 2 * block, len(note_bytes))
    with open(path, 'wb') as f:
        f.write(header.ljust(block, b'\0') + sub.ljust(block, b'\0') +
                note_bytes)


def main():
    mem = Memory()
    info, cpus = read_spec(mem, sys.stdin)
    if mem.kdump:
        write_kdump(sys.argv[1], notes(info, cpus))
    else:
        write(sys.argv[1], mem.machine, notes(info, cpus), runs(mem.pages))


main()
