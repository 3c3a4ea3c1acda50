#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# The small test kernel (tests/kernel/configs/small.config): generate
# its tables, list them, and hold the [module] of every text symbol against
# the kernel's own modules.builtin.ranges.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small
cd "$tmp" || exit 1

kms_gen -q "${kclasses[@]}" -f sidecar -o small.kms "$kbuild/vmlinux" || fail "generate"
kms_gen -q "${kclasses[@]}" -f sidecar -o again.kms "$kbuild/vmlinux" || fail "generate again"
assert_same small.kms again.kms "two runs on the kernel"

# The image's own kallsyms tables and our reading of its symbol table agree
# symbol for symbol: list shows what /proc/kallsyms will show.
kms list -t small.kms "$kbuild/vmlinux" > list || fail "list"
kms list -S symtab -t small.kms "$kbuild/vmlinux" > list-symtab ||
	fail "list -S symtab"
assert_same list list-symtab "kallsyms tables vs symbol table"
[ "$(wc -l < list)" -gt 20000 ] || fail "list is too short: $(wc -l < list) lines"

# modules.builtin's word is the default, as kbuild links the tables: every
# text symbol's module set equals modules.builtin.ranges' (6.12; 6.1
# writes no such file).
kms_gen -q "${kclasses[@]}" --no-modularity -f sidecar -o builtin.kms "$kbuild/vmlinux" ||
	fail "generate --no-modularity"
assert_same small.kms builtin.kms "the default vs --no-modularity"
# (Where kbuild writes the file: 6.12 has CONFIG_BUILTIN_MODULE_RANGES,
# which the small config asks for, and refuses it under LTO.)
if grep -qx 'CONFIG_BUILTIN_MODULE_RANGES=y' "$kbuild/.config"; then
	gawk -f "$tests_dir/kernel/compare-builtin-ranges.awk" \
		"$kbuild/modules.builtin.ranges" "$kbuild/System.map" \
		list > compare ||
		fail "disagreement with modules.builtin.ranges"
	cat compare
	grep -q '^agree [0-9]* of [0-9]*$' compare || fail "no comparison made"
fi

# With --modularity, Kconfig and the Makefiles take out of modules.builtin
# exactly the objects that could never be modules.  The series of
# kernel-patches/VERSION-module-license took MODULE_LICENSE() out of all
# of them (6.12: n_null.c, vgacon.c, lib/glob.c; 6.1 also binfmt_elf.c,
# freq_table.c, intel_pstate.c, lib/crypto's blake2s): only the samples'
# bool object is left, which says it on purpose.
kms_gen -q "${kclasses[@]}" --modularity -f sidecar -o judged.kms "$kbuild/vmlinux" ||
	fail "generate --modularity"
kms_gen -q "${kclasses[@]}" --modularity -e -f sidecar -o explained.kms "$kbuild/vmlinux" > explain ||
	fail "generate --modularity --explain"
assert_same judged.kms explained.kms "tables with and without --explain"
kms list -t judged.kms "$kbuild/vmlinux" > list-judged || fail "list --modularity tables"
cat > not-modules <<'EOF'
samples/kallmodsyms/bool_notmod.o	not a module: [bool_notmod] (obj-y with every tristate at m)
EOF
testrun_compare sh -c "grep 'not a module' explain | sed 's/\t{[^}]*}//'" < not-modules
dropped=$(sed 's/.*\[\(.*\)\].*/\1/' not-modules | paste -sd '|')
# ...and nothing else changes: a line differs only where those modules
# were, or where a core symbol now needs its object's name to be told
# apart from the code that became core: core_helper.o's two functions,
# and with every class its initcall entry too.
named=2
[ ${#kclasses[@]} = 0 ] || named=3
[ "$(wc -l < list)" = "$(wc -l < list-judged)" ] || fail "line counts differ"
paste -d '\n' list list-judged | gawk -v dropped="$dropped" '
	NR % 2 { old = $0; next }
	old == $0 { next }
	old ~ "\t\\[(" dropped ")\\]" { dropped_lines++; next }
	index($0, old "\t{") == 1 { named++; next }
	{ print "unexplained: " old " -> " $0 }
	END { print "dropped", dropped_lines + 0, "named", named + 0 }' > changes
testrun_compare sed 's/[0-9][0-9]*/N/g' changes <<'EOF'
dropped N named N
EOF
grep -q "^dropped [1-9][0-9]* named $named\$" changes || fail "changes: $(cat changes)"

# At least 30 built-in modules show up, and a few known symbols read right
# (objects that hold a duplicated static name carry their name throughout).
modules=$(grep -o '\[[a-z0-9_]*\]' list | sort -u | wc -l)
[ "$modules" -ge 30 ] || fail "only $modules built-in modules annotated"
# (sha256_transform_blocks is 6.12's only; 6.1's init/main.o
# needs its directory: 6.1 links another main.o whose path ends the same.
# Clang emits other static functions out of line than GCC, and none that
# main.o or transaction.o share with another object: they need no name.
# It names a function's static locals NAME.VAR where GCC writes VAR.N, so
# sched/core.o's init_completion.__key is also fork.o's, cpu.o's, ...:
# among symbols of every class core.o needs its name, and "core.o"
# tells it apart.  ThinLTO makes these functions local, and it renames
# the static functions it promotes (name.llvm.N), so super.o shares no
# name.)
case ${KMS_KERNEL:-6.12}-${KMS_TOOLCHAIN:-gcc} in
6.12-llvm)
	cat > known <<'EOF'
T do_one_initcall
t ext4_fill_super	[ext4] {super.o}
T jbd2_journal_start	[jbd2]
T sha256_update	[libsha256]
t sha256_transform_blocks	[libsha256]
T crc32c	[libcrc32c]
T schedule	{core.o}
EOF
	;;
6.12-thinlto)
	cat > known <<'EOF'
