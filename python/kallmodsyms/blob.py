# SPDX-License-Identifier: GPL-2.0
"""Decode and check a kallmodsyms blob (sidecar/FORMAT.md).

Pure Python so that it runs in any interpreter; the gdb commands and the
tests share it.  Every check of the format document is made before a table
is used: a blob that breaks one is refused with KmsError, never half-read.
"""

import bisect
import re
import struct
import subprocess

try:
    from .constants import (BASE_PERCPU, BASE_TEXT, CLASS_PERCPU,
                            FLAGS_REQUIRED, HEADER_SIZE,
                            IMAGE_HEADER_SIZE, IMAGE_MAX_SIZE, MAGIC,
                            NARROW_OBJECTS_MAX, NONE, NONE16, NOTE_NAME,
                            NOTE_TYPE, NR_CLASSES, OBJECT_SIZE,
                            PATHS_HEADER_SIZE, PATHS_MAX_SIZE, SECTION_SIZE,
                            START_SIZE, VERSION)
except ImportError:
    raise ImportError("python/kallmodsyms/constants.py is missing: it "
                      "is generated from sidecar/include/kms/format.h "
                      "and reasons.h, "
                      "run make in the kallmodsyms checkout") from None
from .errors import KmsError
from .paths import Paths, column

# The section classes of FORMAT.md 3.1, by number.
CLASS_NAMES = ("text", "init-text", "rodata", "ro-after-init", "data",
               "init-data", "bss", "percpu")
assert len(CLASS_NAMES) == NR_CLASSES


def class_base(cls):
    """The base a class's offsets count from: BASE_TEXT (_text) or
    BASE_PERCPU (__per_cpu_start)."""
    return BASE_PERCPU if cls == CLASS_PERCPU else BASE_TEXT

# zstd's frame format (RFC 8878): what FORMAT.md's "one frame" rests on.
_ZSTD_MAGIC = 0xFD2FB528
_ZSTD_SKIPPABLE_MASK = 0xFFFFFFF0
_ZSTD_SKIPPABLE_MAGIC = 0x184D2A50

# How decode() decompresses: "zstandard" (the Python module), "program"
# (the zstd program), or None: the module when it is there.
DECOMPRESSORS = ("zstandard", "program")


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


# The frames of a blob (FORMAT.md 2), as messages name them: the frame,
# the size it must decompress to, the frame to zstd.
_FRAMES = (("payload", "image size", "zstd frame"),
           ("paths frame", "paths image size", "paths zstd frame"),
           ("init paths frame", "init paths image size",
            "init paths zstd frame"))


def _frame_content_size(payload, names):
    """The content size the frame's bytes @payload declare; KmsError
    unless they are exactly one frame that declares it (the checks of
    libzstd's ZSTD_getFrameHeader() and ZSTD_findFrameCompressedSize(),
    made here so that every way of decompressing sees the same frame).
    @names: the frame's in _FRAMES."""
    def bad(what):
        return KmsError("%s is not one zstd frame of the %s: %s"
                        % (names[0], names[1], what), "bad-frame")
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
    if not fhd & 0x04:
        raise bad("no content checksum")
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


