#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The gdb helpers' port of the notation grammar
# (python/kallmodsyms/symspec.py, used by lx-kallmodsyms-lookup)
# answers as the inspector does: every input of a list, with DWARF (through
# addr2line, where gdb asks its symtabs) and without, resolved by both and
# compared line by line, errors included.  Python only: no gdb, no kernel.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables
objcopy --strip-debug "$v" nodwarf || fail "objcopy --strip-debug"
kms list -t fx.kms "$v" > list || fail "list"

cat > specs <<'EOF'
event_show
event_show,2
event_show,3+0x1
event_show,0
event_show,9
mod_a:event_show
mod-b:event_show+0x1
a/core.o:event_show
core.o:event_show
kernel/events/core.o:event_show
'lib/sort.c'::event_show
lib/sort.c::event_show
event_show@drivers/b/core.c
event_show [mod_b]
event_show {sort.o}
event_show {core.o}
event_show+0x1/0x6 {core.o}
ext9:event_show
dup_fn
dup1.o:dup_fn
x86/kernel/smp.o:show
drivers/base/core.o:show
ext9:ext9_helper,2
liquid_probe [liquid] [liquid_vf]
liquid_vf:liquid_probe
no_such_fn,1
'x.c::show
a:b:show
show,
show+zz
EOF

# C: the inspector's answer, or its error message (without "kallmodsyms: ").
c_answers() {
	local spec
	while IFS= read -r spec; do
		echo "== $spec"
		kms lookup -t fx.kms "$1" "$spec" 2>&1 | sed 's/^kallmodsyms: //'
	done < specs
}
c_answers "$v" > c-dwarf
c_answers nodwarf > c-nodwarf

cat > port.py <<'EOF'
import subprocess, sys
sys.path.insert(0, sys.argv[1])
from kallmodsyms.blob import find_note, load
from kallmodsyms.kallsyms import Symbols
from kallmodsyms.symspec import SpecError, parse, resolve

image, label, dwarf = sys.argv[2], sys.argv[3], sys.argv[4] == "1"
tables = load(find_note(open("fx.kms", "rb").read()))
addresses, types, names = [], [], []
for line in open("list"):
    a, t, n = line.split("\t")[0].split()
    addresses.append(int(a, 16)); types.append(t); names.append(n)
symbols = Symbols(addresses, types, names)
text = addresses[names.index("_text")]

def source_of(addr):
    out = subprocess.run(["addr2line", "-e", image, "%x" % addr],
                         capture_output=True, text=True).stdout
    f = out.split(":")[0]
    return [f] if f and f != "??" else None

for spec_text in open("specs").read().splitlines():
    print("== " + spec_text)
    try:
        spec = parse(spec_text)
        inst = resolve(spec, symbols, tables, text,
                       source_of if dwarf else None, label)
    except SpecError as e:
        print('"%s": %s' % (spec_text, e))
        continue
    i = inst.index
    line = "%016x %s+%#x/%#x" % (addresses[i] + spec.offset, names[i],
                                 spec.offset, symbols.size(i))
    annotation = tables.annotation(inst.obj)
    print(line + (" " + annotation if annotation else ""))
EOF
python3 port.py "$top/python" "$v" "$v" 1 > py-dwarf || fail "port.py (DWARF)"
python3 port.py "$top/python" nodwarf nodwarf 0 > py-nodwarf || fail "port.py (no DWARF)"
diff -u c-dwarf py-dwarf >&2 || fail "the Python port differs from the inspector (DWARF)"
diff -u c-nodwarf py-nodwarf >&2 || fail "the Python port differs from the inspector (no DWARF)"
grep -c '^== ' c-dwarf > count
testrun_compare cat count <<'EOF'
30
EOF

finish
