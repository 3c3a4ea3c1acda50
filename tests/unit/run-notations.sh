#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# The notations that name one instance of a duplicated symbol (symspec.h),
# in lookup and find: sym, sym+off/size, sym [mod] {obj}, mod:sym,
# path/obj.o:sym, 'file.c'::sym, sym@file.c, sym,N (livepatch sympos); with
# the fixture's DWARF and without it; and the errors of ambiguous inputs.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables
objcopy --strip-debug "$v" nodwarf || fail "objcopy --strip-debug"
norm() { sed -E 's/\b(0x)?ffffffff8[0-9a-f]{7}\b/ADDR/g; s#/0x[0-9a-f]+#/SIZE#g'; }
# lookup_all IMAGE SPEC...: each answer, or its error, normalised.
lookup_all() {
	local image=$1 s
	shift
	for s in "$@"; do
		printf '%s => ' "$s"
		kms lookup -t fx.kms "$image" "$s" 2>&1 | norm | head -n 1
	done
}

# Every notation picks the instance it names, with DWARF.
lookup_all "$v" \
	'event_show,2' 'event_show,3+0x1' 'mod_a:event_show' 'mod-b:event_show+0x1' \
	'a/core.o:event_show' 'kernel/events/core.o:event_show' \
	"'lib/sort.c'::event_show" 'lib/sort.c::event_show' \
	'event_show@drivers/b/core.c' 'event_show@./kernel/events/core.c+0x2' \
	'event_show [mod_b]' 'event_show {sort.o}' 'event_show+0x1/0x6 {core.o}' \
	'dup2.o:dup_fn' 'dup_fn,1' 'x86/kernel/smp.o:show' 'arch/x86/kernel/smp.c::show' \
	'ext9:ext9_helper,2' 'fs/ext9/inode.o:ext9_helper' 'liquid_vf:liquid_probe' \
	'liquid_probe [liquid] [liquid_vf]' 'liquid_probe,0' 'device_show@kernel/sched/core.c' \
	'mod_a:event_show{a/core.o}' 'event_show{lib/sort.o}' \
	> out
testrun_compare cat out <<'EOF'
event_show,2 => ADDR event_show+0x0/SIZE [mod_a]
event_show,3+0x1 => ADDR event_show+0x1/SIZE [mod_b]
mod_a:event_show => ADDR event_show+0x0/SIZE [mod_a]
mod-b:event_show+0x1 => ADDR event_show+0x1/SIZE [mod_b]
a/core.o:event_show => ADDR event_show+0x0/SIZE [mod_a]
kernel/events/core.o:event_show => ADDR event_show+0x0/SIZE {core.o}
'lib/sort.c'::event_show => ADDR event_show+0x0/SIZE {sort.o}
lib/sort.c::event_show => ADDR event_show+0x0/SIZE {sort.o}
event_show@drivers/b/core.c => ADDR event_show+0x0/SIZE [mod_b]
event_show@./kernel/events/core.c+0x2 => ADDR event_show+0x2/SIZE {core.o}
event_show [mod_b] => ADDR event_show+0x0/SIZE [mod_b]
event_show {sort.o} => ADDR event_show+0x0/SIZE {sort.o}
event_show+0x1/0x6 {core.o} => ADDR event_show+0x1/SIZE {core.o}
dup2.o:dup_fn => ADDR dup_fn+0x0/SIZE
dup_fn,1 => ADDR dup_fn+0x0/SIZE
x86/kernel/smp.o:show => ADDR show+0x0/SIZE {x86/kernel/smp.o}
arch/x86/kernel/smp.c::show => ADDR show+0x0/SIZE {x86/kernel/smp.o}
ext9:ext9_helper,2 => ADDR ext9_helper+0x0/SIZE [ext9] {super.o}
fs/ext9/inode.o:ext9_helper => ADDR ext9_helper+0x0/SIZE [ext9] {inode.o}
liquid_vf:liquid_probe => ADDR liquid_probe+0x0/SIZE [liquid] [liquid_vf]
liquid_probe [liquid] [liquid_vf] => ADDR liquid_probe+0x0/SIZE [liquid] [liquid_vf]
liquid_probe,0 => ADDR liquid_probe+0x0/SIZE [liquid] [liquid_vf]
device_show@kernel/sched/core.c => ADDR device_show+0x0/SIZE {sched/core.o}
mod_a:event_show{a/core.o} => ADDR event_show+0x0/SIZE [mod_a]
event_show{lib/sort.o} => ADDR event_show+0x0/SIZE {sort.o}
EOF

# The instances are the right ones: sympos counts in /proc/kallsyms order
# (by address), as livepatch does.
for s in 'event_show,1' 'event_show,2' 'event_show,3' 'event_show,4'; do
	kms lookup -t fx.kms "$v" "$s" | cut -d' ' -f1
