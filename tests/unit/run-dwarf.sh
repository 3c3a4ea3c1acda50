#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# kallmodsyms-gen --dwarf on the synthetic tree: objects from the compile
# units (no map, no .cmd file), modules from a modules.builtin.ranges
# written here, from modinfo's file= records and modules.builtin by path;
# the append container; the rejections.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fx=$(fixture relocatable)
cd "$tmp" || exit 1

# The fixture's modules where the build put them, as 6.12's
# generate_builtin_ranges.awk writes them (a reversed entry included).
cat > ranges <<'R'
.text 00000000-00000000 = _text
.text 00000000-00000002 ext9
.text 0000003e-00000044 mod_a
.text 00000044-0000004a mod-b
.text 0000004a-00000059 liquid liquid_vf
.text 00000059-0000005f liquid
.text 0000005f-00000065 liquid_vf
.text 00000073-00000092 ext9
.init.text 00000000-00000000 = _sinittext
.init.text 00000000-00000006 ext9
.data 00000000-00000000 = _sdata
.data 00000010-00000004 ext9
R

kms_gen -q -f sidecar -o build.kms "$fx/vmlinux" || fail "generate (build tree)"
kms list -t build.kms "$fx/vmlinux" > build.list || fail "list (build tree)"
kms_gen --dwarf --ranges ranges -f sidecar -o dwarf.kms "$fx/vmlinux" ||
	fail "generate --dwarf"
kms list -t dwarf.kms "$fx/vmlinux" > dwarf.list || fail "list --dwarf"

# Only what DWARF cannot know differs: the top-level asm function at _text
# has no compile unit (so no object, and no module), and the parts of the
# ld -r composite dup.o are told apart by their own units.
cat > text.diff <<'EOF'
1,3c1,3
< ffffffff81000000 t ext9_iget.cold	[ext9] {inode.o}
< ffffffff81000000 T _stext	[ext9] {inode.o}
< ffffffff81000000 T _text	[ext9] {inode.o}
---
> ffffffff81000000 t ext9_iget.cold
> ffffffff81000000 T _stext
> ffffffff81000000 T _text
21,22c21,22
< ffffffff8100006b t dup_fn
< ffffffff8100006f t dup_fn
---
> ffffffff8100006b t dup_fn	{dup1.o}
> ffffffff8100006f t dup_fn	{dup2.o}
EOF
testrun_compare sh -c 'diff build.list dwarf.list; true' < text.diff

# Every class (--all-classes): data is where the units' variables lie.
# Only what the build tree cannot know differs from its tables besides
# the text above: dup.o's two static dup_count, one from each part of
# the ld -r composite, are told apart as its dup_fn are.  liquid_ids is
# sized by its type (int[3]: its last byte is still common.o's), calls.0
# is a function's static, and a variable of a discarded section (DWARF's
# address 0, where no symbol is) is counted and left out.
kms_gen -q --all-classes -f sidecar -o build-all.kms "$fx/vmlinux" ||
	fail "generate --all-classes (build tree)"
kms list -t build-all.kms "$fx/vmlinux" > build-all.list ||
	fail "list --all-classes (build tree)"
kms_gen -q --dwarf --all-classes -s --ranges ranges -f sidecar \
	-o dwarf-all.kms "$fx/vmlinux" 2> all.stats ||
	fail "generate --dwarf --all-classes"
kms list -t dwarf-all.kms "$fx/vmlinux" > dwarf-all.list ||
	fail "list --dwarf --all-classes"
cat text.diff - <<'EOF' | testrun_compare sh -c 'diff build-all.list dwarf-all.list; true'
36,37c36,37
< ffffffff81001014 d dup_count
< ffffffff81001018 d dup_count
---
> ffffffff81001014 d dup_count	{dup1.o}
> ffffffff81001018 d dup_count	{dup2.o}
EOF
testrun_compare grep '^dwarf variables' all.stats <<'EOF'
dwarf variables 6 unsized 0 discarded 1 outside 0 enclosed 0
EOF
testrun_compare sh -c "$KMS_WRAP '$KMS_BUILD/kallmodsyms' lookup -t dwarf-all.kms '$fx/vmlinux' liquid_ids+0xb calls.0 | cut -d' ' -f2-" <<'EOF'
liquid_ids+0xb/0xc [liquid] [liquid_vf]
calls.0+0x0/0x4 [ext9] {super.o}
EOF

