#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,arm64 configs=small
#
# The build contract Kconfig checks: the series' kbuild patch carries its
# generator (scripts/kallmodsyms/), so CONFIG_KALLMODSYMS is offered
# whatever tools are installed (KALLMODSYMS_GEN, which the series before
# ran, names a missing file here and changes nothing); and the samples'
# bool objects need the samples built in (the test fixture,
# kernel-patches/VERSION-fixture).  The small kernel's .config goes
# through olddefconfig in a scratch build directory of its patched
# sources; nothing is compiled but kconfig itself.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small
src=$(cd "$kbuild/../src" && pwd)

# configure TOOL [SYMBOL=VALUE...]: olddefconfig of the small .config with
# KALLMODSYMS_GEN=TOOL (and the symbols set so first); print the lines of
# the kallmodsyms symbols.
configure() {
	local tool=$1 o=$tmp/o
	shift
	mkdir -p "$o"
	cp "$kbuild/.config" "$o/.config"
	for s in "$@"; do
		sed -i "/^\(# \)\?CONFIG_${s%%=*}[= ]/d" "$o/.config"
		echo "CONFIG_$s" >> "$o/.config"
	done
	make -s -C "$src" O="$o" KALLMODSYMS_GEN="$tool" \
		${kmake_vars[@]+"${kmake_vars[@]}"} olddefconfig > "$tmp/conf.log" 2>&1 ||
		{ fail "olddefconfig with $tool"; cat "$tmp/conf.log" >&2; return; }
	grep -E '^(# )?CONFIG_(KALLMODSYMS|SAMPLE_KALLMODSYMS)' "$o/.config"
}

testrun_compare configure "$tmp/missing" <<'OUT'
CONFIG_KALLMODSYMS=y
CONFIG_KALLMODSYMS_KUNIT_TEST=y
CONFIG_SAMPLE_KALLMODSYMS=y
CONFIG_SAMPLE_KALLMODSYMS_BOOL=y
OUT
# Modular samples: their directory is descended into for modules
# only, so the bool objects would not be linked; Kconfig does not
# offer them.
testrun_compare configure "$tmp/missing" SAMPLE_KALLMODSYMS=m \
	SAMPLE_KALLMODSYMS_BOOL=y <<'OUT'
CONFIG_KALLMODSYMS=y
CONFIG_KALLMODSYMS_KUNIT_TEST=y
CONFIG_SAMPLE_KALLMODSYMS=m
OUT
finish
