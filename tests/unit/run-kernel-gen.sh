#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# scripts/export-kernel-gen.sh's copy of the generator, as a kernel tree
# gets it: every file it needs is there, it builds warning-free with the
# flags kbuild gives host programs (KBUILD_HOSTCFLAGS and the copy's
# Makefile), and it writes the bytes kallmodsyms-gen writes on the fixture.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

mkdir -p "$tmp/tree/scripts"
"$top/scripts/export-kernel-gen.sh" "$tmp/tree" > "$tmp/files" ||
	fail "export-kernel-gen.sh"
copy=$tmp/tree/scripts/kallmodsyms
grep -qx 'scripts/kallmodsyms/Makefile' "$tmp/files" || fail "no Makefile listed"
grep -rn '\bkms_\|\bKMS_\|<kms/' "$copy" && fail "the copy still says kms_"

# The objects the copy's Makefile names, built as kbuild builds them.
mapfile -t objs < <(sed -n '/^kallmodsyms-objs :=/,/[^\\]$/p' "$copy/Makefile" |
	sed 's/^kallmodsyms-objs :=//; s/\\$//' | tr -s ' \t' '\n' | grep .)
cflags=(-Wall -Wmissing-prototypes -Wstrict-prototypes -O2
	-fomit-frame-pointer -std=gnu11 -Werror -D_GNU_SOURCE -I"$copy/include")
for o in "${objs[@]}"; do
	cc "${cflags[@]}" -c -o "$tmp/${o}" "$copy/${o%.o}.c" ||
		fail "cc ${o%.o}.c"
done
(cd "$tmp" && cc -o kallmodsyms "${objs[@]}" -ldw -lelf -lzstd) || fail "link"

fx=$(fixture archive)
for classes in "" --all-classes; do
	# shellcheck disable=SC2086
	kms_gen -q $classes -f asm -b "$fx" -m "$fx/vmlinux.map" -o "$tmp/gen.S" \
		"$fx/vmlinux" || fail "kallmodsyms-gen $classes"
	# shellcheck disable=SC2086
	"$tmp/kallmodsyms" -q $classes -b "$fx" -m "$fx/vmlinux.map" \
		-o "$tmp/copy.S" "$fx/vmlinux" || fail "the copy $classes"
	assert_same "$tmp/gen.S" "$tmp/copy.S" "the copy $classes"
done
finish
