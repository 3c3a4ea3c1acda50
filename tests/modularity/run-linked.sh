#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The modularity analysis reaches every object kbuild links into vmlinux:
# for each small test kernel already in the cache (built by
# tests/kernel/build.sh; none is built here, and they are only read), every
# member of vmlinux.a and of the lib.a archives must be classified by
# kallmodsyms-audit --objects (builtin, lib, module or while-y), the
# top-level Makefile's libs-y := lib/ and x86's head_$(BITS).o included.
# Skipped when no such kernel is cached.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

# shellcheck source=SCRIPTDIR/../kernel/env.sh
. "$tests_dir/kernel/env.sh"
cache=$kms_cache

# The archives' members, relative to the build tree, sorted.
members() { # BUILD
	local a
	for a in "$1/vmlinux.a" "$1"/lib/lib.a "$1"/arch/*/lib/lib.a; do
		[ -f "$a" ] || continue
		ar t "$a" || fail "ar t $a"
	done | sed "s|^$1/||" | LC_ALL=C sort -u
}

checked=0
for kbuild in "$cache"/linux-*-small*/build; do
	[ -f "$kbuild/vmlinux.a" ] && [ -f "$kbuild/.config" ] &&
		[ -x "$kbuild/scripts/kconfig/conf" ] || continue
	name=${kbuild%/build}
	name=${name##*/}
	audit -b "$kbuild" --objects > "$tmp/$name.objects" 2> "$tmp/stderr" ||
		{ fail "$name: kallmodsyms-audit --objects"; cat "$tmp/stderr" >&2; continue; }
	members "$kbuild" > "$tmp/$name.linked"
	[ -s "$tmp/$name.linked" ] || { fail "$name: no archive members"; continue; }
	grep -qx 'lib/.*\.o' "$tmp/$name.linked" ||
		fail "$name: nothing of lib/ is linked: is this the cache's layout?"
	cut -f1 "$tmp/$name.objects" | LC_ALL=C sort -u > "$tmp/$name.classified"
	# Linked but not classified: none.
	testrun_empty comm -23 "$tmp/$name.linked" "$tmp/$name.classified"
	# lib/ is analysed, and glob.o where it is linked is lib-y or obj-y.
	if grep -qx lib/glob.o "$tmp/$name.linked"; then
		grep -Eq '^lib/glob\.o	(builtin|lib)$' "$tmp/$name.objects" ||
			fail "$name: lib/glob.o is not classified as built in"
	fi
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "no small kernel in $cache"; exit 77; }
echo "$checked cached kernels checked"
finish
