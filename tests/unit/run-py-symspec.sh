#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The gdb helpers' symbol specifications (python/kallmodsyms/symspec.py)
# with paths images (sidecar/FORMAT.md 3.9), without DWARF: {obj.o} that
# the listing prints for an instance picks those printed so; otherwise
# {obj.o} and obj.o: name a function's object by any component suffix of
# its full path, in whichever image holds it (init text's in the init
# paths image), and no other object; code without a path and data keep
# the printed name's rules (unsure where it cannot tell); tables without
# a paths image too.  unit/run-gdb-symspec.sh holds these rules to the
# inspector's on the fixture; here the note is unit/mkblob.py's and the
# symbols a list, so that each rule has a case, the answers written out
# by hand from the layout below.  Python and the zstd program only.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

python=${KMS_PYTHON:-/usr/bin/python3}
command -v zstd > /dev/null || { echo "no zstd program"; exit 77; }
cd "$tmp" || exit 1

cat > specs <<'EOF'
event_show {core.o}
event_show {events/core.o}
event_show {kernel/events/core.o}
event_show {vents/core.o}
event_show {/events/core.o}
event_show [mod_b] {b/core.o}
event_show {sort.o}
a/core.o:event_show
init_once {cache.o}
init_once {fat/cache.o}
init_once {ext9/cache.o}
fs/fat/cache.c::init_once
gap_fn {x.o}
lib/x.o:x_fn
counter {a.o}
counter {x/a.o}
init_once{fs/fat/cache.o}
mod_b:event_show{b/core.o}
setup_fn {fat/inode.o}
setup_fn {events/core.o}
setup_fn {core.o}
inode.o:setup_fn
setup_fn {slab.o}
EOF

cat > resolve.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from mkblob import blob, image, paths_image
from kallmodsyms import blob as kms
from kallmodsyms.kallsyms import Symbols
from kallmodsyms.symspec import SpecError, parse, resolve

# Text [0, 0x80) from _text, object by object (strtab offsets: mod_a 0,
# mod_b 6, ext9 12, core.o 17, sort.o 24, a.o 31; module lists at words
# 0, 2, 4), a gap at 0x60; init text [0x80, 0xa0), its paths in the init
# paths image, one of them also the text's; data [0x100, 0x120).
img = image(
    [(0, 0x80, [(0x00, 0), (0x10, 1), (0x20, 2), (0x30, 3), (0x40, 6),
                (0x50, 4), (0x60, None), (0x70, 6)]),
     (1, 0xa0, [(0x80, 6), (0x90, 0)]),
     (4, 0x120, [(0x100, 5), (0x110, 6)])],
    [(None, 17), (0, None), (2, None), (None, 24), (4, None), (None, 31),
     (None, None)],
    [1, 0, 1, 6, 1, 12], b"mod_a\0mod_b\0ext9\0core.o\0sort.o\0a.o\0", 3)
paths = paths_image(
    [(0x00, 0), (0x10, 1), (0x20, 2), (0x30, 3), (0x40, 4), (0x50, 5),
     (0x60, None), (0x70, 6)], 0x80,
    ["kernel/events/core.o", "drivers/a/core.o", "drivers/b/core.o",
     "lib/sort.o", "fs/fat/cache.o", "fs/ext9/cache.o", "lib/x.o"])
init_paths = paths_image([(0x80, 0), (0x90, 1)], 0xa0,
                         ["fs/fat/inode.o", "kernel/events/core.o"])
TEXT = 0xffffffff81000000
symbols = Symbols(*zip(*[(TEXT + o, t, n) for o, t, n in (
    (0x00, "T", "_text"), (0x00, "t", "event_show"),
    (0x10, "t", "event_show"), (0x20, "t", "event_show"),
    (0x30, "t", "event_show"), (0x40, "t", "init_once"),
    (0x50, "t", "init_once"), (0x60, "t", "gap_fn"), (0x70, "t", "x_fn"),
    (0x80, "T", "_etext"), (0x80, "t", "setup_fn"),
    (0x90, "t", "setup_fn"), (0xa0, "T", "_einittext"),
    (0x100, "d", "counter"),
    (0x110, "d", "counter"), (0x120, "D", "_edata"))]))
