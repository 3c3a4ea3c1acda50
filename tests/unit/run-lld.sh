#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# ld.lld's link maps (LLVM=1 kernels): the same tables as from GNU ld's,
# for each way of linking the fixture.  In the archive mode vmlinux.o is
# linked from a thin vmlinux.a with five members named core.o, as kbuild
# does; ld.lld spells members as stored ("vmlinux.a(kernel/sched/core.o)",
# "lib/lib.a(sort.o)"), GNU ld by path.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

lld=${LLD_FIXTURE:-ld.lld-16}
command -v "$lld" > /dev/null || {
	echo "$lld is not installed (apt-get install lld-16)"
	exit 77
}

fx=$(LD_FIXTURE=$lld fixture archive)

# How ld.lld spells what the generator reads.
testrun_compare grep -E '^ +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9]+ {9}[^ ]*(core|sort)\.o\)?:\(\.text\)$' \
	"$fx/vmlinux.o.map" <<'EXPECT'
              14               14        f     1         vmlinux.a(kernel/sched/core.o):(.text)
              23               23        6     1         vmlinux.a(kernel/events/core.o):(.text)
              38               38        4     1         vmlinux.a(drivers/base/core.o):(.text)
              3c               3c        6     1         vmlinux.a(drivers/a/core.o):(.text)
              42               42        6     1         vmlinux.a(drivers/b/core.o):(.text)
              90               90        6     1         lib/lib.a(sort.o):(.text)
EXPECT

# Objects, modules and names as docs/DESIGN.md's rules give them.
{
	echo 'fs/ext9/inode.o	[ext9] {inode.o}'
	fixture_objects
	printf '%s\n' drivers/dup/dup.o 'fs/ext9/super.o	[ext9] {super.o}' 'lib/sort.o	{sort.o}'
} | testrun_compare kms_gen -q -e -f sidecar -o "$tmp/lld.kms" "$fx/vmlinux"

# Every link mode: the listing is GNU ld's, symbol for symbol.
for mode in relocatable archive direct; do
	gnu=$(fixture "$mode")
	llvm=$(LD_FIXTURE=$lld fixture "$mode")
	for dir in "$gnu" "$llvm"; do
		kms_gen -q -f sidecar -o "$dir/fx.kms" "$dir/vmlinux" ||
			fail "$mode: kallmodsyms-gen on $dir"
		kms list -t "$dir/fx.kms" "$dir/vmlinux" | cut -d' ' -f2- > "$dir/list" ||
			fail "$mode: kallmodsyms list on $dir"
	done
	[ "$(wc -l < "$gnu/list")" -gt 20 ] || fail "$mode: GNU listing too short"
	diff -u "$gnu/list" "$llvm/list" >&2 ||
		fail "$mode: ld.lld's listing differs from GNU ld's"
done

# A damaged ld.lld map fails like a GNU one: the map named, one line.
head -n 1 "$fx/vmlinux.map" > "$tmp/header-only.map"
testrun_error 1 "kallmodsyms-gen: $tmp/header-only.map: linker map lists no input sections" \
	kms_gen -f sidecar -o "$tmp/out.kms" -m "$tmp/header-only.map" "$fx/vmlinux"
[ ! -e "$tmp/out.kms" ] || fail "a failed run left $tmp/out.kms"

finish
