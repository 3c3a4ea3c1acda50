#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The gdb helpers' verdict on conformance corpus files (FORMAT.md 7).

usage: judge.py GDB_SCRIPTS_DIR {zstandard|program} [-v] [-a] FILE...

Each FILE is read as the helpers read a note section (blob.find_note, then
blob.load with the decompressor forced: the image's tables and the paths
images) and one line is printed, as kms-judge prints it for the C library.
The class of a refusal is the reason blob.py gives it, where it refuses.
-a adds an accepted file's annotation lines, by Tables.symbol_object()
and annotation(), then its path lines, by Tables.path_at(), which reads
both paths images as one.
"""

import os
import sys

# Where FORMAT.md 7 places _text and __per_cpu_start; the types asked.
TEXT, PER_CPU_START, TYPES = 0, 0x40, "tdA"


def probes(t, blob):
    """FORMAT.md 7's probes of @t: each range's start, each section's
    edges, below 2^32, sorted, each once."""
    found = set()
    for cls, first, n, start, end in t.sections:
        base = (PER_CPU_START if blob.class_base(cls) == blob.BASE_PERCPU
                else TEXT)
        found.update(base + a for a in [start - 1, end - 1, end]
                     + t.starts[first:first + n])
    return sorted(a for a in found if 0 <= a <= 0xffffffff)


def annotations(name, t, blob):
    for addr in probes(t, blob):
        ann = [t.annotation(t.symbol_object(addr, type_, TEXT,
                                            PER_CPU_START))
               for type_ in TYPES]
        got = [a for a in ann if a]
        if len(set(got)) > 1:
            print("%s at %#x %s" % (name, addr, " ".join(
                '%s="%s"' % (k, a) for k, a in zip(TYPES, ann))))
        elif got:
            print("%s at %#x %s %s" % (name, addr, "".join(
                k for k, a in zip(TYPES, ann) if a), got[0]))
        else:
            print("%s at %#x -" % (name, addr))


def path_probes(images):
    """FORMAT.md 7.1's path probes of the paths @images, as offsets from
    _text: each piece's first and last byte, the byte before an image's
    first piece, an image's end; sorted, each once."""
    found = set()
    for p in images:
        firsts = p.starts
        found |= set(firsts) | {a - 1 for a in firsts[1:] + [p.end]}
        found.add(p.end)
        if firsts[0]:
            found.add(firsts[0] - 1)
    return sorted(found)


def paths(name, t):
    for offset in path_probes(t.paths_images):
        print("%s path %#x %s" % (name, TEXT + offset,
                                  t.path_at(offset) or "-"))


def counts(prefix, p):
    """FORMAT.md 7.1's counts of the paths image @p (None: there is
    none, all 0), their names after @prefix."""
    return "%spieces=%u %spaths=%u %spaths-image=%u" % (
        prefix, len(p.starts) if p else 0, prefix, len(p.paths) if p else 0,
        prefix, p.size if p else 0)


def main():
    sys.path.insert(0, sys.argv[1])
    from kallmodsyms import blob

    decompressor = sys.argv[2]
    files = sys.argv[3:]
    verbose = files[:1] == ["-v"]
    if verbose:
        files = files[1:]
    annotate = files[:1] == ["-a"]
    if annotate:
        files = files[1:]
    for path in files:
        name = os.path.basename(path)
        if name.endswith(".kms"):
            name = name[:-4]
        with open(path, "rb") as f:
            data = f.read()
        try:
            t = blob.load(blob.find_note(data), decompressor)
        except blob.KmsError as e:
            line = "%s refuse %s" % (name, e.reason or "unclassified")
            print(line + ("\t%s" % e if verbose else ""))
            continue
        print("%s accept sections=%u ranges=%u attributions=%u modules=%u "
              "modlist-words=%u strtab=%u image=%u %s %s"
              % (name, len(t.sections), len(t.starts), len(t.objects),
                 t.nr_modules, t.nr_modlist_words, t.strtab_size,
                 t.image_size, counts("", t.paths_image),
                 counts("init-", t.init_paths_image)))
        if annotate:
            annotations(name, t, blob)
            paths(name, t)


main()
