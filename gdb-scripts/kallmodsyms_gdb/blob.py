# SPDX-License-Identifier: GPL-2.0
"""Decode and check a kallmodsyms blob (sidecar/FORMAT.md).

Pure Python so that it runs in any interpreter; the gdb commands and the
tests share it.  Every check of the format document is made before a table
is used: a blob that breaks one is refused with KmsError, never half-read.
"""

import struct
import subprocess
import zlib

try:
    from .constants import (FLAG_ZSTD, FLAGS_KNOWN, HEADER_SIZE,
                            IMAGE_HEADER_SIZE, IMAGE_MAX_SIZE, MAGIC, NONE,
                            NOTE_NAME, NOTE_TYPE, OBJECT_SIZE, RANGE_SIZE,
                            VERSION)
except ImportError:
    raise ImportError("kallmodsyms_gdb/constants.py is missing: it is "
                      "generated from sidecar/include/kms/format.h, run "
                      "make in the kallmodsyms checkout") from None


class KmsError(Exception):
    """A problem with the input, phrased for the user (one line)."""


def find_note(notes, byteorder="<"):
    """The descriptor of the kallmodsyms note in the bytes of a note section,
    or None.  Other notes are skipped by the usual ELF rules."""
    pos = 0
    while len(notes) - pos >= 12:
        namesz, descsz, ntype = struct.unpack_from(byteorder + "III", notes, pos)
        name_end = pos + 12 + ((namesz + 3) & ~3)
        desc_end = name_end + ((descsz + 3) & ~3)
        if desc_end > len(notes):
            return None
        name = bytes(notes[pos + 12:pos + 12 + namesz])
        if ntype == NOTE_TYPE and name == NOTE_NAME + b"\0":
            return bytes(notes[name_end:name_end + descsz])
        pos = desc_end
    return None


def _decompress(payload, image_size):
    try:
        import zstandard
    except ImportError:
        zstandard = None
    if zstandard:
        try:
            params = zstandard.get_frame_parameters(payload)
            if params.content_size != image_size:
                raise KmsError("payload is not a zstd frame of the image size")
            return zstandard.ZstdDecompressor().decompress(
                payload, max_output_size=image_size)
        except zstandard.ZstdError as e:
            raise KmsError("zstd frame does not decompress: %s" % e) from None
    try:
        import zstd
    except ImportError:
        zstd = None
    if zstd:
        try:
            return zstd.decompress(payload)
        except zstd.Error as e:
            raise KmsError("zstd frame does not decompress: %s" % e) from None
    try:
        proc = subprocess.run(["zstd", "-q", "-d", "-c"], input=payload,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              check=False)
    except OSError:
        raise KmsError("cannot decompress: no Python zstandard module "
                       "(python3-zstandard) and no zstd program") from None
    if proc.returncode:
        raise KmsError("zstd frame does not decompress")
    return proc.stdout


def decode(desc):
    """The image (bytes) of a blob: header checks, decompression, CRC."""
    if len(desc) < HEADER_SIZE or desc[:4] != MAGIC:
        raise KmsError("bad note header")
    version, header_size, flags, payload_size, image_size, crc, r0, r1 = \
        struct.unpack_from("<HHIIIIII", desc, 4)
    if version != VERSION:
        raise KmsError("format version %u, these helpers read version %u"
                       % (version, VERSION))
    if (header_size != HEADER_SIZE or flags & ~FLAGS_KNOWN or r0 or r1 or
            HEADER_SIZE + payload_size != len(desc) or
            image_size < IMAGE_HEADER_SIZE or image_size > IMAGE_MAX_SIZE):
        raise KmsError("bad note header")
    payload = bytes(desc[HEADER_SIZE:])
    if flags & FLAG_ZSTD:
        image = _decompress(payload, image_size)
    else:
        image = payload
    if len(image) != image_size:
        raise KmsError("payload is not a zstd frame of the image size")
    if zlib.crc32(image) & 0xFFFFFFFF != crc:
        raise KmsError("image checksum mismatch")
    return image


