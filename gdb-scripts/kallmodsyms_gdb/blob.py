# SPDX-License-Identifier: GPL-2.0
"""Decode and check a kallmodsyms blob (sidecar/FORMAT.md).

Pure Python so that it runs in any interpreter; the gdb commands and the
tests share it.  Every check of the format document is made before a table
is used: a blob that breaks one is refused with KmsError, never half-read.
"""

import re
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

# The reason classes of FORMAT.md section 7: every refusal names one.
REASONS = ("no-note", "bad-header", "bad-version", "bad-frame", "bad-zstd",
           "bad-checksum", "bad-image-header", "bad-offset", "overlap",
           "bad-strtab", "bad-modlist", "bad-object", "bad-range")

# zstd's frame format (RFC 8878): what FORMAT.md's "one frame" rests on.
_ZSTD_MAGIC = 0xFD2FB528
_ZSTD_SKIPPABLE_MASK = 0xFFFFFFF0
_ZSTD_SKIPPABLE_MAGIC = 0x184D2A50

# How decode() decompresses: "zstandard" (the Python module), "program"
# (the zstd program), or None: the module when it is there.
DECOMPRESSORS = ("zstandard", "program")


class KmsError(Exception):
    """A problem with the input, phrased for the user (one line).  When it
    is a refused blob, reason is its class (REASONS)."""

    def __init__(self, message, reason=None):
        super().__init__(message)
        self.reason = reason


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


def _frame_content_size(payload):
    """The content size the payload's one zstd frame declares; KmsError
    unless the payload is exactly one frame that declares it (the checks
    of libzstd's ZSTD_getFrameHeader() and ZSTD_findFrameCompressedSize(),
    made here so that every way of decompressing sees the same frame)."""
    def bad(what):
        return KmsError("payload is not one zstd frame of the image size: "
                        + what, "bad-frame")
    if len(payload) < 4:
        raise bad("%u bytes" % len(payload))
    magic, = struct.unpack_from("<I", payload, 0)
    if magic & _ZSTD_SKIPPABLE_MASK == _ZSTD_SKIPPABLE_MAGIC:
        raise bad("a skippable frame")
    if magic != _ZSTD_MAGIC:
        raise bad("no zstd frame magic")
    if len(payload) < 5:
        raise bad("truncated frame header")
    fhd = payload[4]
    single_segment = fhd >> 5 & 1
    if fhd & 0x08:
        raise bad("reserved frame header bit set")
    fcs_size = (single_segment, 2, 4, 8)[fhd >> 6]
    pos = 5 + (not single_segment) + (0, 1, 2, 4)[fhd & 3]
    if not fcs_size:
        raise bad("no content size")
    if pos + fcs_size > len(payload):
        raise bad("truncated frame header")
    content = int.from_bytes(payload[pos:pos + fcs_size], "little")
    content += 256 if fcs_size == 2 else 0
    pos += fcs_size
    while True:
        if pos + 3 > len(payload):
            raise bad("truncated frame")
        block = int.from_bytes(payload[pos:pos + 3], "little")
        btype = block >> 1 & 3
        if btype == 3:
            raise bad("reserved block type")
        pos += 3 + (1 if btype == 1 else block >> 3)
        if block & 1:
            break
    pos += 4 if fhd & 0x04 else 0
    if pos > len(payload):
        raise bad("truncated frame")
    if pos != len(payload):
        raise bad("%u bytes after the frame" % (len(payload) - pos))
    return content


def _zstd_module():
    try:
        import zstandard
    except ImportError:
        return None
    return zstandard


def _decompress(payload, image_size, decompressor):
    """The image of a payload whose frame _frame_content_size() checked;
    KmsError unless it decompresses to exactly image_size bytes."""
    if decompressor not in (None,) + DECOMPRESSORS:
        raise ValueError("decompressor %r is none of %s"
                         % (decompressor, ", ".join(DECOMPRESSORS)))
    zstandard = None
    if decompressor in (None, "zstandard"):
        zstandard = _zstd_module()
        if zstandard is None and decompressor:
            raise KmsError("no Python zstandard module (python3-zstandard)")
    if zstandard:
        try:
            image = zstandard.ZstdDecompressor().decompress(
                payload, max_output_size=image_size)
        except zstandard.ZstdError as e:
            raise KmsError("zstd frame does not decompress: %s" % e,
                           "bad-zstd") from None
    else:
        try:
            proc = subprocess.run(["zstd", "-q", "-d", "-c"], input=payload,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, check=False)
        except OSError:
            raise KmsError("cannot decompress: no Python zstandard module "
                           "(python3-zstandard) and no zstd program") from None
        if proc.returncode:
            raise KmsError("zstd frame does not decompress", "bad-zstd")
        image = proc.stdout
    if len(image) != image_size:
        raise KmsError("zstd frame decompresses to %u bytes, not %u"
                       % (len(image), image_size), "bad-zstd")
    return image


