#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# The listing of the synthetic tree: every annotation rule of docs/DESIGN.md.
# Addresses are left out of the comparison (they depend on the compiler);
# run-lookup.sh checks them against nm.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fx=$(fixture relocatable)

# The generator warns about the one ambiguity it cannot resolve: two
# static functions of one name in one object (ld -r joined dup1.o, dup2.o).
testrun_error 0 "kallmodsyms-gen: warning: 2 symbols dup_fn in drivers/dup/dup.o cannot be told apart: same name, same object" \
	kms_gen -f sidecar -o "$tmp/fx.kms" "$fx/vmlinux"

kms list -t "$tmp/fx.kms" "$fx/vmlinux" > "$tmp/list" ||
	fail "kallmodsyms list failed"

# What each line shows:
#  - ext9_iget.cold sits in .text.unlikely, far from the rest of inode.o,
#    and still reads as inode.o's; so do the labels at its first byte;
#  - show: kernel/smp.o's full path is a suffix of arch/x86/kernel/smp.o,
#    so the longer one is lengthened past it;
#  - device_show: core.o is not enough, sched/core.o and base/core.o are;
#  - event_show: told apart by module ([mod_a], [mod_b], none), except the
#    two core-kernel ones (core.o, sort.o, the latter from a thin archive);
#  - common.o is linked into two modules; mod-b's name has '-' -> '_';
#  - notbuiltin_fn's module is not in modules.builtin: no annotation;
#  - ext9_helper: two objects of one module; every symbol of them is named;
#  - data (liquid_ids ... ext9_count) is never annotated; init text and
#    weak symbols are;
#  - nor are labels past the end of text (the empty .notes' bounds).
testrun_compare cut -d' ' -f2- "$tmp/list" <<'EXPECT'
t ext9_iget.cold	[ext9] {inode.o}
T _stext	[ext9] {inode.o}
T _text	[ext9] {inode.o}
t helper
T start_kernel
T _start
t show	{kernel/smp.o}
t device_show	{sched/core.o}
T schedule	{sched/core.o}
t event_show	{core.o}
t show	{x86/kernel/smp.o}
T native_smp_send	{x86/kernel/smp.o}
t device_show	{base/core.o}
t event_show	[mod_a]
t event_show	[mod_b]
t liquid_probe	[liquid] [liquid_vf]
T liquid_common_init	[liquid] [liquid_vf]
T liquid_init	[liquid]
T liquid_vf_init	[liquid_vf]
T notbuiltin_fn
t dup_fn
t dup_fn
t ext9_helper	[ext9] {inode.o}
T ext9_iget	[ext9] {inode.o}
t ext9_helper	[ext9] {super.o}
W arch_ext9_hook	[ext9] {super.o}
t ext9_fill_super.constprop.0	[ext9] {super.o}
t event_show	{sort.o}
T _etext
T __start_notes
T __stop_notes
T ext9_init	[ext9] {inode.o}
T _sinittext	[ext9] {inode.o}
T _einittext
d liquid_ids
d dup_count
d dup_count
d calls.0
B reset_devices
B ext9_count
EXPECT

# Addresses and types are nm's, in kallsyms order (address, then
# non-weak, then fewer leading underscores).
nm -n "$fx/vmlinux" | awk '{ print $1 }' | sort > "$tmp/nm-addrs"
cut -d' ' -f1 "$tmp/list" | sort > "$tmp/list-addrs"
assert_same "$tmp/nm-addrs" "$tmp/list-addrs" "list addresses vs nm"

# The other symbol source gives the same listing (no kallsyms tables here,
# so both read the symbol table; -S kallsyms must refuse).
kms list -S symtab -t "$tmp/fx.kms" "$fx/vmlinux" > "$tmp/list-symtab"
assert_same "$tmp/list" "$tmp/list-symtab" "list -S symtab"
testrun_error 1 "kallmodsyms: $fx/vmlinux: no symbol kallsyms_num_syms" \
	kms list -S kallsyms -t "$tmp/fx.kms" "$fx/vmlinux"

# Every class (--all-classes, FORMAT.md 3.1): the fixture's init text,
# data and bss become sections of their own, and its data symbols are
# annotated like their objects' text (dup.o's two dup_count, like its
# two dup_fn, get no name: one object to the build tree); text symbols
# read as before.
kms_gen -q --all-classes -f sidecar -o "$tmp/fx-all.kms" "$fx/vmlinux" ||
	fail "--all-classes"
kms dump -t "$tmp/fx-all.kms" "$fx/vmlinux" | sed -n 's/, [0-9a-f]*-[0-9a-f]* from /, from /p' > "$tmp/sections"
testrun_compare cat "$tmp/sections" <<'EOF'
section 0: class 0 text, from _text, 16 ranges (object):
section 1: class 1 init-text, from _text, 1 ranges (object):
section 2: class 4 data, from _text, 3 ranges (object):
section 3: class 6 bss, from _text, 1 ranges (object):
EOF
kms list -t "$tmp/fx-all.kms" "$fx/vmlinux" > "$tmp/list-all" ||
	fail "list with every class"
testrun_compare sh -c "cut -d' ' -f2- '$tmp/list-all' | grep -v '^[tTwW] '" <<'EOF'
d liquid_ids	[liquid] [liquid_vf]
d dup_count
d dup_count
d calls.0	[ext9] {super.o}
B reset_devices
B ext9_count	[ext9] {inode.o}
EOF
grep -E ' [tTwW] ' "$tmp/list" > "$tmp/list-text"
grep -E ' [tTwW] ' "$tmp/list-all" > "$tmp/list-all-text"
assert_same "$tmp/list-text" "$tmp/list-all-text" "text symbols with every class"
# The gdb helpers' rule (blob.py's Tables.symbol_object) annotates every
# symbol as the inspector does.
${KMS_PYTHON:-/usr/bin/python3} - "$top/python" "$tmp/fx-all.kms" "$tmp/list-all" > "$tmp/py-list" <<'PY' ||
import sys
sys.path.insert(0, sys.argv[1])
from kallmodsyms import blob
t = blob.load(blob.find_note(open(sys.argv[2], "rb").read()))
syms = [line.rstrip("\n").split("\t")[0].split(" ", 2)
        for line in open(sys.argv[3])]
base = {name: int(a, 16) for a, _, name in syms}
for a, type_, name in syms:
    ann = t.annotation(t.symbol_object(int(a, 16), type_, base["_text"],
                                       base.get("__per_cpu_start")))
    print("%s %s %s%s" % (a, type_, name, "\t" + ann if ann else ""))
PY
	fail "blob.py on the listing"
assert_same "$tmp/list-all" "$tmp/py-list" "blob.py's annotations"

# Linked straight from the objects (no vmlinux.o): the same tables.
fd=$(fixture direct)
kms_gen -q -f sidecar -o "$tmp/fd.kms" "$fd/vmlinux" || fail "direct link"
[ ! -e "$fd/vmlinux.o.map" ] || fail "direct fixture has a vmlinux.o.map"
assert_same "$tmp/fx.kms" "$tmp/fd.kms" "tables of the direct and relocatable links"

finish
