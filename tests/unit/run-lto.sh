#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# Clang ThinLTO: the fixture compiled to bitcode, linked through a thin
# vmlinux.a by ld.lld as kbuild does.  vmlinux.o's map then names
# "lto.tmp" where the objects were; the generator takes those objects from
# the DWARF compile units, and the map still names drivers/dup/dup.o
# (linked with ld -r before: machine code, not bitcode).  The listing is
# the one without LTO, except for code no unit holds: top-level asm in C
# (the fixture's ext9_iget.cold and ext9_fill_super.constprop.0 stand-ins)
# counts as core kernel, with a warning.  With --all-classes, LTO's data
# is placed by the units' variables.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

for tool in clang-16 ld.lld-16 llvm-ar-16; do
	command -v $tool > /dev/null ||
		{ echo "$tool is not installed (apt-get install clang-16 lld-16 llvm-16)"; exit 77; }
done
export CC_FIXTURE=clang-16 LD_FIXTURE=ld.lld-16
plain=$(fixture archive)
lto=$(LTO_FIXTURE=thin fixture archive)

testrun_compare sh -c "grep -c 'lto\.tmp:(\.text' '$lto/vmlinux.o.map'" <<'EXPECT'
38
EXPECT

# The objects: dup.o as the map says, the rest from DWARF.
kms_gen -e -f sidecar -o "$tmp/lto.kms" "$lto/vmlinux" > "$tmp/objects" \
	2> "$tmp/warnings" || fail "kallmodsyms-gen on the LTO fixture"
testrun_compare cat "$tmp/warnings" <<'EXPECT'
kallmodsyms-gen: warning: 3 of 139 bytes of LTO code lie in no compile unit's ranges; they count as core kernel
kallmodsyms-gen: warning: 2 symbols dup_fn in drivers/dup/dup.o cannot be told apart: same name, same object
EXPECT
{
	echo drivers/dup/dup.o
	fixture_objects
	printf '%s\n' 'fs/ext9/inode.o	[ext9] {inode.o}' 'fs/ext9/super.o	[ext9] {super.o}' 'lib/sort.o	{sort.o}'
} | testrun_compare cat "$tmp/objects"

# The listing against the same fixture without LTO (in address order
# the two differ: LTO lays the code out otherwise).
kms_gen -q -f sidecar -o "$tmp/plain.kms" "$plain/vmlinux" ||
	fail "kallmodsyms-gen without LTO"
# differ PLAIN.kms LTO.kms: how the two listings differ.
differ() {
	local b
	for b in plain lto; do
		kms list -t "$tmp/$1" "${!b}/vmlinux" | cut -d' ' -f2- | sort > "$tmp/$b.list" ||
			fail "kallmodsyms list -t $1"
		shift
	done
	diff "$tmp/plain.list" "$tmp/lto.list" | grep '^[<>]'
}
cat > "$tmp/code.diff" <<'EXPECT'
< T _stext	[ext9] {inode.o}
< T _text	[ext9] {inode.o}
> T _stext
> T _text
< t ext9_fill_super.constprop.0	[ext9] {super.o}
> t ext9_fill_super.constprop.0
< t ext9_iget.cold	[ext9] {inode.o}
> t ext9_iget.cold
EXPECT
testrun_compare differ plain.kms lto.kms < "$tmp/code.diff"

# With every class, LTO's data (the maps give it to lto.tmp too) is placed
# by the units' variables, clang's DW_OP_addrx locations: every data
# symbol reads as without LTO, and the code differs as above.
kms_gen -s --all-classes -f sidecar -o "$tmp/lto-all.kms" "$lto/vmlinux" \
	2> "$tmp/stats" || fail "kallmodsyms-gen --all-classes on the LTO fixture"
testrun_compare grep -E '^(lto|dwarf variables) ' "$tmp/stats" <<'EXPECT'
lto text 139 unplaced 3
lto data 24 unplaced 0
dwarf variables 6 unsized 0 discarded 1 outside 0 enclosed 0
EXPECT
kms_gen -q --all-classes -f sidecar -o "$tmp/plain-all.kms" "$plain/vmlinux" ||
	fail "kallmodsyms-gen --all-classes without LTO"
testrun_compare differ plain-all.kms lto-all.kms < "$tmp/code.diff"
grep -q '^B ext9_count	\[ext9\] {inode.o}$' "$tmp/lto.list" ||
	fail "ext9_count is not annotated in the LTO build"

# An LTO link needs the DWARF: without it, one line and nothing written.
objcopy --strip-debug "$lto/vmlinux" "$tmp/stripped"
testrun_error 1 "kallmodsyms-gen: $lto/vmlinux.o.map: the link used LTO (ld.lld's lto.tmp, not object files), so objects come from DWARF: $tmp/stripped: cannot read DWARF: no DWARF information (objects come from debug info here: build with CONFIG_DEBUG_INFO, or take the distribution's debug vmlinux: Debian's linux-image-*-dbg, Fedora's kernel-debuginfo)" \
	kms_gen -f sidecar -o "$tmp/out.kms" -b "$lto" -m "$lto/vmlinux.map" "$tmp/stripped"
[ ! -e "$tmp/out.kms" ] || fail "a failed run left $tmp/out.kms"

finish
