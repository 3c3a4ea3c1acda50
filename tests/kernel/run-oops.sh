#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto configs=small
#
# decode on a real call trace: boot the small kernel with
# kms_sample_a.warn=1, so that kms_sample_a's kms_sample_show() -- one of
# nine functions of that name -- WARN()s, and decode the log offline.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
cd "$tmp" || exit 1

cat > guest.sh <<'EOF'
echo "@@@ dmesg"
dmesg
EOF
make_initramfs initrd.gz guest.sh
boot "$kbuild/arch/x86/boot/bzImage" initrd.gz out nokaslr kms_sample_a.warn=1 ||
	{ fail "boot"; exit 1; }

kms decode "$kbuild/vmlinux" < out/dmesg > decoded || fail "decode"
# The lines naming the sample's functions, offsets and sizes masked,
# timestamps cut.  The size picks kms_sample_a's kms_sample_show out of the
# nine; the init function is unique and in the module too.
sed -E 's/^\[ *[0-9.]+\] //; s#\+0x[0-9a-f]+/0x[0-9a-f]+#+OFF/SIZE#g; s/a_main\.c:[0-9]+/a_main.c:LINE/' \
	decoded | grep -E 'kms_sample_[a-z_]+\+OFF' > lines
testrun_compare cat lines <<'EOF'
WARNING: CPU: 0 PID: 1 at samples/kallmodsyms/a_main.c:LINE kms_sample_show+OFF/SIZE [kms_sample_a]
RIP: 0010:kms_sample_show+OFF/SIZE [kms_sample_a]
 ? kms_sample_a_init+OFF/SIZE [kms_sample_a]
EOF

finish
