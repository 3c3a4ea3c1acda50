#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check kallmodsyms-gen --dwarf tables against the vmlinux's DWARF, read
by binutils (readelf), not by the generator's own reader.

usage: check-units.py VMLINUX ARANGES UNITS NM LIST EXPLAIN [BUILTIN]

  ARANGES  readelf --debug-dump=aranges VMLINUX
  UNITS    readelf --debug-dump=info --dwarf-depth=1 VMLINUX
  NM       nm -S --defined-only VMLINUX
  LIST     kallmodsyms list -t TABLES VMLINUX
  EXPLAIN  kallmodsyms-gen -ee ... (objects with their modules, ranges)
  BUILTIN  modules.builtin (optional)

Each text symbol's DWARF unit is the compile unit whose address range
holds its first byte, else the first unit's range that starts inside the
symbol (arm64's patchable function entries lie before GCC's
DW_AT_low_pc), else for a __pfx_ padding (CONFIG_FUNCTION_PADDING) the
unit of the function after it; its object is the unit's source with .o
for .c/.S.  Static-call trampolines (__SCT__) in no unit's range are
counted, not checked (and the labels at their address): their unit is
their key variable's, which .debug_aranges does not say.  A
symbol without a size (a label: linker-script labels, the aliases of
arm64's nVHE hypervisor code) has the extent of the largest symbol at
its address: it names the same bytes (docs/DESIGN.md 4.8: a label at an
object's first byte reads as that object's).  Prints:

  objects vs DWARF units: agree N of M (P%)   the generator's object of
      each text symbol (-ee's range holding it) against its unit's
  without their unit's module: N    text symbols with no [module] whose
      unit's other symbols carry one
  ambiguous text triples: N (S symbols)    (name, modules, object) that
      two text symbols share
  ambiguous data triples: N (S symbols)    the same among data symbols
      (--all-classes), then those symbols by name (digits as N), whether
      they lie in an object, and whether the symbol table sizes them
  modules.builtin: N, with a [module] on some symbol M, without K

and, for each failing check, up to 10 examples.  Exits 1 when objects
disagree, a symbol lacks its unit's module or a text triple is ambiguous.
"""
import bisect
import re
import sys
from collections import Counter, defaultdict

TEXT = set("tTwW")
TOP_DIRS = ("arch", "block", "certs", "crypto", "drivers", "fs", "init",
            "io_uring", "ipc", "kernel", "lib", "mm", "net", "rust",
            "samples", "security", "sound", "usr", "virt")


def read_units(path):
    """CU offset -> object path, from readelf's depth-1 dump."""
    objects = {}
    offset = name = comp_dir = None
    names = []

    def flush():
        if offset is not None:
            names.append((offset, name, comp_dir))

    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*Compilation Unit @ offset (0x[0-9a-f]+|0):", line)
            if m:
                flush()
                offset, name, comp_dir = int(m.group(1), 16), None, None
                continue
            m = re.match(r"\s*<[0-9a-f]+>\s+DW_AT_(name|comp_dir)\s*:"
                         r"(?: \(indirect[^)]*\):)? (.*)$", line)
            if m and offset is not None:
                if m.group(1) == "name" and name is None:
                    name = m.group(2).strip()
                elif m.group(1) == "comp_dir" and comp_dir is None:
                    comp_dir = m.group(2).strip()
    flush()
    prefix = None
    for _, n, _ in names:
        if n and n.endswith("/init/main.c"):
            prefix = n[:-len("init/main.c")]
    for off, n, cdir in names:
        objects[off] = object_of(n, cdir, prefix)
    return objects


def object_of(name, comp_dir, prefix):
    """The object kbuild makes of a unit's source, or None."""
    if not name:
        return None
    if prefix and name.startswith(prefix):
        name = name[len(prefix):]
    elif comp_dir and name.startswith(comp_dir + "/"):
        name = name[len(comp_dir) + 1:]
    elif name.startswith("/"):
        # Assembler units name their source absolutely, from another
        # directory than the C units' DW_AT_comp_dir: the tree's top
        # is where its first top-level directory starts.
        m = re.search(r"/(%s)/" % "|".join(TOP_DIRS), name)
        if m:
            name = name[m.start() + 1:]
    while name.startswith("./"):
        name = name[2:]
    m = re.match(r"(.+)\.(c|S|s|rs)$", name)
    if not m or name.startswith("/") or name.startswith("<"):
        return None
    return m.group(1) + ".o"


def read_aranges(path, objects):
    """Sorted (start, end, object) of every unit's address ranges."""
    ranges = []
    unit = None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*Offset into \.debug_info:\s+(0x[0-9a-f]+|\d+)",
                         line)
            if m:
                v = m.group(1)
                unit = int(v, 16) if v.startswith("0x") else int(v)
                continue
            m = re.match(r"\s+([0-9a-f]{8,16}) ([0-9a-f]{8,16})\s*$", line)
            if m and unit is not None:
                start, length = int(m.group(1), 16), int(m.group(2), 16)
                if start and length:
                    ranges.append((start, start + length,
                                   objects.get(unit)))
    ranges.sort()
    return ranges


class Intervals:
    """Sorted, disjoint enough intervals: which holds an address."""

    def __init__(self, ranges):
        self.ranges = ranges
        self.starts = [r[0] for r in ranges]

    def holding(self, addr):
        i = bisect.bisect_right(self.starts, addr)
        if i and addr < self.ranges[i - 1][1]:
            return self.ranges[i - 1]
        return None

    def starting_in(self, start, end):
        i = bisect.bisect_right(self.starts, start)
        if i < len(self.ranges) and self.ranges[i][0] < end:
            return self.ranges[i]
        return None


def read_nm(path):
    """(address, name) -> size; address -> the largest size there; the
    addresses of __pfx_ paddings and of __SCT__ trampolines."""
    sizes = {}
    at = {}
    paddings = set()
    trampolines = set()
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4:
                addr, size = int(w[0], 16), int(w[1], 16)
                sizes[(addr, w[3])] = size
                at[addr] = max(at.get(addr, 0), size)
                if w[3].startswith("__pfx_"):
                    paddings.add(addr)
                if w[3].startswith("__SCT__"):
                    trampolines.add(addr)
    return sizes, at, paddings, trampolines


def read_explain(path):
    """The generator's pieces (start, end, object) and objects' modules."""
    pieces = []
    with open(path) as f:
        for line in f:
            if line.startswith("range "):
                _, span, obj = line.split()
                start, end = span.split("-")
                pieces.append((int(start, 16), int(end, 16), obj))
    pieces.sort()
    return pieces


def read_list(path):
    """(address, type, name, modules) of kallmodsyms list's lines."""
    syms = []
    with open(path) as f:
        for line in f:
            head, _, annot = line.rstrip("\n").partition("\t")
            addr, typ, name = head.split(" ", 2)
            mods = " ".join(re.findall(r"\[[^]]*\]", annot))
            syms.append((int(addr, 16), typ, name, mods))
    return syms


def dwarf_object(units, addr, size, padding):
    r = units.holding(addr)
    if r is None and size:
        r = units.starting_in(addr, addr + size)
    if r is None and padding:
        r = units.holding(addr + size)
    return r[2] if r else None


def triples(syms, objects):
    """Groups of more than one symbol sharing (name, modules, object)."""
    count = Counter((s[2], s[3], o) for s, o in zip(syms, objects))
    dup = {k: n for k, n in count.items() if n > 1}
    return dup


def main(argv):
    if len(argv) not in (7, 8):
        sys.exit(__doc__.split("\n\n")[1])
    vmlinux = argv[1]
    objects = read_units(argv[3])
    units = Intervals(read_aranges(argv[2], objects))
    if not units.ranges:
        sys.exit("check-units.py: %s: no .debug_aranges" % vmlinux)
    sizes, sized_at, paddings, sct = read_nm(argv[4])
    pieces = Intervals(read_explain(argv[6]))
    syms = read_list(argv[5])
    status = 0

    text = [s for s in syms if s[1] in TEXT]
    gen_obj = []
    agree = 0
    wrong = []
    by_unit = defaultdict(list)
    aliases = trampolines = 0
    for s in text:
        size = sizes.get((s[0], s[2]), 0)
        if not size and sized_at.get(s[0]):
            size = sized_at[s[0]]
            aliases += 1
        dw = dwarf_object(units, s[0], size, s[0] in paddings)
        p = pieces.holding(s[0])
        gen = p[2] if p else None
        gen_obj.append(gen)
        if dw is None and s[0] in sct:
            trampolines += 1
        elif dw == gen:
            agree += 1
        else:
            wrong.append("%x %s: DWARF %s, tables %s" % (s[0], s[2], dw, gen))
        if dw:
            by_unit[dw].append(s)
    checked = len(text) - trampolines
    print("objects vs DWARF units: agree %d of %d (%.2f%%); sizeless "
          "symbols given the extent of the function at their address: %d; "
          "static-call trampolines not checked: %d" %
          (agree, checked, 100.0 * agree / checked if checked else 0,
           aliases, trampolines))
    if wrong:
        status = 1
        print("\n".join("  " + w for w in wrong[:10]))

    orphans = []
    for unit, members in sorted(by_unit.items()):
        if any(m[3] for m in members):
            orphans += ["%x %s (%s)" % (m[0], m[2], unit)
                        for m in members if not m[3]]
    print("without their unit's module: %d" % len(orphans))
    if orphans:
        status = 1
        print("\n".join("  " + o for o in orphans[:10]))

    dup = triples(text, gen_obj)
    print("ambiguous text triples: %d (%d symbols)" %
          (len(dup), sum(dup.values())))
    if dup:
        status = 1
        print("\n".join("  %s %s {%s} x%d" % (k + (n,))
                        for k, n in sorted(dup.items(),
                                           key=str)[:10]))

    data = [s for s in syms if s[1] not in TEXT]
    data_obj = []
    for s in data:
        p = pieces.holding(s[0])
        data_obj.append(p[2] if p else None)
    if any(data_obj):
        ddup = triples(data, data_obj)
        print("ambiguous data triples: %d (%d symbols)" %
              (len(ddup), sum(ddup.values())))
        kinds = Counter()
        for s, o in zip(data, data_obj):
            if (s[2], s[3], o) in ddup:
                kind = re.sub(r"\.\d+$", ".N", s[2])
                kinds[(kind, "in no object" if o is None else
                       "in one object", "sizeless"
                       if not sizes.get((s[0], s[2])) else "sized")] += 1
        for (kind, where, sized), n in kinds.most_common(10):
            print("  %d %s, %s, %s" % (n, kind, where, sized))

    if len(argv) == 8:
        carried = set()
        for s in syms:
            carried.update(m.strip("[]") for m in s[3].split())
        entries = []
        with open(argv[7]) as f:
            for line in f:
                base = line.strip().rsplit("/", 1)[-1]
                entries.append(re.sub(r"\.ko$", "", base).replace("-", "_"))
        missing = [e for e in entries if e not in carried]
        print("modules.builtin: %d, with a [module] on some symbol %d, "
              "without %d" % (len(entries), len(entries) - len(missing),
                              len(missing)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
