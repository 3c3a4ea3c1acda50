#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-bpf suite=full (dtrace-utils and a kernel of its own)
#
# DTrace for real: the dtrace command of tracers/dtrace's patched
# dtrace-utils runs in a QEMU guest whose kernel (small-bpf.config: BPF,
# BTF, kprobes, built-in ext4) has this series' /proc/kallmodsyms, and
# lists the FBT probes of the built-in module ext4 ("dtrace -l -P fbt -m
# ext4") and of vmlinux.  FBT takes its functions from tracefs'
# available_filter_functions, which names no built-in module, and files
# each under the module libdtrace's kernel symbols give it: every function
# listed under ext4 must be ext4's text in the guest's /proc/kallmodsyms,
# every traceable function of ext4 whose name nothing outside ext4 has
# must be listed there, and none of them under vmlinux
# (dtrace_files.py fbt).  The unpatched dtrace on the same kernel lists
# nothing under ext4, all under vmlinux.  The guest has busybox, each
# dtrace with the shared libraries ldd names, and its D libraries.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/../kernel/qemu.sh
. "$tests_dir/kernel/qemu.sh"
# shellcheck source=SCRIPTDIR/dtrace.sh
. "$tests_dir/tracers/dtrace.sh"

need_dtrace
need_kernel small-bpf
need_config BPF_SYSCALL DEBUG_INFO_BTF KPROBE_EVENTS EXT4_FS DEBUG_FS
cd "$tmp" || exit 1

# stage NAME BUILD: BUILD's dtrace, libdtrace and D libraries under
# root/NAME, and the shared libraries they need where ldd finds them.
stage() {
	local lib
	mkdir -p "root/$1"
	cp "$2/build/dtrace" "$2/build/libdtrace.so.2" "root/$1/"
	cp -R "$2/build/dlibs" "root/$1/dlibs"
	LD_LIBRARY_PATH=$2/build ldd "$2/build/dtrace" |
		sed -n 's|.*=> \(/[^ ]*\) .*|\1|p; s|^\t\(/[^ ]*\) .*|\1|p' |
		grep -v '/libdtrace\.so' | while read -r lib; do
			mkdir -p "root$(dirname "$lib")"
			cp -L "$lib" "root$lib"
		done
}
stage patched "$patched"
stage unpatched "$unpatched"
[ -e root/lib64/ld-linux-x86-64.so.2 ] || fail "ldd named no dynamic loader"

# dtrace looks for tracefs under debugfs.  -xnolibs: dtrace-utils' D
# libraries (dlibs/6.10/ip.d, tcp.d...) need the network's types, which a
# kernel without CONFIG_NET has not in its BTF ("ip.d", line 164: "no
# struct iphdr definition is available"); listing probes needs none of
# them.  "-l -m fbt:ext4" lists the probes of provider fbt in module ext4
# ("-l -P fbt -m ext4" would list those of fbt and those of ext4, two
# probe descriptions).  Each listing, and its stderr and status, in
# sections of their own.
cat > guest.sh <<'EOF'
mount -t debugfs nodev /sys/kernel/debug
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ filters"
cat /sys/kernel/debug/tracing/available_filter_functions
for d in patched unpatched; do
	for m in ext4 vmlinux; do
		echo "@@@ $d-$m"
		LD_LIBRARY_PATH=/$d DTRACE_OPT_SYSLIBDIR=/$d/dlibs \
			/$d/dtrace -xnolibs -l -m fbt:$m 2> /tmp/err
		status=$?
		echo "@@@ $d-$m.status"
		echo "exit $status"
		cat /tmp/err
	done
done
EOF
make_initramfs initrd.gz guest.sh "$tmp/root=/"
qemu_mem=1G boot "$(boot_image)" initrd.gz out || { fail "boot"; exit 1; }

for s in patched-ext4 patched-vmlinux; do
	grep -qx 'exit 0' "out/$s.status" ||
		{ fail "dtrace -l ($s): $(head -n 5 "out/$s.status")"; exit 1; }
done
python3 "$tests_dir/tracers/dtrace_files.py" fbt out/kallmodsyms out/filters \
	ext4 out/patched-ext4 out/patched-vmlinux > fbt ||
	fail "dtrace -l -P fbt does not list ext4's functions as /proc/kallmodsyms has them"
cat fbt
# The unpatched dtrace reads no text symbol of this file (the per-CPU
# "A" lines come first; docs/dtrace.md): no probe under ext4, and ext4's
# functions under vmlinux.
n=$(grep -c ' fbt ' out/unpatched-ext4)
[ "$n" = 0 ] || fail "the unpatched dtrace lists $n probes under ext4"
awk '$2 == "fbt" { print $4 }' out/patched-ext4 | sort -u > ext4
awk '$2 == "fbt" && $3 == "vmlinux" { print $4 }' out/unpatched-vmlinux | sort -u > vmlinux
n=$(comm -23 ext4 vmlinux | wc -l)
[ "$n" = 0 ] || fail "the unpatched dtrace lists $n of ext4's functions under neither"
echo "unpatched dtrace: $n probes under ext4, $(wc -l < vmlinux) functions under vmlinux, ext4's $(wc -l < ext4) among them"
finish