desc = blob(img, paths, init_paths)
tables = kms.load(desc) if sys.argv[3] == "paths" else \
    kms.Tables(kms.decode(desc))

for text in open("specs").read().splitlines():
    try:
        inst = resolve(parse(text), symbols, tables, TEXT)
    except SpecError as e:
        print('"%s": %s' % (text, e))
        continue
    annotation = tables.annotation(inst.obj)
    print("%s: +%#x%s" % (text, symbols.addresses[inst.index] - TEXT,
                          " " + annotation if annotation else ""))
PY

testrun_compare "$python" resolve.py "$tests_dir/unit" "$top/python" paths <<'EOF'
event_show {core.o}: +0x0 {core.o}
event_show {events/core.o}: +0x0 {core.o}
event_show {kernel/events/core.o}: +0x0 {core.o}
"event_show {vents/core.o}": no instance of the symbol has these qualifiers
"event_show {/events/core.o}": no instance of the symbol has these qualifiers
event_show [mod_b] {b/core.o}: +0x20 [mod_b]
event_show {sort.o}: +0x30 {sort.o}
a/core.o:event_show: +0x10 [mod_a]
"init_once {cache.o}": 2 instances of init_once match; pick one by sympos (init_once,N), [module] {objfile}, mod:, obj.o: or file.c::
	ffffffff81000040 t init_once	sympos=1
	ffffffff81000050 t init_once	[ext9]	sympos=2
init_once {fat/cache.o}: +0x40
init_once {ext9/cache.o}: +0x50 [ext9]
fs/fat/cache.c::init_once: +0x40
"gap_fn {x.o}": 1 instance of gap_fn may match: the tables do not say which object 1 of them comes from, and vmlinux has no DWARF to tell
	ffffffff81000060 t gap_fn	sympos=1 (object unknown)
lib/x.o:x_fn: +0x70
counter {a.o}: +0x100 {a.o}
"counter {x/a.o}": 2 instances of counter may match: the tables do not say which object 2 of them come from, and vmlinux has no DWARF to tell
	ffffffff81000100 d counter	{a.o}	sympos=1 (object unknown)
	ffffffff81000110 d counter	sympos=2 (object unknown)
init_once{fs/fat/cache.o}: +0x40
mod_b:event_show{b/core.o}: +0x20 [mod_b]
setup_fn {fat/inode.o}: +0x80
setup_fn {events/core.o}: +0x90 {core.o}
setup_fn {core.o}: +0x90 {core.o}
inode.o:setup_fn: +0x80
"setup_fn {slab.o}": no instance of the symbol has these qualifiers
EOF

# Without the paths image, {obj.o} is the printed name, and a suffix of
# a path the tables do not give is unsure.
"$python" resolve.py "$tests_dir/unit" "$top/python" image > image-only ||
	fail "resolve.py without the paths image"
testrun_compare head -n 9 image-only <<'EOF'
event_show {core.o}: +0x0 {core.o}
"event_show {events/core.o}": 3 instances of event_show may match: the tables do not say which object 3 of them come from, and vmlinux has no DWARF to tell
	ffffffff81000000 t event_show	{core.o}	sympos=1 (object unknown)
	ffffffff81000010 t event_show	[mod_a]	sympos=2 (object unknown)
	ffffffff81000020 t event_show	[mod_b]	sympos=3 (object unknown)
"event_show {kernel/events/core.o}": 3 instances of event_show may match: the tables do not say which object 3 of them come from, and vmlinux has no DWARF to tell
	ffffffff81000000 t event_show	{core.o}	sympos=1 (object unknown)
	ffffffff81000010 t event_show	[mod_a]	sympos=2 (object unknown)
	ffffffff81000020 t event_show	[mod_b]	sympos=3 (object unknown)
EOF

finish