def decode(desc, decompressor=None):
    """The image (bytes) of a blob: header checks, decompression, CRC.
    decompressor: one of DECOMPRESSORS to force a way, None for the best."""
    if desc is None:
        raise KmsError("no kallmodsyms note", "no-note")
    if len(desc) < HEADER_SIZE or desc[:4] != MAGIC:
        raise KmsError("bad note header", "bad-header")
    version, header_size, flags, payload_size, image_size, crc, r0, r1 = \
        struct.unpack_from("<HHIIIIII", desc, 4)
    if version != VERSION:
        raise KmsError("format version %u, these helpers read version %u"
                       % (version, VERSION), "bad-version")
    if (header_size != HEADER_SIZE or flags & ~FLAGS_KNOWN or r0 or r1 or
            HEADER_SIZE + payload_size != len(desc) or
            image_size < IMAGE_HEADER_SIZE or image_size > IMAGE_MAX_SIZE or
            (not flags & FLAG_ZSTD and payload_size != image_size)):
        raise KmsError("bad note header", "bad-header")
    payload = bytes(desc[HEADER_SIZE:])
    if flags & FLAG_ZSTD:
        if _frame_content_size(payload) != image_size:
            raise KmsError("payload is not one zstd frame of the image size",
                           "bad-frame")
        image = _decompress(payload, image_size, decompressor)
    else:
        image = payload
    if zlib.crc32(image) & 0xFFFFFFFF != crc:
        raise KmsError("image checksum mismatch", "bad-checksum")
    return image


# A string table byte that is neither NUL nor printable ASCII (FORMAT.md 3.4).
_NOT_PRINTABLE = re.compile(rb"[^\x00\x21-\x7e]")


class Tables:
    """The checked tables of one image (FORMAT.md section 3)."""

    def __init__(self, image):
        image = bytes(image)
        if len(image) < IMAGE_HEADER_SIZE:
            raise KmsError("image is shorter than its header", "bad-header")
        hdr = struct.unpack_from("<12I", image, 0)
        if hdr[10] or hdr[11]:
            raise KmsError("reserved image header fields are set",
                           "bad-image-header")
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
                               % (what, off, count * size), "bad-offset")
            extents.append((off, end))
        extents.sort()
        for a, b in zip(extents, extents[1:]):
            if b[0] < a[1]:
                raise KmsError("tables overlap", "overlap")

        strtab = image[strtab_off:strtab_off + strtab_size]
        if not strtab or strtab[-1] != 0:
            raise KmsError("string table is not NUL-terminated", "bad-strtab")
        bad = _NOT_PRINTABLE.search(strtab)
        if bad:
            raise KmsError("string table byte %u is not printable"
                           % bad.start(), "bad-strtab")
        self._strtab = strtab

        words = struct.unpack_from("<%uI" % nr_words, image, modlists_off)
        self._lists = {}
        i = 0
        while i < nr_words:
            n = words[i]
            if not n or n > nr_words - i - 1:
                raise KmsError("module list at word %u is malformed" % i,
                               "bad-modlist")
            names = [self._string(off, "module list at word %u" % i,
                                  "bad-modlist")
                     for off in words[i + 1:i + 1 + n]]
            if any(a >= b for a, b in zip(names, names[1:])):
                raise KmsError("module list at word %u is malformed" % i,
                               "bad-modlist")
            self._lists[i] = names
            i += n + 1

        obj_words = struct.unpack_from("<%uI" % (2 * nr_objects), image,
                                       objects_off)
        self.objects = []
        for k in range(nr_objects):
            lst, name = obj_words[2 * k], obj_words[2 * k + 1]
            if lst != NONE and lst not in self._lists:
                raise KmsError("object %u is malformed" % k, "bad-object")
            self.objects.append((
                self._lists[lst] if lst != NONE else [],
                self._string(name, "object %u" % k, "bad-object")
                if name != NONE else None))

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
                raise KmsError("range %u is malformed" % k, "bad-range")
        self.image_size = len(image)
        self.nr_modlist_words = nr_words
        self.strtab_size = strtab_size

    def _string(self, off, what, reason):
        s = self._strtab
        if off >= len(s) or not s[off] or (off and s[off - 1]):
            raise KmsError("%s is malformed" % what, reason)
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
