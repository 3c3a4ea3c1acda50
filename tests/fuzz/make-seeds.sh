#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the note seeds of tests/fuzz/corpus/ with the generator in build/,
# as a format change needs (FORMAT.md 6): every-class tables of
#   blob/fixture-note        the unit fixture's note record (a sidecar file)
#   blob/fixture-raw         its descriptor alone (a bare blob)
#   blob/fixture-padded      the record padded inside its descriptor to the
#                            next multiple of 64 bytes, as a linked note is
#   blob/linux-small-notes   the small 6.12 test kernel's .notes, its
#                            kallmodsyms note written again by this generator
#   kernel_image/*.img       the stored images (FORMAT.md 3.8) of both, which
#                            the kernel_image target wraps in a note
# and the same notes for kernel_note.
#
# usage: tests/fuzz/make-seeds.sh [BUILD]
#   BUILD: the small kernel's build directory (default: the kernel cache's
#   linux-6.12-small/build)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
gen=$top/build/kallmodsyms-gen
corpus=$top/tests/fuzz/corpus
# shellcheck source=SCRIPTDIR/../kernel/env.sh
. "$top/tests/kernel/env.sh"
small=${1:-$kms_cache/linux-6.12-small/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$gen" ] || { echo "$gen is not built (make)" >&2; exit 1; }
[ -f "$small/vmlinux" ] || { echo "$small/vmlinux: no such kernel" >&2; exit 1; }

"$top/tests/unit/build-fixture.sh" "$tmp/fx" direct > /dev/null
"$gen" -q --all-classes -f sidecar -o "$tmp/fixture.kms" "$tmp/fx/vmlinux"
"$gen" -q --all-classes -f sidecar -b "$small" -m "$small/vmlinux.map" \
	-o "$tmp/small.kms" "$small/vmlinux"
objcopy -O binary --only-section=.notes "$small/vmlinux" "$tmp/notes"

python3 - "$tmp" "$corpus" "$top/python" <<'EOF'
import struct
import sys

tmp, corpus, helpers = sys.argv[1:]
sys.path.insert(0, helpers)
from kallmodsyms.blob import decode, find_note  # noqa: E402


def records(data):
    """(offset, end, name, descriptor offset, descriptor size) of each."""
    pos = 0
    while pos + 12 <= len(data):
        namesz, descsz, _type = struct.unpack_from("<3I", data, pos)
        desc = pos + 12 + (namesz + 3) // 4 * 4
        end = desc + (descsz + 3) // 4 * 4
        yield pos, end, data[pos + 12:pos + 11 + namesz], desc, descsz
        pos = end


def record(desc):
    """The kallmodsyms note record of descriptor @desc."""
    return (struct.pack("<3I", 12, len(desc), 0x4b4d5301) +
            b"kallmodsyms\0" + desc + b"\0" * (-len(desc) % 4))


def write(name, data, *targets):
    for target in targets:
        with open("%s/%s/%s" % (corpus, target, name), "wb") as f:
            f.write(data)


fixture = open(tmp + "/fixture.kms", "rb").read()
desc = bytes(find_note(fixture))
write("fixture-note", fixture, "blob", "kernel_note")
write("fixture-raw", desc, "blob")
write("fixture-padded", record(desc + b"\0" * (-len(desc) % 64 or 64)),
      "blob", "kernel_note")
write("fixture.img", decode(desc), "kernel_image")

notes = open(tmp + "/notes", "rb").read()
small = bytes(find_note(open(tmp + "/small.kms", "rb").read()))
out = b""
for pos, end, name, _off, _size in records(notes):
    out += record(small) if name == b"kallmodsyms" else notes[pos:end]
write("linux-small-notes", out, "blob", "kernel_note")
write("linux-small.img", decode(small), "kernel_image")
EOF
