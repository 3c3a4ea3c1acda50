#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# kallmodsyms-gen --dwarf on code built the way distributions build
# arm64 kernels: GCC with -fpatchable-function-entry=2 (ftrace's two
# NOPs at each function's symbol, DYNAMIC_FTRACE_WITH_REGS/ARGS) and no
# modules.builtin.ranges.  GCC's DW_AT_low_pc lies after the NOPs, so
# each unit's range in a section other than .text (here .init.text)
# starts 8 bytes into its first function: that function starts in a gap
# and reaches into its unit's range, whose object and module it takes.
# Three objects, linked at kernel addresses: kernel/bar.o (core) and
# drivers/x/foo.o (built-in module foo, by its path), each with code in
# .text and .init.text (foo_init has an alias, placed once), and
# kernel/baz.o (core, data only); bar.o and baz.o each have a compound
# literal between two of their variables (--all-classes).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

cc=aarch64-linux-gnu-gcc ld=aarch64-linux-gnu-ld
command -v "$cc" > /dev/null && command -v "$ld" > /dev/null ||
	{ echo "no $cc (scripts/install-deps.sh installs it)"; exit 77; }
cd "$tmp" || exit 1
mkdir -p drivers/x kernel
cat > drivers/x/foo.c <<'C'
int foo_count;

int foo_read(int x)
{
	return x * 3 + foo_count;
}

int foo_write(int x)
{
	foo_count = foo_read(x) + 1;
	return foo_count;
}

__attribute__((section(".init.text"))) int foo_init(void)
{
	return foo_write(2);
}
int foo_setup(void) __attribute__((alias("foo_init")));
C
cat > kernel/bar.c <<'C'
int bar_count;

int bar_get(int x)
{
	return x + bar_count;
}

__attribute__((section(".init.text"))) int bar_init(void)
{
	return bar_get(1);
}

int bar_d1 = 1;
int *bar_ptr = (int[]){ 1, 2, 3 };
int bar_d2 = 2;
C
cat > kernel/baz.c <<'C'
int baz_d1 = 1;
int *baz_ptr = (int[]){ 4, 5, 6 };
int baz_d2 = 2;
C
cat > vmlinux.lds <<'L'
ENTRY(bar_init)
SECTIONS
{
	. = 0xffff800008000000;
	.text : { _text = .; _stext = .; *(.text) _etext = .; }
	. = ALIGN(4096);
	.init.text : { _sinittext = .; *(.init.text) _einittext = .; }
	.data : { _sdata = .; *(.data) }
	.bss : { *(.bss) *(COMMON) }
	/DISCARD/ : { *(.comment) *(.note.*) *(.eh_frame) }
}
L
for f in kernel/bar kernel/baz drivers/x/foo; do
	"$cc" -O2 -g -fno-inline -fno-toplevel-reorder \
		-fpatchable-function-entry=2 -ffreestanding \
		-fno-asynchronous-unwind-tables -c "$f.c" -o "$f.o" ||
		fail "compile $f.c"
done
"$ld" --no-warn-rwx-segments -T vmlinux.lds -o vmlinux kernel/bar.o \
	kernel/baz.o drivers/x/foo.o || fail "link"
echo kernel/drivers/x/foo.ko > modules.builtin

# The NOPs at foo_init lie before its unit's range in .init.text.
testrun_compare sh -c "readelf --debug-dump=Ranges vmlinux |
	gawk '\$2 ~ /^ffff8000080010/ { print \$2, \$3 }'" <<'EOF'
ffff800008001008 ffff800008001010
ffff800008001018 ffff800008001020
EOF


kms_gen --dwarf -s -ee -B modules.builtin -f sidecar -o v.kms vmlinux \
	> explain 2> stats || fail "generate --dwarf"
testrun_compare grep -e '^dwarf' -e '^modules-from' stats <<'EOF'
dwarf units 3 unnamed 0 ranges 4 outside-text 0 overlaps 0 static-calls 0 paddings 0 entries 2
modules-from paths by-path 1 unknown 0
EOF
# bar_init and foo_init (and its alias) from their symbols to where
# their units' ranges start, then those ranges.
testrun_compare grep '^range' explain <<'EOF'
range 0xffff800008000000-0xffff800008000018 kernel/bar.o
range 0xffff800008000020-0xffff800008000068 drivers/x/foo.o
range 0xffff800008001000-0xffff800008001008 kernel/bar.o
range 0xffff800008001008-0xffff800008001010 kernel/bar.o
range 0xffff800008001010-0xffff800008001018 drivers/x/foo.o
range 0xffff800008001018-0xffff800008001020 drivers/x/foo.o
EOF
testrun_compare kms list -t v.kms vmlinux <<'EOF'
ffff800008000000 T bar_get
ffff800008000000 T _stext
ffff800008000000 T _text
ffff800008000020 T foo_read	[foo]
ffff800008000040 T foo_write	[foo]
ffff800008000068 T _etext
ffff800008001000 T bar_init
ffff800008001000 T _sinittext
ffff800008001010 T foo_init	[foo]
ffff800008001010 T foo_setup	[foo]
ffff800008001020 D bar_d1
ffff800008001020 T _einittext
ffff800008001020 D _sdata
ffff800008001028 d __compound_literal.0
ffff800008001034 D bar_d2
ffff800008001038 D baz_d1
ffff800008001040 d __compound_literal.0
ffff80000800104c D baz_d2
ffff800008001078 D bar_ptr
ffff800008001080 D baz_ptr
ffff800008001088 B bar_count
ffff80000800108c B foo_count
EOF

# Every class: each core object's compound literal (the compiler's
# object, no DWARF variable) lies between two of its variables, so it is
# that object's, and the two literals of one name are told apart.
kms_gen --dwarf --all-classes -s -B modules.builtin -f sidecar -o all.kms \
	vmlinux 2> all.stats || fail "generate --dwarf --all-classes"
testrun_compare grep -e '^dwarf variables' -e ambiguous all.stats <<'EOF'
pieces 16 objects 3 modular 1 multi-module 0 named 2 missing-cmd 0 ambiguous 0
dwarf variables 8 unsized 0 discarded 0 outside 0 enclosed 2
EOF
kms list -t all.kms vmlinux > all.list || fail "list --all-classes"
testrun_compare grep -e compound -e _d1 all.list <<'EOF'
ffff800008001020 D bar_d1	{bar.o}
ffff800008001028 d __compound_literal.0	{bar.o}
ffff800008001038 D baz_d1	{baz.o}
ffff800008001040 d __compound_literal.0	{baz.o}
EOF

finish