# The same tables appended to a copy of the image.
kms_gen -q --dwarf --ranges ranges -f append -o vmlinux.dwarf "$fx/vmlinux" ||
	fail "generate --dwarf -f append"
kms list vmlinux.dwarf > appended.list || fail "list the appended note"
assert_same dwarf.list appended.list "appended note vs sidecar"

# Without the ranges: modules only by path (modinfo's sort.file=lib/sort
# makes lib/sort.o a single-object module); the others are reported.
printf 'sort.file=lib/sort\0sort.license=GPL\0ext9.file=fs/ext9/ext9\0' > modinfo
kms_gen --dwarf -s -e -B "$fx/modules.builtin" --modinfo modinfo \
	-f sidecar -o paths.kms "$fx/vmlinux" > explain 2> stats ||
	fail "generate --dwarf without ranges"
testrun_compare grep -v -e '^pieces' -e '^ranges' stats <<'EOF'
kallmodsyms-gen: warning: 5 of 6 built-in modules have no object of their own name (multi-object modules, or no text); without modules.builtin.ranges or -S their code counts as core kernel
modularity modules.builtin not-modules 0
dwarf units 17 unnamed 0 ranges 18 outside-text 0 overlaps 0 static-calls 0 paddings 0 entries 0
modules-from paths by-path 1 unknown 5
EOF
testrun_compare grep -e '^module' -e '^lib' -e '^fs' explain <<'EOF'
module drivers/a/mod_a: objects unknown (no drivers/a/mod_a.o: a multi-object module, or no text; modules.builtin.ranges or -S would tell)
module drivers/b/mod-b: objects unknown (no drivers/b/mod-b.o: a multi-object module, or no text; modules.builtin.ranges or -S would tell)
module drivers/net/liquid/liquid: objects unknown (no drivers/net/liquid/liquid.o: a multi-object module, or no text; modules.builtin.ranges or -S would tell)
module drivers/net/liquid/liquid_vf: objects unknown (no drivers/net/liquid/liquid_vf.o: a multi-object module, or no text; modules.builtin.ranges or -S would tell)
module fs/ext9/ext9: objects unknown (no fs/ext9/ext9.o: a multi-object module, or no text; modules.builtin.ranges or -S would tell)
fs/ext9/inode.o	{inode.o}
fs/ext9/super.o	{super.o}
lib/sort.o	[sort]
EOF

# Rejections: one line, the right status, nothing left behind.
testrun_error 2 "kallmodsyms-gen: --dwarf needs -B modules.builtin, --modinfo or --ranges" \
	kms_gen --dwarf -f sidecar -o out.kms "$fx/vmlinux"
testrun_error 2 "kallmodsyms-gen: --modinfo and --ranges go with --dwarf" \
	kms_gen --ranges ranges -f sidecar -o out.kms "$fx/vmlinux"
testrun_error 1 "kallmodsyms-gen: nosuch: cannot open: No such file or directory" \
	kms_gen --dwarf --ranges nosuch -f sidecar -o out.kms "$fx/vmlinux"
printf '.text 0-0 = _text\n.text 00000001-zz ext9\n' > bad-ranges
testrun_error 1 'kallmodsyms-gen: bad-ranges: line 2: "00000001-zz" is not START-END in hex' \
	kms_gen --dwarf --ranges bad-ranges -f sidecar -o out.kms "$fx/vmlinux"
printf '.text 0-0 = _text\n.text 00000001-00000009 a\n.text 00000004-00000010 b\n' > overlapping
testrun_error 1 'kallmodsyms-gen: overlapping: ranges of a and b overlap at 0xffffffff81000004' \
	kms_gen --dwarf --ranges overlapping -f sidecar -o out.kms "$fx/vmlinux"
cp "$fx/vmlinux" stripped
objcopy --strip-debug stripped
testrun_error 1 "kallmodsyms-gen: stripped: cannot read DWARF: no DWARF information (objects come from debug info here: build with CONFIG_DEBUG_INFO, or take the distribution's debug vmlinux: Debian's linux-image-*-dbg, Fedora's kernel-debuginfo)" \
	kms_gen --dwarf --ranges ranges -f sidecar -o out.kms stripped
assert_absent out.kms

finish