done > got
nm -n "$v" | awk '$3 == "event_show" { print $1 }' > want
assert_same want got "sympos order"

# Without DWARF, the tables' paths still pick instances: every function's
# object is in them, by the path the linker read it from.
lookup_all nodwarf 'event_show {core.o}' 'sort.o:event_show' 'x86/kernel/smp.o:show' \
	'event_show,4' 'mod_a:event_show' > out
testrun_compare cat out <<'EOF'
event_show {core.o} => ADDR event_show+0x0/SIZE {core.o}
sort.o:event_show => ADDR event_show+0x0/SIZE {sort.o}
x86/kernel/smp.o:show => ADDR show+0x0/SIZE {x86/kernel/smp.o}
event_show,4 => ADDR event_show+0x0/SIZE {sort.o}
mod_a:event_show => ADDR event_show+0x0/SIZE [mod_a]
EOF
# drivers/dup/dup.o is an ld -r of dup1.o and dup2.o: the tables hold the
# object the linker read, and without DWARF nothing looks inside it.
kms lookup -t fx.kms nodwarf 'dup1.o:dup_fn' > out 2> err && fail "dup1.o:dup_fn without DWARF exited 0"
norm < err > err.n
testrun_compare cat err.n <<'EOF'
kallmodsyms: "dup1.o:dup_fn": no instance of the symbol has these qualifiers
EOF

# Ambiguous inputs: exit 1, the input and the count first, then every
# candidate in /proc/kallmodsyms notation with its sympos.
kms lookup -t fx.kms "$v" 'core.o:event_show+0x1' > out 2> err && fail "core.o:event_show exited 0"
[ -s out ] && fail "an ambiguous lookup wrote to stdout"
norm < err > err.n
testrun_compare cat err.n <<'EOF'
kallmodsyms: "core.o:event_show+0x1": 3 instances of event_show match; pick one by sympos (event_show,N), [module] {objfile}, mod:, obj.o: or file.c::
	ADDR t event_show	{core.o}	sympos=1
	ADDR t event_show	[mod_a]	sympos=2
	ADDR t event_show	[mod_b]	sympos=3
EOF
kms lookup -t fx.kms "$v" 'dup_fn,0' > out 2> err && fail "dup_fn,0 exited 0"
norm < err > err.n
testrun_compare cat err.n <<'EOF'
kallmodsyms: "dup_fn,0": 2 instances of dup_fn; pick one by sympos (dup_fn,N), [module] {objfile}, mod:, obj.o: or file.c::
	ADDR t dup_fn	sympos=1
	ADDR t dup_fn	sympos=2
EOF

# Other errors name the input and the problem.
lookup_error 'event_show,5' 'sympos 5, but there are 4 symbols called event_show'
lookup_error 'ext9:event_show' 'no instance of the symbol has these qualifiers'
lookup_error 'drivers/base/core.o:show' 'no instance of the symbol has these qualifiers'
lookup_error 'no_such_fn,1' 'no such symbol'
lookup_error "'x.c::show" 'unterminated quote'
lookup_error "'x.c':show" 'no :: after the quoted file name'
lookup_error 'show,' "no position after ','"
lookup_error 'a:b:show' "more than one ':'"
lookup_error 'show+0x1+0x2' 'two offsets'
lookup_error 'show+zz' 'bad offset after +'

# find takes the same notations and prints each instance's sympos.
kms find -t fx.kms "$v" 'core.o:event_show' 'ext9_helper,2' 'liquid_probe' | norm > out ||
	fail "find with notations"
testrun_compare cat out <<'EOF'
ADDR t event_show/SIZE	{core.o}	sympos=1
ADDR t event_show/SIZE	[mod_a]	sympos=2
ADDR t event_show/SIZE	[mod_b]	sympos=3
ADDR t ext9_helper/SIZE	[ext9] {super.o}	sympos=2
ADDR t liquid_probe/SIZE	[liquid] [liquid_vf]	sympos=1
EOF
kms find -t fx.kms nodwarf 'a/core.o:event_show' | norm > out || fail "find without DWARF"
testrun_compare cat out <<'EOF'
ADDR t event_show/SIZE	[mod_a]	sympos=2
EOF
testrun_error 1 'kallmodsyms: event_show,9: sympos 9, but there are 4 symbols called event_show' \
	kms find -t fx.kms "$v" 'event_show,9'
kms find --json -t fx.kms "$v" 'event_show' 'mod_b:event_show' > out.json || fail "find --json"
testrun_compare python3 -c '
import json
for n in json.load(open("out.json"))["names"]:
    print(n["name"], n.get("input"), [(i["sympos"], i["modules"], i["objfile"]) for i in n["instances"]])' <<'EOF'
event_show None [(1, [], 'core.o'), (2, ['mod_a'], None), (3, ['mod_b'], None), (4, [], 'sort.o')]
event_show mod_b:event_show [(3, ['mod_b'], None)]
EOF

finish
