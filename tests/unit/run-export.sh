#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# export: the tables as 6.12's modules.builtin.ranges (anchor record per
# section with lines, offsets from the section's start, one line per run
# of one module list; code alone from text-only tables, every section
# from --all-classes ones) and as /proc/kallmodsyms text.  Offsets, which the compiler
# decides, are checked against the symbols instead of written out.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables

# offs FILE: the ranges with their offsets, which the compiler decides, as
# OFF-OFF; but .bss's, which are the variables' sizes.
offs() { sed -E '/^\.bss /!s/ [0-9a-f]{8}-[0-9a-f]{8} ([a-z])/ OFF-OFF \1/' "$1"; }
# ext9's adjacent inode.o and super.o ranges are one run; liquid's shared
# object is a run of its own; .init.text's anchor is the linker script's
# _sinittext = . at its start.
text_ranges='.text 00000000-00000000 = _text
.text OFF-OFF ext9
.text OFF-OFF mod_a
.text OFF-OFF mod_b
.text OFF-OFF liquid liquid_vf
.text OFF-OFF liquid
.text OFF-OFF liquid_vf
.text OFF-OFF ext9'
init_ranges='.init.text 00000000-00000000 = _sinittext
.init.text OFF-OFF ext9'
kms export -t fx.kms --format=ranges "$v" > ranges || fail "export --format=ranges"
printf '%s\n' "$text_ranges" "$init_ranges" | testrun_compare offs ranges

# Each run starts at a symbol of its modules, and the code on either side
# of its ends is someone else's.
base_of() {
	readelf -SW "$v" | awk -v s="$1" '{ for (i = 1; i < NF; i++) if ($i == s) print $(i + 2) }'
}
grep -v ' = ' ranges | while read -r sect span mods; do
	base=$(base_of "$sect")
	start=$(printf '%x' $((0x$base + 0x${span%-*})))
	end=$(printf '%x' $((0x$base + 0x${span#*-})))
	# shellcheck disable=SC2086 # one word per module
	want=$(printf '[%s] ' $mods)
	kms lookup -t fx.kms "$v" "$start" "$(printf '%x' $((0x$end - 1)))" |
		sed -E 's/^[^ ]+ //' | sort -u | sed "s/^/$sect $span: /"
	for a in $(printf '%x' $((0x$start - 1))) "$end"; do
		got=$(kms lookup -t fx.kms "$v" "$a" 2> /dev/null | sed -E 's/^[^ ]+ ?//')
		[ "${got%% \{*}" != "${want% }" ] ||
			echo "$sect $span: $mods continues at $a"
	done
done > check
sed -E 's/^([^ ]+) [0-9a-f-]+:/\1 OFF:/' check > check.n
testrun_compare cat check.n <<'EOF'
.text OFF: [ext9] {inode.o}
.text OFF: [mod_a]
.text OFF: [mod_b]
.text OFF: [liquid] [liquid_vf]
.text OFF: [liquid]
.text OFF: [liquid_vf]
.text OFF: [ext9] {inode.o}
.text OFF: [ext9] {super.o}
.init.text OFF: [ext9] {inode.o}
EOF

# Tables of every class (--all-classes): every section's lines, as the
# awk script writes them.  .bss has a line of its own, ext9_count's,
# after the core kernel's reset_devices, its anchor (the first global
# symbol); offsets there are the variables' sizes.  With --map, in the
# order the script reads vmlinux.o's sections (.text, .text.unlikely,
# .init.text, .bss): ext9's run of .text.unlikely takes in its .init.text
# (awk line 460, an object of the same module), so that .init.text has
# no line and that .text line ends at the end of .init.text's offsets.
kms_gen -q --all-classes -f sidecar -o all.kms "$v" || fail "generate --all-classes"
kms export -t all.kms --format=ranges "$v" > all || fail "export, every class"
data_ranges='.data OFF-OFF liquid liquid_vf
.data OFF-OFF ext9
.bss 00000000-00000000 = reset_devices
.bss 00000004-00000008 ext9'
printf '%s\n' "$text_ranges" "$init_ranges" "$data_ranges" | testrun_compare offs all
kms export -t all.kms --format=ranges --map "$fx/vmlinux.map" "$v" > all-map ||
	fail "export --map"
printf '%s\n' "$text_ranges" "$data_ranges" | testrun_compare offs all-map
init_size=$(readelf -SW "$v" | sed -n 's/.* \.init\.text *PROGBITS *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p')
testrun_compare sed -n 2p all-map <<EOF
.text 00000000-$(printf '%08x' $((0x$init_size))) ext9
EOF

# --format=kallmodsyms is list's /proc/kallmodsyms text.
kms export -t fx.kms --format=kallmodsyms "$v" > exported || fail "export --format=kallmodsyms"
kms list -t fx.kms "$v" > listed || fail "list"
assert_same listed exported "export --format=kallmodsyms vs list"

testrun_error 2 'kallmodsyms: export needs --format=ranges or --format=kallmodsyms' \
	kms export "$v"
testrun_error 2 'kallmodsyms: unknown format "csv" (ranges, kallmodsyms)' \
	kms export --format=csv "$v"
testrun_error 2 'kallmodsyms: --map and --o-map are for --format=ranges' \
	kms export --format=kallmodsyms --map "$fx/vmlinux.map" "$v"
testrun_error 2 'kallmodsyms: --o-map needs --map' \
	kms export --format=ranges --o-map "$fx/vmlinux.o.map" "$v"
testrun_error 1 'kallmodsyms: nosuch.map: cannot open linker map: No such file or directory' \
	kms export -t all.kms --format=ranges --map nosuch.map "$v"
printf 'Linker script and memory map\n\n.foo 0x0 0x10\n .foo 0x0 0x10 a.o\n' > other.map
testrun_error 1 "kallmodsyms: other.map: lists none of the sections $fx/vmlinux.map gives vmlinux.o: not vmlinux.o's map?" \
	kms export -t all.kms --format=ranges --map "$fx/vmlinux.map" --o-map other.map "$v"
testrun_error 2 'kallmodsyms: lookup does not take some of these options; see kallmodsyms --help' \
	kms lookup --format=ranges "$v" 0

finish
