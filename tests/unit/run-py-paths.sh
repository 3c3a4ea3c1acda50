#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The Python decoder's paths frames (python/kallmodsyms/paths.py, blob.py's
# load(); sidecar/FORMAT.md 2 and 3.9), on blobs that unit/mkblob.py
# writes from the format document: each rule of the header, of the paths
# frame, of the init paths frame and of the paths images broken once,
# judged by tests/conformance/judge.py through each way blob.py
# decompresses, against the verdicts and path lines of FORMAT.md 7.1
# written out by hand; then path_at() with 4-byte path numbers, the
# paths of both images as one, and tables made from an image alone.
# Python and the zstd program only: no generator, no kernel.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

python=${KMS_PYTHON:-/usr/bin/python3}
command -v zstd > /dev/null || { echo "no zstd program"; exit 77; }
cd "$tmp" || exit 1
mkdir cases

"$python" - "$tests_dir/unit" cases <<'PY' || fail "mkblob.py"
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkblob import blob, frame, image, note, paths_image

out = sys.argv[2]
# One text section [0x10, 0x100) of one named core-kernel object.
img = image([(0, 0x100, [(0x10, 0)])], [(None, 0)], [], b"cache.o\0", 0)
PATHS = ["fs/fat/cache.o", "mm/slab.o"]
PIECES = [(0x10, 0), (0x30, None), (0x40, 1), (0x80, 0)]
good = paths_image(PIECES, 0x100, PATHS)
pframe = frame(good)
# The same with init text [0x100, 0x140) of the same object, its paths
# (one of them also the text's) in the init paths image.
iimg = image([(0, 0x100, [(0x10, 0)]), (1, 0x140, [(0x100, 0)])],
             [(None, 0)], [], b"cache.o\0", 0)
init = paths_image([(0x100, 0), (0x120, 1)], 0x140,
                   ["fs/fat/inode.o", "fs/fat/cache.o"])
iframe = frame(init)


def case(name, desc):
    with open("%s/%s.kms" % (out, name), "wb") as f:
        f.write(note(desc))


def paths(name, pieces=PIECES, end=0x100, names=PATHS, **kw):
    case(name, blob(img, paths_image(pieces, end, names, **kw)))


def init_paths(name, pieces, end=0x140, names=("a.o", "b.o"), **kw):
    case(name, blob(iimg, good, paths_image(pieces, end, names, **kw)))


case("valid", blob(img, good))
case("valid-padded", blob(img, good, padding=b"\0" * 7))
paths("valid-from-0", [(0, 0), (0x40, None)], 0x41)
paths("valid-one", [(0x20, 0)], 0x21, ["a.o"])
case("version-3", blob(img, good, version=3))
case("header-init-size", blob(img, good, init_paths_size=1))
case("header-paths-past", blob(img, good, paths_size=len(pframe) + 1))
case("header-padding", blob(img, good, padding=b"\0\1"))
case("header-paths-image-11", blob(img, good, paths_image_size=11))
case("header-paths-image-64m", blob(img, good,
                                    paths_image_size=(64 << 20) + 1))
case("frame-paths-empty", blob(img, good, paths_frame=b""))
case("frame-paths-skippable", blob(img, good, paths_frame=struct.pack(
    "<2I", 0x184D2A50, len(good)) + good))
case("frame-paths-no-checksum", blob(img, good,
                                     paths_frame=frame(good, "--no-check")))
case("frame-paths-no-size", blob(img, good, paths_frame=frame(
    good, "--no-content-size")))
case("frame-paths-two", blob(img, good, paths_frame=pframe + pframe))
case("frame-paths-truncated", blob(img, good, paths_frame=pframe[:-1]))
case("frame-paths-size", blob(img, good, paths_image_size=len(good) + 1))
case("zstd-paths-checksum", blob(img, good, paths_frame=pframe[:-1] +
                                 bytes([pframe[-1] ^ 1])))
# Two rules broken: the image is checked before the paths frame.
case("image-first", blob(img[:40] + struct.pack("<I", 2) + img[44:], good,
                         paths_frame=pframe[:-1]))
