#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# kbuild's generator (sidecar/gen/kbuild_main.c, the program a kernel tree
# builds from scripts/export-kernel-gen.sh's copy) writes the bytes
# kallmodsyms-gen writes from the same inputs, with the command lines
# link-vmlinux.sh gives each: the fixture linked by GNU ld, by ld.lld and
# through ThinLTO (where clang-16 is installed), text alone and every
# class, padded or not; and its --verify takes the note that describes the
# image and refuses one that does not.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

kbuild_gen() { $KMS_WRAP "$KMS_BUILD/kallmodsyms-kbuild" "$@"; }

# same FIXTURE NAME: both writers on FIXTURE, each way kbuild runs them.
same() {
	local fx=$1 name=$2 classes pad
	for classes in "" --all-classes; do
		for pad in "" "--pad-to 8192" --headroom; do
			# shellcheck disable=SC2086
			kms_gen -q $classes -f asm $pad -b "$fx" -m "$fx/vmlinux.map" \
				-o "$tmp/gen.S" "$fx/vmlinux" ||
				fail "$name: kallmodsyms-gen $classes $pad"
			# shellcheck disable=SC2086
			kbuild_gen -q $classes $pad -b "$fx" -m "$fx/vmlinux.map" \
				-o "$tmp/kbuild.S" "$fx/vmlinux" ||
				fail "$name: kallmodsyms-kbuild $classes $pad"
			assert_same "$tmp/gen.S" "$tmp/kbuild.S" "$name $classes $pad"
		done
	done
}

fx=$(fixture archive)
same "$fx" "GNU ld"

# The warnings are kallmodsyms-gen's, under the program's name.
kms_gen -f asm -b "$fx" -m "$fx/vmlinux.map" -o "$tmp/gen.S" "$fx/vmlinux" \
	2> "$tmp/gen.err" || fail "kallmodsyms-gen with warnings"
kbuild_gen -b "$fx" -m "$fx/vmlinux.map" -o "$tmp/kbuild.S" "$fx/vmlinux" \
	2> "$tmp/kbuild.err" || fail "kallmodsyms-kbuild with warnings"
[ -s "$tmp/gen.err" ] || fail "the fixture gives kallmodsyms-gen no warning"
sed 's/^kallmodsyms-gen:/kallmodsyms:/' "$tmp/gen.err" > "$tmp/gen.renamed"
assert_same "$tmp/gen.renamed" "$tmp/kbuild.err" "the warnings"

# --verify: a copy with the note of its own tables passes, one with the
# tables of every class fails.
cp "$fx/vmlinux" "$tmp/good"
kms_gen -q -f append -b "$fx" -m "$fx/vmlinux.map" "$tmp/good" ||
	fail "append the note"
testrun_empty kbuild_gen -q -b "$fx" -m "$fx/vmlinux.map" --verify "$tmp/good"
cp "$fx/vmlinux" "$tmp/stale"
kms_gen -q --all-classes -f append -b "$fx" -m "$fx/vmlinux.map" "$tmp/stale" ||
	fail "append the note of every class"
testrun_error 1 "kallmodsyms: $tmp/stale: the linked kallmodsyms tables do not match this image (stale note?)" \
	kbuild_gen -q -b "$fx" -m "$fx/vmlinux.map" --verify "$tmp/stale"

# Usage: the build tree and the map are always given; an output or --verify.
run_failing 2 "" kbuild_gen -m "$fx/vmlinux.map" -o "$tmp/x.S" "$fx/vmlinux"
run_failing 2 "" kbuild_gen -b "$fx" -m "$fx/vmlinux.map" "$fx/vmlinux"
run_failing 2 "" kbuild_gen -b "$fx" -m "$fx/vmlinux.map" --pad-to 1x \
	-o "$tmp/x.S" "$fx/vmlinux"

if command -v clang-16 > /dev/null && command -v ld.lld-16 > /dev/null &&
	command -v llvm-ar-16 > /dev/null; then
	export CC_FIXTURE=clang-16 LD_FIXTURE=ld.lld-16
	same "$(fixture archive)" "ld.lld"
	same "$(LTO_FIXTURE=thin fixture archive)" "ThinLTO"
else
	echo "clang-16, ld.lld-16 or llvm-ar-16 missing: GNU ld alone"
fi
finish