class Tables:
    """The checked tables of one image (FORMAT.md section 3)."""

    def __init__(self, image):
        image = bytes(image)
        if len(image) < IMAGE_HEADER_SIZE:
            raise KmsError("image is shorter than its header")
        hdr = struct.unpack_from("<12I", image, 0)
        if hdr[10] or hdr[11]:
            raise KmsError("reserved image header fields are set")
        (self.text_size, nr_ranges, ranges_off, nr_objects, objects_off,
         nr_words, modlists_off, strtab_size, strtab_off,
         self.nr_modules) = hdr[:10]
        extents = []
        for what, off, count, size in (
                ("ranges", ranges_off, nr_ranges, RANGE_SIZE),
                ("objects", objects_off, nr_objects, OBJECT_SIZE),
                ("module lists", modlists_off, nr_words, 4),
                ("strings", strtab_off, strtab_size, 1)):
            end = off + count * size
            if off % 4 or off < IMAGE_HEADER_SIZE or end > len(image):
                raise KmsError("%s (offset %u, %u bytes) lie outside the image"
                               % (what, off, count * size))
            extents.append((off, end))
        extents.sort()
        for a, b in zip(extents, extents[1:]):
            if b[0] < a[1]:
                raise KmsError("tables overlap")

        strtab = image[strtab_off:strtab_off + strtab_size]
        if not strtab or strtab[-1] != 0:
            raise KmsError("string table is not NUL-terminated")
        for i, c in enumerate(strtab):
            if c and (c <= 0x20 or c >= 0x7F):
                raise KmsError("string table byte %u is not printable" % i)
        self._strtab = strtab

        words = struct.unpack_from("<%uI" % nr_words, image, modlists_off)
        self._lists = {}
        i = 0
        while i < nr_words:
            n = words[i]
            if not n or n > nr_words - i - 1:
                raise KmsError("module list at word %u is malformed" % i)
            names = [self._string(off, "module list at word %u" % i)
                     for off in words[i + 1:i + 1 + n]]
            if any(a >= b for a, b in zip(names, names[1:])):
                raise KmsError("module list at word %u is malformed" % i)
            self._lists[i] = names
            i += n + 1

        obj_words = struct.unpack_from("<%uI" % (2 * nr_objects), image,
                                       objects_off)
        self.objects = []
        for k in range(nr_objects):
            lst, name = obj_words[2 * k], obj_words[2 * k + 1]
            if lst != NONE and lst not in self._lists:
                raise KmsError("object %u is malformed" % k)
            self.objects.append((
                self._lists[lst] if lst != NONE else [],
                self._string(name, "object %u" % k) if name != NONE else None))

        range_words = struct.unpack_from("<%uI" % (2 * nr_ranges), image,
                                         ranges_off)
        self.starts = list(range_words[0::2])
        self.range_objects = list(range_words[1::2])
        for k in range(nr_ranges):
            start, obj = self.starts[k], self.range_objects[k]
            if ((k and start <= self.starts[k - 1]) or
                    start >= self.text_size or
                    (obj != NONE and obj >= nr_objects) or
                    (k and obj == self.range_objects[k - 1])):
                raise KmsError("range %u is malformed" % k)
        self.image_size = len(image)

    def _string(self, off, what):
        s = self._strtab
        if off >= len(s) or not s[off] or (off and s[off - 1]):
            raise KmsError("%s is malformed" % what)
        return s[off:s.index(b"\0", off)].decode("ascii")

    def object_at(self, offset):
        """The object index of @offset from _text, or NONE."""
        import bisect
        if offset < 0 or offset >= self.text_size or not self.starts:
            return NONE
        k = bisect.bisect_right(self.starts, offset) - 1
        return NONE if k < 0 else self.range_objects[k]

    def annotation(self, obj):
        """ "[m1] [m2] {name}" for object @obj, "" for NONE (FORMAT.md 4)."""
        if obj == NONE:
            return ""
        modules, name = self.objects[obj]
        words = ["[%s]" % m for m in modules]
        if name is not None:
            words.append("{%s}" % name)
        return " ".join(words)

    def modules(self, obj):
        return [] if obj == NONE else self.objects[obj][0]

    def objfile(self, obj):
        return None if obj == NONE else self.objects[obj][1]
