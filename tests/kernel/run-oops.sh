#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
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
boot "$(boot_image)" initrd.gz out nokaslr kms_sample_a.warn=1 ||
	{ fail "boot"; exit 1; }

kms decode "$kbuild/vmlinux" < out/dmesg > decoded || fail "decode"
# The lines naming the sample's functions, offsets and sizes masked,
# timestamps cut, and the unwinder's "? " (whether it trusts a frame is
# the kernel config's business).  The size picks kms_sample_a's
# kms_sample_show out of the nine; the init function is unique and in
# the module too.  Where the vmlinux has DWARF (small-dwarf), decode adds
# each frame's source line, the sources' directory masked as SRC.
sed -E 's/^\[ *[0-9.]+\] //; s/^ \? / /; s#\+0x[0-9a-f]+/0x[0-9a-f]+#+OFF/SIZE#g; s/CPU: [0-9]+/CPU: N/;
	s# /[^ ]*/(samples/kallmodsyms/)# SRC/\1#; s/a_main\.c:[0-9]+/a_main.c:LINE/g' \
	decoded | grep -E 'kms_sample_[a-z_]+\+OFF' > lines
if readelf -S "$kbuild/vmlinux" | grep -q ' \.debug_info '; then
	where=' SRC/samples/kallmodsyms/a_main.c:LINE'
else
	where=
fi
# The registers and the trace as each architecture prints them: x86-64's
# RIP and a trace of callers; arm64's pc, lr and a trace from the function
# that warned.
if [ "$(guest_arch)" = arm64 ]; then
	testrun_compare cat lines <<EOF
WARNING: CPU: N PID: 1 at samples/kallmodsyms/a_main.c:LINE kms_sample_show+OFF/SIZE [kms_sample_a]$where
pc : kms_sample_show+OFF/SIZE [kms_sample_a]$where
lr : kms_sample_show+OFF/SIZE [kms_sample_a]$where
 kms_sample_show+OFF/SIZE [kms_sample_a]$where
 kms_sample_a_init+OFF/SIZE [kms_sample_a]$where
EOF
else
	testrun_compare cat lines <<EOF
WARNING: CPU: N PID: 1 at samples/kallmodsyms/a_main.c:LINE kms_sample_show+OFF/SIZE [kms_sample_a]$where
RIP: 0010:kms_sample_show+OFF/SIZE [kms_sample_a]$where
 kms_sample_a_init+OFF/SIZE [kms_sample_a]$where
EOF
fi

finish
