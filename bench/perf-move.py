#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Move the kernel frames of a `perf script` text onto another vmlinux.

usage: perf-move.py NM-OUTPUT < SCRIPT > MOVED

NM-OUTPUT is `nm -n -S VMLINUX`.  Each "ADDR SYM+0xOFF ([kernel.kallsyms])"
frame recorded on one kernel (the host's) is rewritten as the same symbol
and offset in VMLINUX when it has that symbol and the offset fits, else as
the start of a symbol of VMLINUX picked by the name's hash: a stream of the
same length and shape, of the same frames where the kernels share them,
that `kallmodsyms perf VMLINUX` annotates.  Every other line is copied.
"""

import re
import sys
import zlib

FRAME = re.compile(r'^(.*?)([0-9a-f]+) (\S+?)(?:\+0x([0-9a-f]+))? '
                   r'\(\[kernel\.kallsyms\]\)$')


def read_symbols(path):
    """Text symbols: name -> (address, size), the first of each name."""
    symbols, names = {}, []
    with open(path, encoding='utf-8') as f:
        for line in f:
            fields = line.split()
            if len(fields) != 4 or fields[2] not in 'tT':
                continue
            addr, size = int(fields[0], 16), int(fields[1], 16)
            if size and fields[3] not in symbols:
                symbols[fields[3]] = (addr, size)
                names.append(fields[3])
    return symbols, names


def main():
    symbols, names = read_symbols(sys.argv[1])
    out = sys.stdout
    for line in sys.stdin:
        m = FRAME.match(line.rstrip('\n'))
        if not m:
            out.write(line)
            continue
        name, off = m.group(3), int(m.group(4) or '0', 16)
        if name not in symbols or off >= symbols[name][1]:
            name = names[zlib.crc32(name.encode()) % len(names)]
            off = 0
        out.write(f'{m.group(1)}{symbols[name][0] + off:016x} '
                  f'{name}+0x{off:x} ([kernel.kallsyms])\n')


if __name__ == '__main__':
    main()
