#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-dwarf
#
# gdb-scripts/ with debug info, auto-loaded beside the kernel's own
# vmlinux-gdb.py: both sets of commands work, and a breakpoint on one of
# the duplicate kms_sample_show()s gives a full backtrace whose frames carry
# [module] {objfile}.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/../kernel/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small-dwarf
command -v gdb > /dev/null || { echo "no gdb" >&2; exit 77; }
cd "$tmp" || exit 1
vmlinux=$kbuild/vmlinux
[ -e "$kbuild/vmlinux-gdb.py" ] || fail "no vmlinux-gdb.py in $kbuild"

testrun_compare "$top/gdb-scripts/autoload.sh" "$kbuild" <<EOF
gdb loads the kallmodsyms helpers with $kbuild/vmlinux (add-auto-load-safe-path $kbuild)
EOF
testrun_compare cat "$kbuild/vmlinux-gdb.gdb" <<EOF
# Written by kallmodsyms gdb-scripts/autoload.sh
source $top/gdb-scripts/kallmodsyms-gdb.py
EOF
testrun_error 1 "$top/gdb-scripts/autoload.sh: $tmp/none: no such directory" \
	"$top/gdb-scripts/autoload.sh" "$tmp/none"

# run_gdb NAME GDB COMMANDS...: a batch session on vmlinux that auto-loads
# what is beside it; 240 s.
run_gdb() {
	local name=$1 args=() c
	shift
	for c in "$@"; do
		args+=(-ex "$c")
	done
	timeout -k 10 240 gdb -batch -nx -iex 'set pagination off' \
		-iex 'set confirm off' \
		-iex "add-auto-load-safe-path $kbuild" \
		-iex "source $tests_dir/gdb/capture.py" \
		"$vmlinux" "${args[@]}" > "$name.stdout" 2> "$name.stderr"
}

kms list "$vmlinux" > list || fail "kallmodsyms list"
run_gdb offline \
	'capture scripts info auto-load python-scripts' \
	'capture gdb-scripts info auto-load gdb-scripts' \
	'capture version lx-version' \
	'capture count lx-kallmodsyms --file -c' ||
	fail "gdb offline session"
grep -c '^Yes ' scripts gdb-scripts > loaded
check_loaded() { testrun_compare cat loaded; }
check_loaded <<'EOF'
scripts:1
gdb-scripts:1
EOF
grep -q '^Linux version 6\.12' version || fail "lx-version (the kernel's scripts) did not work"
wc -l < list | testrun_compare cat count

cat > guest.sh <<'EOF'
stty -F /dev/kms-ctl raw -echo
echo "@@@ ready"
read -r go < /dev/kms-ctl
for which in one main two; do
	echo "$which" > /sys/module/kms_sample_c/parameters/run
done
EOF
make_initramfs initrd.gz guest.sh
start_gdbstub "$(boot_image)" initrd.gz live -- nokaslr
wait_for_line live/data "@@@ ready" 120 || fail "the guest did not get ready"
run_gdb live "target remote $gdbstub" \
	'break samples/kallmodsyms/two/util.c:kms_sample_show' \
	'shell echo go > live/ctl.in' 'continue' \
	'capture bt bt 4' 'capture lsmod lx-lsmod' 'delete' 'detach' ||
	fail "gdb live session"
wait_qemu 120 || fail "the guest did not finish"
# Each frame's function as gdb prints it (annotation included), and the
# file it is in (under the source tree's physical path, which the
# compiler recorded: the cache directory may be a symlink); values, lines
# and addresses aside.
sed -E -n 's/^(#[0-9]+) +(0x[0-9a-f]+ in )?([^(]*) \(.* at ([^ ]*):[0-9]+$/\1 \3 at \4/p' bt |
	sed "s|$(cd "$kbuild/../src" && pwd -P)/||; s|${kbuild%/build}/src/||" > frames
testrun_compare cat frames <<'EOF'
#0 kms_sample_show [kms_sample_c] {two/util.o} at samples/kallmodsyms/two/util.c
#1 kms_sample_util_two [kms_sample_c] {two/util.o} at samples/kallmodsyms/two/util.c
#2 run_set [kms_sample_c] {c_main.o} at samples/kallmodsyms/c_main.c
#3 param_attr_store at kernel/params.c
EOF
testrun_compare cat lsmod <<'EOF'
Address            Module                  Size  Used by
EOF

finish
