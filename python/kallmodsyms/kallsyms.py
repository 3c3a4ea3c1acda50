# SPDX-License-Identifier: GPL-2.0
"""The kernel's own symbol tables (kernel/kallsyms.c, scripts/kallsyms.c).

Read through a reader object with read(address, length) -> bytes and
symbol(name) -> address, so that the same code decodes a stopped kernel's
memory and a vmlinux file.  Addresses come out as /proc/kallsyms shows them
to root: relative to the (relocated) kallsyms_relative_base, per-CPU symbols
absolute when the kernel was built with --absolute-percpu.
"""

import struct

from .blob import KmsError

KSYM_NAME_LEN = 512
CHUNK = 64 << 10


class Symbols:
    """addresses, types and names, in kallsyms order (= /proc/kallsyms)."""

    def __init__(self, addresses, types, names):
        self.addresses = addresses
        self.types = types
        self.names = names
        self._by_address = None
        self._by_name = None

    def __len__(self):
        return len(self.names)

    def _address_index(self):
        if self._by_address is None:
            self._by_address = sorted(range(len(self.names)),
                                      key=lambda i: (self.addresses[i], i))
            self._sorted_addresses = [self.addresses[i]
                                      for i in self._by_address]
        return self._by_address

    def at(self, address):
        """(index, size) of the symbol holding @address as the kernel names
        it (the first of its aliases, size up to the next address), or
        None."""
        import bisect
        order = self._address_index()
        k = bisect.bisect_right(self._sorted_addresses, address)
        if k == 0:
            return None
        start = self._sorted_addresses[k - 1]
        first = bisect.bisect_left(self._sorted_addresses, start)
        nxt = bisect.bisect_right(self._sorted_addresses, start)
        size = (self._sorted_addresses[nxt] - start
                if nxt < len(order) else 0)
        if size and address - start >= size:
            return None
        return order[first], size

    def size(self, index):
        import bisect
        self._address_index()
        start = self.addresses[index]
        nxt = bisect.bisect_right(self._sorted_addresses, start)
        if nxt < len(self._sorted_addresses):
            return self._sorted_addresses[nxt] - start
        return 0

    def named(self, name):
        """Indexes of the symbols called @name, in kallsyms order."""
        if self._by_name is None:
            self._by_name = {}
            for i, n in enumerate(self.names):
                self._by_name.setdefault(n, []).append(i)
        return self._by_name.get(name, [])


class _Cursor:
    """Sequential reads through a reader, a chunk at a time."""

    def __init__(self, reader, address):
        self.reader = reader
        self.base = address
        self.buf = b""

    def get(self, offset, length):
        while offset + length > len(self.buf):
            self.buf += self.reader.read(self.base + len(self.buf), CHUNK)
        return self.buf[offset:offset + length]


def read_symbols(reader, pointer_size=8, byteorder="<"):
    """The core kernel's kallsyms as a Symbols; KmsError if the tables are
    missing or do not decode."""
    def addr(name):
        a = reader.symbol(name)
        if a is None:
            raise KmsError("no symbol %s: the kernel has no kallsyms tables"
                           % name)
        return a

    nr = struct.unpack(byteorder + "I",
                       reader.read(addr("kallsyms_num_syms"), 4))[0]
    if not nr or nr > 1 << 24:
        raise KmsError("implausible kallsyms_num_syms %u" % nr)
    base = struct.unpack(byteorder + ("Q" if pointer_size == 8 else "I"),
                         reader.read(addr("kallsyms_relative_base"),
                                     pointer_size))[0]
    if not base and hasattr(reader, "relative_reloc"):
        # arm64's image file: the value is in a relocation (elf.py).
        base = reader.relative_reloc(addr("kallsyms_relative_base")) or 0
    offsets = struct.unpack(byteorder + "%ui" % nr,
                            reader.read(addr("kallsyms_offsets"), 4 * nr))
    index = struct.unpack(byteorder + "256H",
                          reader.read(addr("kallsyms_token_index"), 512))
    table_len = max(index) + 256
    table = reader.read(addr("kallsyms_token_table"), table_len)
    tokens = []
    for t in index:
        end = table.find(b"\0", t)
        if end < 0:
            raise KmsError("kallsyms_token_table is truncated")
        tokens.append(table[t:end])

    absolute_percpu = any(o < 0 for o in offsets)
    mask = (1 << (8 * pointer_size)) - 1
    if absolute_percpu:
        addresses = [o if o >= 0 else (base - 1 - o) & mask for o in offsets]
    else:
        addresses = [(base + (o & 0xFFFFFFFF)) & mask for o in offsets]

    names_cursor = _Cursor(reader, addr("kallsyms_names"))
    types, names = [], []
    pos = 0
    for i in range(nr):
        head = names_cursor.get(pos, 2)
        length = head[0]
        pos += 1
        if length & 0x80:
            length = (length & 0x7F) | head[1] << 7
            pos += 1
        data = names_cursor.get(pos, length)
        pos += length
        name = b"".join([tokens[b] for b in data])
        if not name or len(name) > KSYM_NAME_LEN:
            raise KmsError("kallsyms symbol %u does not decode" % i)
        types.append(chr(name[0]))
        names.append(name[1:].decode("latin-1"))
    return Symbols(addresses, types, names)
