# SPDX-License-Identifier: GPL-2.0
"""The paths images of a kallmodsyms blob (sidecar/FORMAT.md 3.9): the
full path of the object file of every byte of executable code, by pieces;
the paths image holds those of text, the init paths image, where a blob
has one, those of init text.

Paths(image) takes a paths image as its frame decompresses, in its
stored form (byte planes, starts as differences, strings front-coded),
restores it and checks every rule of 3.9 before a path is given out: a
paths image that breaks one is refused with KmsError("bad-paths").
Paths(image, after=END) is an init paths image, whose first piece must
start at or after END, the paths image's end.  blob.load() makes them
for the tables it returns, once the image has passed its own checks.
"""

import bisect
import re
import struct

from .constants import NARROW_OBJECTS_MAX, NONE, NONE16, PATHS_HEADER_SIZE
from .errors import KmsError

# A path byte that is not printable ASCII other than space (FORMAT.md 3.9).
_NOT_PRINTABLE = re.compile(rb"[^\x21-\x7e]")


def column(data, off, n, width):
    """The @n values of @width bytes that @data stores in byte planes at
    @off (FORMAT.md 3.8, 3.9): byte i of plane p is byte p of value i."""
    planes = [data[off + p * n:off + (p + 1) * n] for p in range(width)]
    return [int.from_bytes(bytes(v), "little") for v in zip(*planes)]


def _strings(data, nr_paths, bad):
    """The @nr_paths paths of the front-coded strings @data at the end of
    a paths image, each decoded and checked (FORMAT.md 3.9): string j is
    a byte k + 1 (k: how many first bytes path j shares with path j - 1,
    none for the first), the rest of path j, a NUL.  @bad makes the
    refusal of a message."""
    if not data or data[-1] != 0 or data.count(0) != nr_paths:
        raise bad("its strings are not %u NUL-terminated strings"
                  % nr_paths)
    paths = []
    path = b""
    for j, raw in enumerate(data[:-1].split(b"\0")):
        if not raw:
            raise bad("string %u has no prefix length: it starts with NUL"
                      % j)
        if raw[0] - 1 > len(path):
            raise bad("string %u shares %u bytes with %s" % (
                j, raw[0] - 1, "a path of %u" % len(path) if j
                else "no path before it"))
        path = path[:raw[0] - 1] + raw[1:]
        bad_byte = _NOT_PRINTABLE.search(path)
        if bad_byte:
            raise bad("path %u byte %u is not printable"
                      % (j, bad_byte.start()))
        for broken, what in ((not path, "is empty"),
                             (path[:1] == b"/", "starts with '/'"),
                             (path[-1:] == b"/", "ends with '/'"),
                             (b"//" in path, "holds '//'")):
            if broken:
                raise bad("path %u %s" % (j, what))
        paths.append(path.decode("ascii"))
    return paths


class Paths:
    """A checked paths image: starts[i] and path_numbers[i] (None: no
    path) of piece i, end, the paths list, its size in bytes, and
    path_at().  @after: None for the paths image; for the init paths
    image, the paths image's end, at or after which its first piece
    starts (FORMAT.md 3.9)."""

    def __init__(self, image, after=None):
        image = bytes(image)
        self.name = "paths image" if after is None else "init paths image"
        bad = self._bad
        if len(image) < PATHS_HEADER_SIZE:
            raise bad("%u bytes, shorter than its header" % len(image))
        n, nr_paths, self.end = struct.unpack_from("<3I", image, 0)
        if not n or not nr_paths:
            raise bad("%u pieces, %u paths: at least one of each"
                      % (n, nr_paths))
        width = 2 if nr_paths <= NARROW_OBJECTS_MAX else 4
        strings = PATHS_HEADER_SIZE + (4 + width) * n
        if strings > len(image):
            raise bad("%u pieces need %u bytes, it has %u"
                      % (n, strings, len(image)))
        self.paths = _strings(image[strings:], nr_paths, bad)
        self.size = len(image)
        self.starts = []
        total = 0
        for d in column(image, PATHS_HEADER_SIZE, n, 4):
            total = (total + d) & 0xFFFFFFFF
            self.starts.append(total)
        none = NONE16 if width == 2 else NONE
        self.path_numbers = [None if p == none else p for p in
                             column(image, PATHS_HEADER_SIZE + 4 * n, n,
                                    width)]
        self._check_pieces(nr_paths)
        if after is not None and self.starts[0] < after:
            raise bad("piece 0 starts at %#x, before the paths image's "
                      "end %#x" % (self.starts[0], after))

    def _bad(self, message):
        """The refusal of this image for @message (FORMAT.md 7)."""
        return KmsError("%s: %s" % (self.name, message), "bad-paths")

    def _check_pieces(self, nr_paths):
        """The restored pieces: increasing, below end, known paths, no
        two adjacent ones with one path (FORMAT.md 3.9)."""
        starts, numbers, bad = self.starts, self.path_numbers, self._bad
        for i in range(1, len(starts)):
            if starts[i] <= starts[i - 1]:
                raise bad("piece %u starts at %#x, not after piece %u at "
                          "%#x" % (i, starts[i], i - 1, starts[i - 1]))
            if numbers[i] == numbers[i - 1]:
                raise bad("pieces %u and %u have one path" % (i - 1, i))
        for i, path in enumerate(numbers):
            if path is not None and path >= nr_paths:
                raise bad("piece %u names path %u of %u"
                          % (i, path, nr_paths))
        if starts[-1] >= self.end:
            raise bad("piece %u starts at %#x, not below the end %#x"
                      % (len(starts) - 1, starts[-1], self.end))

    def path_at(self, offset):
        """The path of the piece holding @offset from _text, or None: a
        piece without a path, or outside every piece."""
        i = bisect.bisect_right(self.starts, offset) - 1
        if i < 0 or offset >= self.end or self.path_numbers[i] is None:
            return None
        return self.paths[self.path_numbers[i]]
