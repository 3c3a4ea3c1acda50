#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc,llvm configs=small
#
# kallmodsyms export --format=ranges against the kernel's own
# modules.builtin.ranges (CONFIG_BUILTIN_MODULE_RANGES, written by
# scripts/generate_builtin_ranges.awk from the link maps), every line when
# the tables cover every section class (CONFIG_KALLSYMS_ALL kernels), the
# code sections' lines when they cover text alone:
#  - with the tables linked into the image, modules.builtin's word as the
#    awk script takes it (and --no-modularity, the same): identical, given
#    the maps (--map: the order of vmlinux.o's sections); without them,
#    only the lines that order cuts short before their start differ;
#  - with tables made --modularity: identical apart from the lines of
#    objects the modularity analysis proves non-modular, which
#    kallmodsyms-gen -e lists as "not a module"; each one is listed here.
#
# KMS_SMALL_BUILD=DIR uses that build of the small config instead of
# tests/kernel/build.sh small; KMS_EXPORT_TABLES=FILE takes the tables
# from FILE (kallmodsyms-gen -f sidecar of that build, --no-modularity)
# instead of the note linked into its vmlinux, for a build whose note is
# of another format version or missing.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

if [ -n "${KMS_SMALL_BUILD:-}" ]; then
	kbuild=$KMS_SMALL_BUILD
else
	need_kernel small
fi
v=$kbuild/vmlinux
[ -f "$kbuild/modules.builtin.ranges" ] ||
	{ echo "$kbuild has no modules.builtin.ranges"; exit 77; }
tables=()
[ -z "${KMS_EXPORT_TABLES:-}" ] ||
	tables=(-t "$(cd "$(dirname "$KMS_EXPORT_TABLES")" && pwd)/$(basename "$KMS_EXPORT_TABLES")")
cd "$tmp" || exit 1

# Tables of more classes than text: every section's lines.
kms dump "${tables[@]}" "$v" > dump || fail "dump"
classes=
if grep -Eq '^section [0-9]+: class [1-9]' dump; then
	classes=--all-classes
	cp "$kbuild/modules.builtin.ranges" theirs
else
	grep -E '^\.(text|init\.text|exit\.text|altinstr_replacement) ' \
		"$kbuild/modules.builtin.ranges" > theirs
fi
[ -s theirs ] || fail "no lines to compare in $kbuild/modules.builtin.ranges"
maps=(--map "$kbuild/vmlinux.map")

kms export "${tables[@]}" --format=ranges "${maps[@]}" "$v" > ours-linked ||
	fail "export (linked tables)"
diff -u theirs ours-linked >&2 || fail "the linked tables' export differs from modules.builtin.ranges"
kms_gen -q $classes --no-modularity -f sidecar -o nomod.kms "$v" || fail "generate --no-modularity"
kms export -t nomod.kms --format=ranges "${maps[@]}" "$v" > ours-nomod ||
	fail "export (--no-modularity tables)"
assert_same ours-linked ours-nomod "export of the linked tables vs --no-modularity's"

# Without the maps the records go in address order: the lines the awk
# script cuts at a record of a vmlinux.o section it reads later but that
# lies lower (8250's console initcall at __earlycon_table) differ, in
# their end alone.
kms export "${tables[@]}" --format=ranges "$v" > ours-address ||
	fail "export without --map"
diff ours-linked ours-address > address.diff
sed -n 's/^< //p' address.diff | awk '{ split($2, o, "-"); if (o[2] >= o[1]) print }' > not-cut
[ -s not-cut ] && { fail "lines not cut short that differ without --map:"; cat not-cut >&2; }
sed -n 's/^[<>] //p' address.diff | sed -E 's/-[0-9a-f]{8} / /' | sort | uniq -u > unpaired
[ -s unpaired ] && { fail "without --map, lines differ in more than their end:"; cat unpaired >&2; }

kms_gen -q $classes --modularity -f sidecar -o judged.kms "$v" || fail "generate --modularity"
kms export -t judged.kms --format=ranges "${maps[@]}" "$v" > ours || fail "export (--modularity tables)"
# Lines only the kernel's file has, by module; ours has none of its own.
diff theirs ours | sed -n 's/^> //p' > only-ours
[ -s only-ours ] && { fail "lines only in our export:"; cat only-ours >&2; }
diff theirs ours | sed -n 's/^< //p' | awk '{ print $3 }' | sort -u > only-theirs
kms_gen -q $classes --modularity -e -f sidecar -o gen.kms "$v" 2> /dev/null |
	sed -n 's/.*not a module: \[\([^]]*\)\].*/\1/p' | sort -u > not-modules
testrun_compare cat only-theirs < not-modules
echo "modules.builtin.ranges lines not in the export (non-modular objects):"
diff theirs ours | sed -n 's/^< /  /p'

finish
