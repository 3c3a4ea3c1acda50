#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,arm64 configs=small
#
# The build contract Kconfig checks.  A series whose kbuild patch carries
# the generator (6.12's 0003: scripts/kallmodsyms/) offers
# CONFIG_KALLMODSYMS whatever tools are installed; one that runs the
# external kallmodsyms-gen (6.1's 0001) offers it only when
# KALLMODSYMS_GEN runs and writes the format version the kernel reads, so
# that a tree configured where the tool is missing (allyesconfig,
# randconfig) builds without it.  And in both the samples' bool
# objects need the samples built in (the test fixture,
# kernel-patches/VERSION-fixture).  The small kernel's
# .config goes through olddefconfig in a scratch build directory of its
# patched sources; nothing is compiled but kconfig itself.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small
src=$(cd "$kbuild/../src" && pwd)
gen=$KMS_BUILD/kallmodsyms-gen

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

if [ -f "$src/scripts/kallmodsyms/Makefile" ]; then
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
	exit
fi

# A tool that writes another format version.
cat > "$tmp/gen4" <<'GEN'
#!/bin/sh
case "$1" in --format-version) echo 4 ;; *) exit 1 ;; esac
GEN
chmod +x "$tmp/gen4"

# What the tree's own script reports (Kconfig and link-vmlinux.sh use it).
testrun_compare sh -c "for t in '$gen' '$tmp/gen4' '$tmp/missing' /bin/true; do
	sh '$src/scripts/kallmodsyms-gen-format.sh' \"\$t\"; done" <<'OUT'
3
4
0
0
OUT

testrun_compare configure "$gen" <<'OUT'
CONFIG_KALLMODSYMS_GEN_FORMAT=3
CONFIG_KALLMODSYMS=y
CONFIG_KALLMODSYMS_KUNIT_TEST=y
CONFIG_SAMPLE_KALLMODSYMS=y
CONFIG_SAMPLE_KALLMODSYMS_BOOL=y
OUT
# No tool: the option is gone (its KUnit tests with it), and the kernel
# configures without it.
testrun_compare configure "$tmp/missing" <<'OUT'
CONFIG_KALLMODSYMS_GEN_FORMAT=0
CONFIG_SAMPLE_KALLMODSYMS=y
CONFIG_SAMPLE_KALLMODSYMS_BOOL=y
OUT
# A tool of another format version: the same.
testrun_compare configure "$tmp/gen4" <<'OUT'
CONFIG_KALLMODSYMS_GEN_FORMAT=4
CONFIG_SAMPLE_KALLMODSYMS=y
CONFIG_SAMPLE_KALLMODSYMS_BOOL=y
OUT
# Modular samples: their directory is descended into for modules only, so
# the bool objects would not be linked; Kconfig does not offer them.
testrun_compare configure "$gen" SAMPLE_KALLMODSYMS=m SAMPLE_KALLMODSYMS_BOOL=y <<'OUT'
CONFIG_KALLMODSYMS_GEN_FORMAT=3
CONFIG_KALLMODSYMS=y
CONFIG_KALLMODSYMS_KUNIT_TEST=y
CONFIG_SAMPLE_KALLMODSYMS=m
OUT

finish