t do_one_initcall
t ext4_fill_super	[ext4]
t jbd2_journal_start	[jbd2]
t sha256_update	[libsha256]
t sha256_transform_blocks	[libsha256]
t crc32c	[libcrc32c]
t schedule
EOF
	;;
6.1-*)
	cat > known <<'EOF'
T do_one_initcall	{init/main.o}
t ext4_fill_super	[ext4] {super.o}
T jbd2_journal_start	[jbd2] {transaction.o}
T sha256_update	[libsha256]
T crc32c	[libcrc32c]
T schedule	{sched/core.o}
EOF
	;;
*)
	# (Among symbols of every class, main.o needs its directory too.)
	cat > known <<'EOF'
T do_one_initcall	{init/main.o}
t ext4_fill_super	[ext4] {super.o}
T jbd2_journal_start	[jbd2] {transaction.o}
t sha256_transform_blocks	[libsha256]
T sha256_update	[libsha256]
T crc32c	[libcrc32c]
T schedule	{sched/core.o}
EOF
	;;
esac
testrun_compare sh -c "grep -E ' (ext4_fill_super|jbd2_journal_start|crc32c|schedule|sha256_transform_blocks|sha256_update|do_one_initcall)(	|$)' list | cut -d' ' -f2-" < known

# The inspector's verify: the tables agree with the image and with its
# build; then it names each object modules.builtin puts in a module that
# Kconfig and the Makefiles say never is one, the same as --explain did,
# and exits 1.
kms verify -b "$kbuild" "$kbuild/vmlinux" > verify
[ $? = 1 ] || fail "verify must exit 1: non-modules say MODULE_LICENSE()"
testrun_compare sed -E 's/[0-9a-f]{16}/ADDR/; s/[0-9]+/N/g' verify <<'EOF'
agree: N ranges, N symbols compared with the build
[bool_notmod]: can never be a module, Kconfig and the Makefiles say: its code from ADDR kms_sample_show on is core kernel
not modules: N in modules.builtin (their sources say MODULE_LICENSE(); kallmodsyms-audit lists them)
EOF
sed -n 's/^\[\([^]]*\)\]: can never be a module.*/\1/p' verify | sort > verify-modules
sed 's/.*\[\(.*\)\].*/\1/' not-modules | sort > explain-modules
assert_same explain-modules verify-modules "verify's non-modules vs --explain's"

# The note kbuild linked in holds the same tables, and a second, appended
# note is refused.
kms list "$kbuild/vmlinux" > list-linked || fail "list from the linked note"
assert_same list list-linked "linked note vs a fresh sidecar"

# Byte for byte: the note kbuild's writer (scripts/kallmodsyms, this
# tree's generator as the series carries it) linked in is the note
# kallmodsyms-gen writes for the linked image, padded as link-vmlinux.sh
# pads it, to the section's size.
cross=$(printf '%s\n' "${kmake_vars[@]}" | sed -n 's/^CROSS_COMPILE=//p')
size=$("${cross}objdump" -h -j .note.kallmodsyms "$kbuild/vmlinux" |
	gawk '$2 == ".note.kallmodsyms" { print strtonum("0x" $3) }')
"${cross}objcopy" -O binary --only-section=.note.kallmodsyms \
	"$kbuild/vmlinux" linked.note || fail "the linked note's bytes"
kms_gen -q "${kclasses[@]}" -f asm --pad-to "$size" -o note.S "$kbuild/vmlinux" &&
	"${cross}gcc" -c note.S -o note.o &&
	"${cross}objcopy" -O binary --only-section=.note.kallmodsyms note.o gen.note ||
	fail "kallmodsyms-gen's note, assembled"
assert_same linked.note gen.note "the linked note vs kallmodsyms-gen's, byte for byte"
testrun_error 1 "kallmodsyms-gen: $kbuild/vmlinux: section .note.kallmodsyms holds a linked kallmodsyms note already" \
	kms_gen -q -f append -o vmlinux.kms "$kbuild/vmlinux"
assert_absent vmlinux.kms

# One kallmodsyms note in vmlinux, in its own section, out of .notes
# (which /sys/kernel/notes shows every user), and no empty notes: the
# link's padding lies inside the descriptor (FORMAT.md 2), so readelf -n
# shows the note and nothing of it besides.
readelf -nW "$kbuild/vmlinux" | gawk '
	/^Displaying notes found in: / { section = $NF }
	$1 == "kallmodsyms" { notes++; where = where " " section }
	/Unknown note type: \(0x00000000\)/ { empty++ }
	END { print notes + 0, "kallmodsyms notes, in" where ",", empty + 0, "empty" }' > notes
testrun_compare cat notes <<'EOF'
1 kallmodsyms notes, in .note.kallmodsyms, 0 empty
EOF

finish
