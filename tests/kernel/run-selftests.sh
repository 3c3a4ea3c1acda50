#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# The series' own tests, as the kernel runs them: the KUnit suites of patch
# 0008 (6.1: 0006; built into the small kernel, run at boot, read with the
# tree's tools/testing/kunit/kunit.py parse), the kselftest of patch 0009
# (6.1: 0007)
# (tools/testing/selftests/kallmodsyms/kallmodsyms.sh of the tree, run in
# the guest) and, where the series has the tracing patches (6.12), the
# tree's ftracetest on its probe event cases: 0014's
# kprobe_builtin_module.tc and fprobe_builtin_module.tc, which must pass,
# and the cases whose parse 0012 (kprobes) and 0013 (fprobes) touch, which
# must not fail.  One boot serves all.  The guest's part and the checks
# are selftests.sh's, which run-sanitizers.sh runs on the small-debug kernel.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
# shellcheck source=SCRIPTDIR/selftests.sh
. "$tests_dir/kernel/selftests.sh"
cd "$tmp" || exit 1
grep -qx 'CONFIG_KALLMODSYMS_KUNIT_TEST=y' "$kbuild/.config" ||
	{ fail "the small kernel has no CONFIG_KALLMODSYMS_KUNIT_TEST"; exit 1; }

{
	selftests_guest
	cat <<'EOF'
echo "@@@ dmesg"
dmesg
echo "@@@ dmesg-raw"
dmesg -r
EOF
} > guest.sh
make_initramfs initrd.gz guest.sh "${selftests_files[@]}"
boot "$(boot_image)" initrd.gz out || { fail "boot"; exit 1; }

check_kunit out
check_parser_lines out
check_kselftest out
check_ftracetest out

finish