case("paths-arrays-past", blob(img, struct.pack("<I", 100) + good[4:]))
paths("paths-no-nul", strings=b"\1fs/fat/cache.o\0\1mm/slab.o")
paths("paths-fewer", nr_paths=3)
paths("paths-more", strings=b"\1fs/fat/cache.o\0\1mm/slab.o\0\1x.o\0")
paths("paths-empty", names=["fs/fat/cache.o", ""])
paths("paths-control", names=["fs/fat/cache.o", "mm/sl\x01ab.o"])
paths("paths-high", names=["fs/fat/cache.o", "mm/\xe9.o"])
paths("paths-space", names=["fs/fat/cache.o", "mm/sl ab.o"])
paths("paths-leading-slash", names=["fs/fat/cache.o", "/mm/slab.o"])
paths("paths-trailing-slash", names=["fs/fat/cache.o", "mm/"])
paths("paths-double-slash", names=["fs/fat/cache.o", "mm//slab.o"])
paths("paths-start-equal", [(0x10, 0), (0x10, None), (0x40, 1)])
paths("paths-start-wraps", [(0x10, 0), (0x8, None), (0x40, 1)])
paths("paths-start-end", [(0x10, 0), (0x100, 1)])
paths("paths-number", [(0x10, 0), (0x30, 2)])
paths("paths-same", [(0x10, 0), (0x30, 0)])
paths("paths-same-none", [(0x10, 0), (0x30, None), (0x40, None)])
paths("paths-no-pieces", [])
paths("paths-no-paths", [(0x10, None)], names=[])
# Front coding (3.9): a path may share all of the one before it, at most.
TWO = [(0x10, 0), (0x30, 1)]
paths("valid-prefix-whole", TWO, names=["fs/fat", "fs/fat/cache.o"])
paths("paths-prefix-nul", strings=b"\1fs/fat/cache.o\0\0")
paths("paths-prefix-first", strings=b"\2fs/fat/cache.o\0\1mm/slab.o\0")
paths("paths-prefix-long", strings=b"\1fs/fat/cache.o\0\x10x\0")
paths("paths-prefix-slash", TWO, names=["fs/fat/cache.o", "fs/"])

# The init paths frame (FORMAT.md 2) and its image (3.9).
case("valid-init", blob(iimg, good, init))
case("valid-init-padded", blob(iimg, good, init, padding=b"\0" * 3))
init_paths("valid-init-gap", [(0x110, None), (0x120, 0)], 0x130, ["a.o"])
init_paths("valid-init-text-path", [(0x100, 0)], 0x101, ["mm/slab.o"])
case("header-init-past", blob(iimg, good, init,
                              init_paths_size=len(iframe) + 1))
case("header-init-padding", blob(iimg, good, init, padding=b"\0\1"))
case("frame-init-no-magic", blob(iimg, good, init_paths_frame=b"\0" * 8))
case("frame-init-skippable", blob(iimg, good, init_paths_frame=struct.pack(
    "<2I", 0x184D2A50, len(init)) + init))
case("frame-init-no-checksum", blob(iimg, good, init_paths_frame=frame(
    init, "--no-check")))
case("frame-init-no-size", blob(iimg, good, init_paths_frame=frame(
    init, "--no-content-size")))
case("frame-init-two", blob(iimg, good, init_paths_frame=iframe + iframe))
case("frame-init-truncated", blob(iimg, good, init_paths_frame=iframe[:-1]))
case("frame-init-11", blob(iimg, good, init_paths_frame=frame(init[:11])))
case("frame-init-64m", blob(iimg, good, init_paths_frame=frame(
    bytes((64 << 20) + 1), "-1")))
case("zstd-init-checksum", blob(iimg, good, init_paths_frame=iframe[:-1] +
                                bytes([iframe[-1] ^ 1])))
# The paths frame is checked before the init paths frame.
case("paths-first", blob(iimg, struct.pack("<I", 100) + good[4:],
                         init_paths_frame=iframe[:-1]))
init_paths("paths-init-before-end", [(0xff, 0), (0x120, 1)])
init_paths("paths-init-same", [(0x100, 0), (0x120, 0)])
init_paths("paths-init-end", [(0x100, 0), (0x140, 1)])
init_paths("paths-init-no-nul", [(0x100, 0)], strings=b"\1a.o")
# Its strings are front-coded apart from the paths image's.
init_paths("paths-init-prefix-first", [(0x100, 0), (0x120, 1)],
           strings=b"\2a.o\0\1b.o\0")
PY

