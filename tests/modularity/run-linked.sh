#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# The modularity analysis reaches every object kbuild links into vmlinux:
# in the small test kernel of this run (need_kernel), every member of
# vmlinux.a and of the lib.a archives must be classified by
# kallmodsyms-audit --objects (builtin, lib, module or while-y), the
# top-level Makefile's libs-y := lib/ and x86's head_$(BITS).o included.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"

# The archives' members, relative to the build tree, sorted.
members() { # BUILD
	local a
	for a in "$1/vmlinux.a" "$1"/lib/lib.a "$1"/arch/*/lib/lib.a; do
		[ -f "$a" ] || continue
		ar t "$a" || fail "ar t $a"
	done | sed "s|^$1/||" | LC_ALL=C sort -u
}

need_kernel small
name=$(basename "$(dirname "$kbuild")")
[ -x "$kbuild/scripts/kconfig/conf" ] || { fail "$name: no scripts/kconfig/conf"; finish; }
audit -b "$kbuild" --objects > "$tmp/objects" 2> "$tmp/stderr" ||
	{ fail "$name: kallmodsyms-audit --objects"; cat "$tmp/stderr" >&2; finish; }
members "$kbuild" > "$tmp/linked"
[ -s "$tmp/linked" ] || { fail "$name: no archive members"; finish; }
grep -qx 'lib/.*\.o' "$tmp/linked" ||
	fail "$name: nothing of lib/ is linked: is this the cache's layout?"
cut -f1 "$tmp/objects" | LC_ALL=C sort -u > "$tmp/classified"
# Linked but not classified: none.
testrun_empty comm -23 "$tmp/linked" "$tmp/classified"
# lib/ is analysed, and glob.o where it is linked is lib-y or obj-y.
if grep -qx lib/glob.o "$tmp/linked"; then
	grep -Eq '^lib/glob\.o	(builtin|lib)$' "$tmp/objects" ||
		fail "$name: lib/glob.o is not classified as built in"
fi
finish