def _decompress(payload, image_size, names, decompressor):
    """The image of a frame that _frame_content_size() checked; KmsError
    unless it decompresses to exactly image_size bytes."""
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
            raise KmsError("%s does not decompress: %s" % (names[2], e),
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
            raise KmsError("%s does not decompress" % names[2], "bad-zstd")
        image = proc.stdout
    if len(image) != image_size:
        raise KmsError("%s decompresses to %u bytes, not %u"
                       % (names[2], len(image), image_size), "bad-zstd")
    return image


def _frames(desc):
    """The bytes of a blob's frames, each with the size of its image
    ((image frame, image_size), (paths frame, paths_image_size), (init
    paths frame, None: the size its frame declares) or None where
    init_paths_size is 0), once the header has passed FORMAT.md 2's
    checks."""
    if desc is None:
        raise KmsError("no kallmodsyms note", "no-note")
    if len(desc) < HEADER_SIZE or desc[:4] != MAGIC:
        raise KmsError("bad note header", "bad-header")
    (version, header_size, flags, payload_size, image_size, paths_size,
     paths_image_size, init_paths_size) = struct.unpack_from("<HHIIIIII",
                                                             desc, 4)
    if version != VERSION:
        raise KmsError("format version %u, these helpers read version %u"
                       % (version, VERSION), "bad-version")
    paths_at = HEADER_SIZE + payload_size
    init_at = paths_at + paths_size
    end = init_at + init_paths_size
    if (header_size != HEADER_SIZE or flags != FLAGS_REQUIRED or
            payload_size > len(desc) - HEADER_SIZE or
            paths_size > len(desc) - paths_at or
            init_paths_size > len(desc) - init_at or
            any(desc[end:]) or
            not IMAGE_HEADER_SIZE <= image_size <= IMAGE_MAX_SIZE or
            not PATHS_HEADER_SIZE <= paths_image_size <= PATHS_MAX_SIZE):
        raise KmsError("bad note header", "bad-header")
    return ((bytes(desc[HEADER_SIZE:paths_at]), image_size),
            (bytes(desc[paths_at:init_at]), paths_image_size),
            (bytes(desc[init_at:end]), None) if init_paths_size else None)


def _expand(frames, k, decompressor):
    """Frame @k of _frames(), checked and decompressed (FORMAT.md 2).
    The init paths frame's image size is the content size it declares,
    a paths image's header to 64 MiB."""
    payload, size = frames[k]
    declared = _frame_content_size(payload, _FRAMES[k])
    if size is None:
        if not PATHS_HEADER_SIZE <= declared <= PATHS_MAX_SIZE:
            raise KmsError("%s declares %u bytes, not %u to %u"
                           % (_FRAMES[k][0], declared, PATHS_HEADER_SIZE,
                              PATHS_MAX_SIZE), "bad-frame")
        size = declared
    if declared != size:
        raise KmsError("%s is not one zstd frame of the %s" % _FRAMES[k][:2],
                       "bad-frame")
    return _decompress(payload, size, _FRAMES[k], decompressor)


def decode(desc, decompressor=None):
    """The image (bytes) of a blob, in its stored form (FORMAT.md 3.8):
    header checks, then the image's zstd frame, decompressed and its
    checksum verified (FORMAT.md 2).  The paths frames are not looked at:
    load() is the whole blob.
    decompressor: one of DECOMPRESSORS to force a way, None for the best."""
    return _expand(_frames(desc), 0, decompressor)


def load(desc, decompressor=None):
    """The checked Tables of a blob, its paths images included, in
    FORMAT.md 2's order: the header, the image's frame, the image
    (3-3.8), then the paths frame and the paths image, then the init
    paths frame and its image, where there is one (3.9).
    decompressor: as decode()'s."""
    frames = _frames(desc)
    tables = Tables(_expand(frames, 0, decompressor))
    tables.paths_image = Paths(_expand(frames, 1, decompressor))
    if frames[2] is not None:
        tables.init_paths_image = Paths(_expand(frames, 2, decompressor),
                                        after=tables.paths_image.end)
    return tables


# A string table byte that is neither NUL nor printable ASCII (FORMAT.md 3.4).
_NOT_PRINTABLE = re.compile(rb"[^\x00\x21-\x7e]")


def _arrays(image):
    """The image header's counts and arrays, checked to lie inside the
    image and apart (FORMAT.md 3)."""
    if len(image) < IMAGE_HEADER_SIZE:
        raise KmsError("image is shorter than its header", "bad-header")
    (nr_sections, sections_off, nr_ranges, starts_off, robj_off, nr_objects,
     objects_off, nr_words, modlists_off, strtab_size, strtab_off,
     nr_modules) = struct.unpack_from("<12I", image, 0)
    width = 2 if nr_objects <= NARROW_OBJECTS_MAX else 4
    extents = []
    for what, off, size in (
            ("sections", sections_off, nr_sections * SECTION_SIZE),
            ("range starts", starts_off, nr_ranges * START_SIZE),
            ("range objects", robj_off, nr_ranges * width),
            ("objects", objects_off, nr_objects * OBJECT_SIZE),
            ("module lists", modlists_off, nr_words * 4),
            ("strings", strtab_off, strtab_size)):
        if off % 4 or off < IMAGE_HEADER_SIZE or off + size > len(image):
            raise KmsError("%s (offset %u, %u bytes) lie outside the image"
                           % (what, off, size), "bad-offset")
        extents.append((off, off + size))
    extents.sort()
    for a, b in zip(extents, extents[1:]):
        if b[0] < a[1]:
            raise KmsError("tables overlap", "overlap")
    return {"sections": (sections_off, nr_sections),
            "ranges": (starts_off, robj_off, nr_ranges, width),
            "objects": (objects_off, nr_objects),
            "modlists": (modlists_off, nr_words),
            "strtab": (strtab_off, strtab_size), "nr_modules": nr_modules}


class Tables:
    """The checked tables of one image (FORMAT.md section 3): as decode()
    returns it, in its stored form (3.8), or restored, as a kernel keeps
    it in memory (section 5) with stored=False.  load() adds the blob's
    checked paths images (3.9) as paths_image and init_paths_image (None
    where the blob has none), which paths and path_at() read as one;
    Tables made from an image alone have neither."""

    paths_image = None
    init_paths_image = None

    def __init__(self, image, stored=True):
        image = bytes(image)
        a = _arrays(image)
        self.nr_modules = a["nr_modules"]
        strtab_off, strtab_size = a["strtab"]
        strtab = image[strtab_off:strtab_off + strtab_size]
        if not strtab or strtab[-1] != 0:
            raise KmsError("string table is not NUL-terminated", "bad-strtab")
        bad = _NOT_PRINTABLE.search(strtab)
        if bad:
            raise KmsError("string table byte %u is not printable"
                           % bad.start(), "bad-strtab")
        self._strtab = strtab
        self._read_modlists(image, *a["modlists"])
        self._read_objects(image, *a["objects"])
        self._read_sections(image, *a["sections"], a["ranges"][2])
        self._read_ranges(image, *a["ranges"], stored)
        self.image_size = len(image)
        self.nr_modlist_words = a["modlists"][1]
        self.strtab_size = strtab_size

    def _read_modlists(self, image, off, nr_words):
        words = struct.unpack_from("<%uI" % nr_words, image, off)
        self._lists = {}
        i = 0
        while i < nr_words:
            n = words[i]
            if not n or n > nr_words - i - 1:
                raise KmsError("module list at word %u is malformed" % i,
                               "bad-modlist")
            names = [self._string(o, "module list at word %u" % i,
                                  "bad-modlist")
                     for o in words[i + 1:i + 1 + n]]
            if any(x >= y for x, y in zip(names, names[1:])):
                raise KmsError("module list at word %u is malformed" % i,
                               "bad-modlist")
            self._lists[i] = names
            i += n + 1

    def _read_objects(self, image, off, nr_objects):
        obj_words = struct.unpack_from("<%uI" % (2 * nr_objects), image, off)
        self.objects = []
        for k in range(nr_objects):
            lst, name = obj_words[2 * k], obj_words[2 * k + 1]
            if lst != NONE and lst not in self._lists:
                raise KmsError("object %u is malformed" % k, "bad-object")
            self.objects.append((
                self._lists[lst] if lst != NONE else [],
                self._string(name, "object %u" % k, "bad-object")
                if name != NONE else None))

    def _read_sections(self, image, off, nr_sections, nr_ranges):
        """self.sections: [class, first range, number of ranges, start
        (filled in by _read_ranges), end] lists (FORMAT.md 3.2)."""
        words = struct.unpack_from("<%uI" % (3 * nr_sections), image, off)
        self.sections = []
        first = 0
        for k in range(nr_sections):
            cls, n, end = words[3 * k:3 * k + 3]
            if cls >= NR_CLASSES:
                raise KmsError("section %u has unknown class %u (these "
                               "helpers know 0-%u)" % (k, cls, NR_CLASSES - 1),
                               "unknown-class")
            if not n:
                raise KmsError("section %u has no ranges" % k, "bad-section")
            self.sections.append([cls, first, n, None, end])
            first += n
        if first != nr_ranges:
            raise KmsError("sections hold %u ranges, the header says %u"
                           % (first, nr_ranges), "bad-section")

    def _restore(self, image, starts_off, robj_off, nr_ranges, width):
        """The two range columns of a stored image (FORMAT.md 3.8): byte
        planes transposed back, each section's starts summed."""
        diffs = column(image, starts_off, nr_ranges, 4)
        starts = []
        for _cls, first, n, _start, _end in self.sections:
            total = 0
            for d in diffs[first:first + n]:
                total = (total + d) & 0xFFFFFFFF
                starts.append(total)
        return starts, column(image, robj_off, nr_ranges, width)

    def _read_ranges(self, image, starts_off, robj_off, nr_ranges, width,
                     stored):
        if stored:
            self.starts, objs = self._restore(image, starts_off, robj_off,
                                              nr_ranges, width)
        else:
            self.starts = list(struct.unpack_from("<%uI" % nr_ranges, image,
                                                  starts_off))
            objs = struct.unpack_from("<%u%s" % (nr_ranges, "HI"[width == 4]),
                                      image, robj_off)
        self.range_objects = [NONE if width == 2 and o == NONE16 else o
                              for o in objs]
        last_end = {}
        for k, sec in enumerate(self.sections):
            cls, first, n, _, end = sec
            for i in range(first, first + n):
                start, obj = self.starts[i], self.range_objects[i]
                if ((i > first and start <= self.starts[i - 1]) or
                        start >= end or
                        (obj != NONE and obj >= len(self.objects)) or
                        (i > first and obj == self.range_objects[i - 1])):
                    raise KmsError("range %u is malformed" % i, "bad-range")
            sec[3] = self.starts[first]
            base = class_base(cls)
            if base in last_end and sec[3] < last_end[base]:
                raise KmsError("section %u starts before the end of the "
                               "previous one" % k, "bad-section")
            last_end[base] = end

    def _string(self, off, what, reason):
        s = self._strtab
        if off >= len(s) or not s[off] or (off and s[off - 1]):
            raise KmsError("%s is malformed" % what, reason)
        return s[off:s.index(b"\0", off)].decode("ascii")

    def section_at(self, offset, base=BASE_TEXT):
        """The index in self.sections of the section holding @offset from
        @base (BASE_TEXT: _text, BASE_PERCPU: __per_cpu_start), or None:
        an address in no section is in no class."""
        for k, (cls, _, _, start, end) in enumerate(self.sections):
            if class_base(cls) == base and start <= offset < end:
                return k
        return None

    def object_at(self, offset, base=BASE_TEXT):
        """The object index of @offset from @base, or NONE."""
        k = self.section_at(offset, base)
        if k is None:
            return NONE
        _, first, n, _, _ = self.sections[k]
        i = bisect.bisect_right(self.starts, offset, first, first + n) - 1
        return self.range_objects[i]

    def symbol_object(self, addr, type_, text, percpu_start=None):
        """The object of a core-kernel symbol at @addr of type @type_, or
        NONE (FORMAT.md 4): per-CPU data first, by its offset from
        @percpu_start (None: unknown) whatever the type, a per-CPU
        section's gap included; no other absolute symbol; executable
        classes for text types only."""
        if (percpu_start is not None and addr >= percpu_start and
                self.section_at(addr - percpu_start, BASE_PERCPU)
                is not None):
            return self.object_at(addr - percpu_start, BASE_PERCPU)
        if type_ in "Aa" or addr < text:
            return NONE
        k = self.section_at(addr - text)
        if k is None or (self.sections[k][0] in (0, 1) and
                         type_ not in "tTwW"):
            return NONE
        return self.object_at(addr - text)

    @property
    def paths_images(self):
        """The paths images there are, in address order: the paths
        image, then the init paths image, whose pieces start at or after
        the paths image's end (3.9)."""
        return [p for p in (self.paths_image, self.init_paths_image) if p]

    @property
    def paths(self):
        """The paths of both paths images, each once: the paths image's
        in its order, then the init paths image's it lacks; [] without
        one."""
        found = {}
        for p in self.paths_images:
            found.update(dict.fromkeys(p.paths))
        return list(found)

    def path_at(self, offset):
        """The full path of the object file of the executable byte at
        @offset from _text (FORMAT.md 3.9), in whichever paths image has
        a piece that holds it, or None: no path, or no paths image."""
        for p in self.paths_images:
            if offset < p.end:
                return p.path_at(offset)
        return None

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