# judge WAY: the cases' verdicts (FORMAT.md 7.1), the refused ones by
# class on one line a class, the annotation lines of one (every case has
# the same image), then each accepted one's path lines on one line
# ("NAME path: 0xADDR PATH ...").
judge() {
	"$python" "$tests_dir/conformance/judge.py" "$top/python" "$1" -a \
		cases/*.kms | LC_ALL=C sort -s -k1,1 | awk '
		$2 == "refuse" { refused[$3] = refused[$3] " " $1; next }
		$2 == "path" { paths[$1] = paths[$1] " " $3 " " $4; next }
		$2 == "at" && $1 != "valid" { next }
		{ print }
		END {
			for (c in refused) print c ":" refused[c] | "LC_ALL=C sort"
			close("LC_ALL=C sort")
			for (n in paths) print n " path:" paths[n] | "LC_ALL=C sort"
		}'
}

cat > want <<'EOF'
valid accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=4 paths=2 paths-image=63 init-pieces=0 init-paths=0 init-paths-image=0
valid at 0xf -
valid at 0x10 t {cache.o}
valid at 0xff t {cache.o}
valid at 0x100 -
valid-from-0 accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=2 paths=2 paths-image=51 init-pieces=0 init-paths=0 init-paths-image=0
valid-init accept sections=2 ranges=2 attributions=1 modules=0 modlist-words=0 strtab=8 image=100 pieces=4 paths=2 paths-image=63 init-pieces=2 init-paths=2 init-paths-image=49
valid-init-gap accept sections=2 ranges=2 attributions=1 modules=0 modlist-words=0 strtab=8 image=100 pieces=4 paths=2 paths-image=63 init-pieces=2 init-paths=1 init-paths-image=29
valid-init-padded accept sections=2 ranges=2 attributions=1 modules=0 modlist-words=0 strtab=8 image=100 pieces=4 paths=2 paths-image=63 init-pieces=2 init-paths=2 init-paths-image=49
valid-init-text-path accept sections=2 ranges=2 attributions=1 modules=0 modlist-words=0 strtab=8 image=100 pieces=4 paths=2 paths-image=63 init-pieces=1 init-paths=1 init-paths-image=29
valid-one accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=1 paths=1 paths-image=23 init-pieces=0 init-paths=0 init-paths-image=0
valid-padded accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=4 paths=2 paths-image=63 init-pieces=0 init-paths=0 init-paths-image=0
valid-prefix-whole accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=2 paths=2 paths-image=42 init-pieces=0 init-paths=0 init-paths-image=0
bad-frame: frame-init-11 frame-init-64m frame-init-no-checksum frame-init-no-magic frame-init-no-size frame-init-skippable frame-init-truncated frame-init-two frame-paths-empty frame-paths-no-checksum frame-paths-no-size frame-paths-size frame-paths-skippable frame-paths-truncated frame-paths-two
bad-header: header-init-padding header-init-past header-init-size header-padding header-paths-image-11 header-paths-image-64m header-paths-past
bad-offset: image-first
bad-paths: paths-arrays-past paths-control paths-double-slash paths-empty paths-fewer paths-first paths-high paths-init-before-end paths-init-end paths-init-no-nul paths-init-prefix-first paths-init-same paths-leading-slash paths-more paths-no-nul paths-no-paths paths-no-pieces paths-number paths-prefix-first paths-prefix-long paths-prefix-nul paths-prefix-slash paths-same paths-same-none paths-space paths-start-end paths-start-equal paths-start-wraps paths-trailing-slash
bad-version: version-3
bad-zstd: zstd-init-checksum zstd-paths-checksum
valid path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 -
valid-from-0 path: 0x0 fs/fat/cache.o 0x3f fs/fat/cache.o 0x40 - 0x41 -
valid-init path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 fs/fat/inode.o 0x11f fs/fat/inode.o 0x120 fs/fat/cache.o 0x13f fs/fat/cache.o 0x140 -
valid-init-gap path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 - 0x10f - 0x110 - 0x11f - 0x120 a.o 0x12f a.o 0x130 -
valid-init-padded path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 fs/fat/inode.o 0x11f fs/fat/inode.o 0x120 fs/fat/cache.o 0x13f fs/fat/cache.o 0x140 -
valid-init-text-path path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 mm/slab.o 0x101 -
valid-one path: 0x1f - 0x20 a.o 0x21 -
valid-padded path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 -
valid-prefix-whole path: 0xf - 0x10 fs/fat 0x2f fs/fat 0x30 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 -
EOF
ways=program
if "$python" -c 'import zstandard' 2> /dev/null; then
	ways="zstandard program"
else
	echo "zstandard: skipped, no zstandard module in $python"
fi
for way in $ways; do
	testrun_compare judge "$way" < want
done

# The messages of the paths image's refusals name the problem.
messages() {
	"$python" "$tests_dir/conformance/judge.py" "$top/python" program -v \
		cases/paths-*.kms | sed 's/ refuse bad-paths//' | LC_ALL=C sort
}
testrun_compare messages <<'EOF'
paths-arrays-past	paths image: 100 pieces need 612 bytes, it has 63
paths-control	paths image: path 1 byte 5 is not printable
paths-double-slash	paths image: path 1 holds '//'
paths-empty	paths image: path 1 is empty
paths-fewer	paths image: its strings are not 3 NUL-terminated strings
paths-first	paths image: 100 pieces need 612 bytes, it has 63
paths-high	paths image: path 1 byte 3 is not printable
paths-init-before-end	init paths image: piece 0 starts at 0xff, before the paths image's end 0x100
paths-init-end	init paths image: piece 1 starts at 0x140, not below the end 0x140
paths-init-no-nul	init paths image: its strings are not 2 NUL-terminated strings
paths-init-prefix-first	init paths image: string 0 shares 1 bytes with no path before it
paths-init-same	init paths image: pieces 0 and 1 have one path
paths-leading-slash	paths image: path 1 starts with '/'
paths-more	paths image: its strings are not 2 NUL-terminated strings
paths-no-nul	paths image: its strings are not 2 NUL-terminated strings
paths-no-paths	paths image: 1 pieces, 0 paths: at least one of each
paths-no-pieces	paths image: 0 pieces, 2 paths: at least one of each
paths-number	paths image: piece 1 names path 2 of 2
paths-prefix-first	paths image: string 0 shares 1 bytes with no path before it
paths-prefix-long	paths image: string 1 shares 15 bytes with a path of 14
paths-prefix-nul	paths image: string 1 has no prefix length: it starts with NUL
paths-prefix-slash	paths image: path 1 ends with '/'
paths-same	paths image: pieces 0 and 1 have one path
paths-same-none	paths image: pieces 1 and 2 have one path
paths-space	paths image: path 1 byte 5 is not printable
paths-start-end	paths image: piece 1 starts at 0x100, not below the end 0x100
paths-start-equal	paths image: piece 1 starts at 0x10, not after piece 0 at 0x10
paths-start-wraps	paths image: piece 1 starts at 0x8, not after piece 0 at 0x10
paths-trailing-slash	paths image: path 1 ends with '/'
EOF

# path_at() with 4-byte path numbers (more than 65535 paths) and at the
# last 2-byte one, in the paths image and in the init paths image; a
# path that shares more than front coding's 254 bytes; the
# paths of both images as one list, each once, the paths image's first;
# tables made from an image alone have no paths; decode() gives the image
# of a blob whose paths frames are damaged (it does not look at them:
# load() does).
cat > wide.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from mkblob import blob, image, paths_image
from kallmodsyms import blob as kms

img = image([(0, 0x100, [(0x10, 0)])], [(None, 0)], [], b"cache.o\0", 0)
for n in (65535, 65536):
    names = ["d/f%u.o" % i for i in range(n)]
    t = kms.load(blob(img, paths_image([(0, n - 1), (8, None), (16, 0)], 24,
                                       names)))
    print(n, len(t.paths), [t.path_at(a) for a in (0, 7, 8, 15, 16, 23, 24)])
    t = kms.load(blob(img, paths_image([(0, 0)], 8, ["d/f1.o"]),
                      paths_image([(8, n - 1), (16, None), (24, 1)], 32,
                                  names)))
    print(n, len(t.paths), t.paths[:3], t.paths[-1],
          [t.path_at(a) for a in (7, 8, 15, 16, 23, 24, 31, 32)])
# A path that shares more than 254 bytes with the one before it.
long = ["d/" + "x" * 300 + ".o", "d/" + "x" * 300 + "y.o"]
t = kms.load(blob(img, paths_image([(0x10, 0), (0x30, 1)], 0x100, long)))
print(t.paths == long, t.paths_image.size, t.path_at(0x30) == long[1])
good = paths_image([(0x10, 0)], 0x20, ["a.o"])
t = kms.Tables(kms.decode(blob(img, good, paths_frame=b"not a frame",
                               init_paths_frame=b"nor this")))
print(t.paths, t.path_at(0x10), len(t.starts))
PY
testrun_compare "$python" wide.py "$tests_dir/unit" "$top/python" <<'EOF'
65535 65535 ['d/f65534.o', 'd/f65534.o', None, None, 'd/f0.o', 'd/f0.o', None]
65535 65535 ['d/f1.o', 'd/f0.o', 'd/f2.o'] d/f65534.o ['d/f1.o', 'd/f65534.o', 'd/f65534.o', None, None, 'd/f1.o', 'd/f1.o', None]
65536 65536 ['d/f65535.o', 'd/f65535.o', None, None, 'd/f0.o', 'd/f0.o', None]
65536 65536 ['d/f1.o', 'd/f0.o', 'd/f2.o'] d/f65535.o ['d/f1.o', 'd/f65535.o', 'd/f65535.o', None, None, 'd/f1.o', 'd/f1.o', None]
True 383 True
[] None 1
EOF

finish
