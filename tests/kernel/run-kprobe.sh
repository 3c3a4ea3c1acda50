#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# Probe one instance of a duplicated static function in a running kernel
# (the small test kernel, KASLR on, booted in QEMU): the kernel refuses
# the plain name kms_sample_show (eight functions have it), then
# `kallmodsyms probe`, given the guest's /proc/kallmodsyms, writes one
# kprobe_events line per instance in the users' notations; the guest adds
# them through tracefs and runs each instance of kms_sample_c from
# userspace (/sys/module/kms_sample_c/parameters/run).  Each event must
# fire for its own instance only, and the event on kms_sample_a's copy
# (never run after boot) not at all.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
grep -qx 'CONFIG_KPROBE_EVENTS=y' "$kbuild/.config" ||
	{ echo "$kbuild: no CONFIG_KPROBE_EVENTS"; exit 77; }
vmlinux=$kbuild/vmlinux
cd "$tmp" || exit 1

cat > guest.sh <<'EOF'
t=/sys/kernel/tracing
mount -t tracefs nodev $t
stty -F /dev/kms-ctl raw -echo
exec 3< /dev/kms-ctl
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ plain"
echo 'p:kms/plain kms_sample_show' >> $t/kprobe_events || echo "refused"
sed 's/^\[ *[0-9.]*\] //' $t/error_log
echo "@@@ ready"
echo "@@@ added"
while read -r line <&3 && [ "$line" != end ]; do
	echo "$line" >> $t/kprobe_events && echo "$line"
done
echo 1 > $t/events/kms/enable
: > $t/trace
for which in one main two two one; do
	echo $which > /sys/module/kms_sample_c/parameters/run
done
echo "@@@ trace"
grep -v '^#' $t/trace
EOF
make_initramfs initrd.gz guest.sh
start_gdbstub "$(boot_image)" initrd.gz live -- kaslr
wait_for_line live/data "@@@ ready" 120 || fail "the guest did not get ready"
split_sections live

# The problem: the kernel will not guess which kms_sample_show is meant.
# 6.12's tracefs reports the parse error (EINVAL; perf_event_open gives
# EADDRNOTAVAIL); Debian's 6.1 has the stable backport, EADDRNOTAVAIL.
case ${KMS_KERNEL:-6.12} in
6.1) errno="Cannot assign requested address" ;;
*) errno="Invalid argument" ;;
esac
testrun_compare cat live/plain <<EOF
sh: write error: $errno
refused
trace_kprobe: error: The symbol is not unique
  Command: p:kms/plain kms_sample_show
                       ^
EOF

# The answer: one line per instance, from the live listing (KASLR).
probe() { kms probe --kallmodsyms live/kallmodsyms "$vmlinux" "$@"; }
{
	probe -n kms/one 'kms_sample_show [kms_sample_c] {one/util.o}' &&
	probe -n kms/two 'kms_sample_show	[kms_sample_c] {two/util.o}' &&
	probe -n kms/main 'kms_sample_show,4' &&
	probe -n kms/a 'kms_sample_show [kms_sample_a]' &&
	probe -n kms/util 'kms_sample_util_two'
} > lines 2> probe.err || { fail "kallmodsyms probe"; cat probe.err >&2; }
echo end >> lines
# Addresses where the name is shared, the name where it is not.
addr_of() {
	grep -P " kms_sample_show\t$1\$" live/kallmodsyms | cut -d' ' -f1 |
		sed 's/^0*/0x/'
}
testrun_compare cat lines <<EOF
p:kms/one $(addr_of '\[kms_sample_c\] \{one/util.o\}')
p:kms/two $(addr_of '\[kms_sample_c\] \{two/util.o\}')
p:kms/main $(addr_of '\[kms_sample_c\] \{c_main.o\}')
p:kms/a $(addr_of '\[kms_sample_a\]')
p:kms/util kms_sample_util_two
end
EOF
cp lines live/ctl.in
wait_qemu 120 || fail "the guest did not finish"
split_sections live

testrun_compare sed 's/ 0x[0-9a-f]*$/ ADDR/' live/added <<'EOF'
p:kms/one ADDR
p:kms/two ADDR
p:kms/main ADDR
p:kms/a ADDR
p:kms/util kms_sample_util_two
EOF
# "run" called one, main, two, two, one (two through kms_sample_util_two):
# each event fired for its own instance, in that order; kms_sample_a's copy
# never ran.
testrun_compare sed -n 's/.* \([a-z]*\): (\([a-z_]*\)+0x[0-9a-f]*\/0x[0-9a-f]*)$/\1 \2/p' live/trace <<'EOF'
one kms_sample_show
main kms_sample_show
util kms_sample_util_two
two kms_sample_show
util kms_sample_util_two
two kms_sample_show
one kms_sample_show
EOF

finish
