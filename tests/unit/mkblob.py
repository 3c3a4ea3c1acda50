# SPDX-License-Identifier: GPL-2.0
"""A writer of kallmodsyms blobs of version 5, written from
sidecar/FORMAT.md (sections 1.1, 2, 3, 3.8, 3.9) for the Python decoder's
tests, apart from the generator: an image and paths images made from
lists, compressed by the zstd program, each field a test damages given
by keyword.

    image(sections, objects, words, strtab, nr_modules)   3, stored as 3.8
    paths_image(pieces, end, paths)                       3.9, stored
    front_coded(paths)                                    its strings
    frame(data, *zstd_options)                            one zstd frame
    blob(image, paths_image[, init_paths_image], **fields)  the descriptor
    note(desc)                                            the note record
"""

import os
import struct
import subprocess
import tempfile

NONE = 0xffffffff


def planes(values, width):
    """@values of @width bytes in byte planes: byte i of plane p is byte
    p of value i (FORMAT.md 3.8)."""
    return bytes(v >> (8 * p) & 0xff for p in range(width) for v in values)


def differences(starts):
    """Starts stored as differences from the previous one, the first as
    itself, modulo 2^32."""
    return [s if i == 0 else (s - starts[i - 1]) & 0xffffffff
            for i, s in enumerate(starts)]


def image(sections, objects, words, strtab, nr_modules):
    """The stored image of @sections [(class, end, [(start, object index
    or None), ...])], @objects [(modlist word or None, string offset or
    None)], module-list @words and @strtab (bytes)."""
    width = 2 if len(objects) <= 65535 else 4
    diffs, objs = [], []
    for _cls, _end, ranges in sections:
        diffs += differences([start for start, _ in ranges])
        objs += [(1 << 8 * width) - 1 if o is None else o
                 for _, o in ranges]
    arrays = [
        b"".join(struct.pack("<3I", cls, len(ranges), end)
                 for cls, end, ranges in sections),
        planes(diffs, 4), planes(objs, width),
        b"".join(struct.pack("<2I", NONE if m is None else m,
                             NONE if s is None else s) for m, s in objects),
        struct.pack("<%uI" % len(words), *words), strtab]
    offsets, pos = [], 48
    for a in arrays:
        offsets.append(pos)
        pos += len(a) + (-len(a) % 4)
    header = struct.pack("<12I", len(sections), offsets[0], len(diffs),
                         offsets[1], offsets[2], len(objects), offsets[3],
                         len(words), offsets[4], len(strtab), offsets[5],
                         nr_modules)
    return header + b"".join(a + b"\0" * (-len(a) % 4) for a in arrays)


def front_coded(paths):
    """@paths (str, one byte a character) as FORMAT.md 3.9 stores them:
    each a byte k + 1, k the number of first bytes it shares with the
    path before it (at most 254), then the rest of it and a NUL."""
    out, before = [], b""
    for path in paths:
        path = path.encode("latin-1")
        k = 0
        while k < min(len(path), len(before), 254) and \
                path[k] == before[k]:
            k += 1
        out.append(bytes([k + 1]) + path[k:] + b"\0")
        before = path
    return b"".join(out)


def paths_image(pieces, end, paths, nr_paths=None, strings=None):
    """The stored paths image of @pieces [(start, path number or None)],
    @end and @paths (str); @nr_paths and @strings (bytes, the stored
    strings) replace what @paths gives."""
    nr_paths = len(paths) if nr_paths is None else nr_paths
    width = 2 if nr_paths <= 65535 else 4
    if strings is None:
        strings = front_coded(paths)
    numbers = [(1 << 8 * width) - 1 if p is None else p for _, p in pieces]
    return (struct.pack("<3I", len(pieces), nr_paths, end) +
            planes(differences([s for s, _ in pieces]), 4) +
            planes(numbers, width) + strings)


def frame(data, *options):
    """@data as one zstd frame, by the zstd program at level 19 (from a
    file: the frame declares its content size), with @options added."""
    fd, path = tempfile.mkstemp()
    try:
        os.write(fd, data)
        os.close(fd)
        return subprocess.run(["zstd", "-q", "-19", *options, "-c", path],
                              stdout=subprocess.PIPE, check=True).stdout
    finally:
        os.unlink(path)


def blob(img, paths, init_paths=None, version=5, header_size=32, flags=1,
         image_frame=None, paths_frame=None, init_paths_frame=None,
         image_size=None, paths_image_size=None, paths_size=None,
         init_paths_size=None, padding=b""):
    """The descriptor of a blob of the image @img, the paths image @paths
    and the init paths image @init_paths (None: no init paths frame,
    init_paths_size 0); the keywords replace a field or a frame's
    bytes."""
    image_frame = frame(img) if image_frame is None else image_frame
    paths_frame = frame(paths) if paths_frame is None else paths_frame
    if init_paths_frame is None:
        init_paths_frame = b"" if init_paths is None else frame(init_paths)
    return (b"KMS1" + struct.pack(
        "<HHIIIIII", version, header_size, flags, len(image_frame),
        len(img) if image_size is None else image_size,
        len(paths_frame) if paths_size is None else paths_size,
        len(paths) if paths_image_size is None else paths_image_size,
        len(init_paths_frame) if init_paths_size is None
        else init_paths_size) +
        image_frame + paths_frame + init_paths_frame + padding)


def note(desc):
    """The kallmodsyms note record of @desc (FORMAT.md 1.1)."""
    return (struct.pack("<3I", 12, len(desc), 0x4b4d5301) +
            b"kallmodsyms\0" + desc + b"\0" * (-len(desc) % 4))
