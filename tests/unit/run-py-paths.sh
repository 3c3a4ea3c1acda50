#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The Python decoder's paths frame (python/kallmodsyms/paths.py, blob.py's
# load(); sidecar/FORMAT.md 2 and 3.9), on blobs that unit/mkblob.py
# writes from the format document: each rule of the header and of the
# paths image broken once, judged by tests/conformance/judge.py through
# each way blob.py decompresses, against the verdicts and path lines of
# FORMAT.md 7.1 written out by hand; then path_at() with 4-byte path
# numbers, and tables made from an image alone.  Python and the zstd
# program only: no generator, no kernel.
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


def case(name, desc):
    with open("%s/%s.kms" % (out, name), "wb") as f:
        f.write(note(desc))


def paths(name, pieces=PIECES, end=0x100, names=PATHS, **kw):
    case(name, blob(img, paths_image(pieces, end, names, **kw)))


case("valid", blob(img, good))
case("valid-padded", blob(img, good, padding=b"\0" * 7))
paths("valid-from-0", [(0, 0), (0x40, None)], 0x41)
paths("valid-one", [(0x20, 0)], 0x21, ["a.o"])
case("version-3", blob(img, good, version=3))
case("header-reserved", blob(img, good, reserved=1))
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
paths("paths-no-nul", strings=b"fs/fat/cache.o\0mm/slab.o")
paths("paths-fewer", nr_paths=3)
paths("paths-more", strings=b"fs/fat/cache.o\0mm/slab.o\0x.o\0")
paths("paths-empty", names=["fs/fat/cache.o", ""])
paths("paths-control", names=["fs/fat/cache.o", "mm/sl\x01ab.o"])
paths("paths-high", strings=b"fs/fat/cache.o\0mm/\xe9.o\0")
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
valid accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=4 paths=2 paths-image=61
valid at 0xf -
valid at 0x10 t {cache.o}
valid at 0xff t {cache.o}
valid at 0x100 -
valid-from-0 accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=2 paths=2 paths-image=49
valid-one accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=1 paths=1 paths-image=22
valid-padded accept sections=1 ranges=1 attributions=1 modules=0 modlist-words=0 strtab=8 image=84 pieces=4 paths=2 paths-image=61
bad-frame: frame-paths-empty frame-paths-no-checksum frame-paths-no-size frame-paths-size frame-paths-skippable frame-paths-truncated frame-paths-two
bad-header: header-padding header-paths-image-11 header-paths-image-64m header-paths-past header-reserved
bad-offset: image-first
bad-paths: paths-arrays-past paths-control paths-double-slash paths-empty paths-fewer paths-high paths-leading-slash paths-more paths-no-nul paths-no-paths paths-no-pieces paths-number paths-same paths-same-none paths-space paths-start-end paths-start-equal paths-start-wraps paths-trailing-slash
bad-version: version-3
bad-zstd: zstd-paths-checksum
valid path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 -
valid-from-0 path: 0x0 fs/fat/cache.o 0x3f fs/fat/cache.o 0x40 - 0x41 -
valid-one path: 0x1f - 0x20 a.o 0x21 -
valid-padded path: 0xf - 0x10 fs/fat/cache.o 0x2f fs/fat/cache.o 0x30 - 0x3f - 0x40 mm/slab.o 0x7f mm/slab.o 0x80 fs/fat/cache.o 0xff fs/fat/cache.o 0x100 -
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
paths-arrays-past	paths image: 100 pieces need 612 bytes, it has 61
paths-control	paths image: path 1 byte 5 is not printable
paths-double-slash	paths image: path 1 holds '//'
paths-empty	paths image: path 1 is empty
paths-fewer	paths image: its strings are not 3 NUL-terminated strings
paths-high	paths image: path 1 byte 3 is not printable
paths-leading-slash	paths image: path 1 starts with '/'
paths-more	paths image: its strings are not 2 NUL-terminated strings
paths-no-nul	paths image: its strings are not 2 NUL-terminated strings
paths-no-paths	paths image: 1 pieces, 0 paths: at least one of each
paths-no-pieces	paths image: 0 pieces, 2 paths: at least one of each
paths-number	paths image: piece 1 names path 2 of 2
paths-same	paths image: pieces 0 and 1 have one path
paths-same-none	paths image: pieces 1 and 2 have one path
paths-space	paths image: path 1 byte 5 is not printable
paths-start-end	paths image: piece 1 starts at 0x100, not below the end 0x100
paths-start-equal	paths image: piece 1 starts at 0x10, not after piece 0 at 0x10
paths-start-wraps	paths image: piece 1 starts at 0x8, not after piece 0 at 0x10
paths-trailing-slash	paths image: path 1 ends with '/'
EOF

# path_at() with 4-byte path numbers (more than 65535 paths) and at the
# last 2-byte one; tables made from an image alone have no paths; decode()
# gives the image of a blob whose paths frame is damaged (it does not look
# at it: load() does).
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
good = paths_image([(0x10, 0)], 0x20, ["a.o"])
t = kms.Tables(kms.decode(blob(img, good, paths_frame=b"not a frame")))
print(t.paths, t.path_at(0x10), len(t.starts))
PY
testrun_compare "$python" wide.py "$tests_dir/unit" "$top/python" <<'EOF'
65535 65535 ['d/f65534.o', 'd/f65534.o', None, None, 'd/f0.o', 'd/f0.o', None]
65536 65536 ['d/f65535.o', 'd/f65535.o', None, None, 'd/f0.o', 'd/f0.o', None]
[] None 1
EOF

finish
