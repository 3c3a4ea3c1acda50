#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc,llvm configs=small
#
# kallmodsyms export --format=ranges against the kernel's own
# modules.builtin.ranges (CONFIG_BUILTIN_MODULE_RANGES, written by
# scripts/generate_builtin_ranges.awk from the link maps), code sections
# only, since the tables cover code:
#  - with the tables linked into the image, modules.builtin's word as the
#    awk script takes it (and --no-modularity, the same): identical;
#  - with tables made --modularity: identical apart from the lines of
#    objects the modularity analysis proves non-modular, which
#    kallmodsyms-gen -e lists as "not a module"; each one is listed here.
#
# KMS_SMALL_BUILD=DIR uses that build of the small config instead of
# tests/kernel/build.sh small.
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
cd "$tmp" || exit 1

code='^\.(text|init\.text|exit\.text|altinstr_replacement) '
grep -E "$code" "$kbuild/modules.builtin.ranges" > theirs
[ -s theirs ] || fail "no code lines in $kbuild/modules.builtin.ranges"

kms export --format=ranges "$v" > ours-linked || fail "export (linked tables)"
diff -u theirs ours-linked >&2 || fail "the linked tables' export differs from modules.builtin.ranges"
kms_gen -q --no-modularity -f sidecar -o nomod.kms "$v" || fail "generate --no-modularity"
kms export -t nomod.kms --format=ranges "$v" > ours-nomod || fail "export (--no-modularity tables)"
assert_same ours-linked ours-nomod "export of the linked tables vs --no-modularity's"

kms_gen -q --modularity -f sidecar -o judged.kms "$v" || fail "generate --modularity"
kms export -t judged.kms --format=ranges "$v" > ours || fail "export (--modularity tables)"
# Lines only the kernel's file has, by module; ours has none of its own.
diff theirs ours | sed -n 's/^> //p' > only-ours
[ -s only-ours ] && { fail "lines only in our export:"; cat only-ours >&2; }
diff theirs ours | sed -n 's/^< //p' | awk '{ print $3 }' | sort -u > only-theirs
kms_gen -q --modularity -e -f sidecar -o gen.kms "$v" 2> /dev/null |
	sed -n 's/.*not a module: \[\([^]]*\)\].*/\1/p' | sort -u > not-modules
testrun_compare cat only-theirs < not-modules
echo "modules.builtin.ranges lines not in the export (non-modular objects):"
diff theirs ours | sed -n 's/^< /  /p'

finish
