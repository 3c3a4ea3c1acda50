#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64,arm64-llvm configs=small
#
# gdb-scripts/ against the small test kernel: offline on its vmlinux, then
# over QEMU's gdbstub (a Unix socket in the test's directory) with KASLR
# on: lx-kallmodsyms equals the guest's /proc/kallmodsyms byte for byte,
# lookups name the samples' duplicates, a breakpoint in one of them shows
# its annotation in bt; then stopped before the kernel has checked its
# note, and with a note the kernel refused.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/../kernel/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
# The images QEMU boots stopped early and with a damaged note: on x86_64
# the ELF vmlinux (its PVH entry), on arm64 the Image.
gdb=gdb early_image=$kbuild/vmlinux
if [ "$(guest_arch)" = arm64 ]; then
	gdb=gdb-multiarch early_image=$(boot_image)
fi
command -v "$gdb" > /dev/null || { echo "no $gdb" >&2; exit 77; }
cd "$tmp" || exit 1
vmlinux=$kbuild/vmlinux

# run_gdb NAME VMLINUX|"" GDB COMMANDS...: one batch session; its stderr
# goes to NAME.stderr.  Every session has 240 s.
run_gdb() {
	local name=$1 file=$2 args=()
	shift 2
	local c
	for c in "$@"; do
		args+=(-ex "$c")
	done
	timeout -k 10 240 "$gdb" -batch -nx -iex 'set pagination off' \
		-iex 'set confirm off' \
		-iex "source $top/gdb-scripts/kallmodsyms-gdb.py" \
		-iex "source $tests_dir/gdb/capture.py" \
		${file:+"$file"} "${args[@]}" > "$name.stdout" 2> "$name.stderr"
}

# check_capture FILE: the captured command printed what is expected on
# stdin, and no error.
check_capture() {
	testrun_compare cat "$1"
	[ -s "$1.err" ] && fail "$1: $(cat "$1.err")"
}

# check_file FILE: it holds what is expected on stdin.
check_file() { testrun_compare cat "$1"; }

# check_error FILE 'message': the captured command failed with it.
check_error() {
	printf '%s\n' "$2" | testrun_compare cat "$1.err"
}

#
# Offline: the vmlinux file alone.
#
kms list "$vmlinux" > list || fail "kallmodsyms list"
run_gdb offline "$vmlinux" \
	'capture offline-list lx-kallmodsyms --file' \
	'capture offline-nofile lx-kallmodsyms' \
	'capture offline-count lx-kallmodsyms --file -c kms_sample_show' \
	'capture offline-glob lx-kallmodsyms --file -m kms_sample_c kms_sample_*' \
	'capture offline-objfile lx-kallmodsyms --file -c -o two/util.o' ||
	fail "gdb offline session"
assert_same list offline-list "lx-kallmodsyms --file vs kallmodsyms list"
check_error offline-nofile "lx-kallmodsyms: no kernel attached (target remote HOST:PORT); --file reads the vmlinux file alone"
check_capture offline-count <<'EOF'
8
EOF
cut -d' ' -f2- offline-glob | as_built > offline-glob.rest
as_built <<'EOF' | check_file offline-glob.rest
t kms_sample_show	[kms_sample_c] {c_main.o}
t kms_sample_show	[kms_sample_c] {one/util.o}
T kms_sample_util_one	[kms_sample_c] {one/util.o}
t kms_sample_show	[kms_sample_c] {two/util.o}
T kms_sample_util_two	[kms_sample_c] {two/util.o}
t kms_sample_c_init	[kms_sample_c] {c_main.o}
t kms_sample_c_exit	[kms_sample_c] {c_main.o}
EOF
check_capture offline-objfile <<'EOF'
2
EOF

run_gdb nofile "" 'capture nofile lx-kallmodsyms --file' || fail "gdb without a file"
check_error nofile "lx-kallmodsyms: no vmlinux loaded (file vmlinux)"

# Damaged copies of vmlinux: the note's name, its version, the size of
# its paths frame.
kms note "$vmlinux" > note || fail "no note in vmlinux"
name=$(awk '$1 == "name_offset" { print $2 }' note)
desc=$(awk '$1 == "desc_offset" { print $2 }' note)
cp "$vmlinux" vmlinux.noname && patch_byte vmlinux.noname "$name" 78
cp "$vmlinux" vmlinux.version && patch_byte vmlinux.version $((desc + 4)) 02
# paths_size's high byte: the frame would run past the note.
cp "$vmlinux" vmlinux.paths && patch_byte vmlinux.paths $((desc + 23)) ff
for what in noname version paths; do
	run_gdb "bad-$what" "vmlinux.$what" "capture bad-$what lx-kallmodsyms --file -c" ||
		fail "gdb on vmlinux.$what"
done
check_error bad-noname "lx-kallmodsyms: $tmp/vmlinux.noname has no kallmodsyms note: built without CONFIG_KALLMODSYMS?"
check_error bad-version "lx-kallmodsyms: $tmp/vmlinux.version: format version 2, these helpers read version 5"
check_error bad-paths "lx-kallmodsyms: $tmp/vmlinux.paths: bad note header"

#
# A running kernel with KASLR.
#
cat > guest.sh <<'EOF'
stty -F /dev/kms-ctl raw -echo
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ ready"
read -r go < /dev/kms-ctl
echo "@@@ ran"
for which in one main two; do
	echo "$which" > /sys/module/kms_sample_c/parameters/run && echo "$which"
done
echo "@@@ end"
EOF
make_initramfs initrd.gz guest.sh
# The equality below is not trivial only if KASLR moved the kernel.
start_gdbstub_moved "$(boot_image)" initrd.gz live -- ||
	{ fail "a guest with KASLR"; exit 1; }

# The runtime addresses of the ten kms_sample_show()s, and of the one in
# two/util.o.
grep -P ' kms_sample_show(\t|$)' live/kallmodsyms | cut -d' ' -f1 > shows
two=$(grep -P ' kms_sample_show\t\[kms_sample_c\] \{two/util.o\}$' live/kallmodsyms | cut -d' ' -f1)
[ "$(wc -l < shows)" = 8 ] && [ -n "$two" ] || fail "the guest's listing lacks the samples"
# Data of built-in modules, where the kernel lists it (KALLSYMS_ALL): the
# first per-CPU variable where kallsyms lists them as absolute offsets
# from __per_cpu_start (x86-64; arm64 lists their addresses, as any
# variable's), and the first variable, 4 bytes in.
percpu=$(awk '$2 == "A" && /\[/ { print $1; exit }' live/kallmodsyms)
var=$(awk '$2 ~ /^[dDbB]$/ && /\[/ { print $1; exit }' live/kallmodsyms)
data_addrs='' modsym_addr=''
if [ -n "$var" ]; then
	data_addrs="${percpu:+0x$percpu }0x$(printf %x $((0x$var + 4)))"
	modsym_addr=${data_addrs%% *}
fi

run_gdb live "$vmlinux" \
	"target remote $gdbstub" \
	'capture live-list lx-kallmodsyms' \
	'capture live-count lx-kallmodsyms -c' \
	"capture live-lookups lx-kallmodsyms-lookup $(sed 's/^/0x/' shows | tr '\n' ' ')" \
	'capture live-lookup-bad lx-kallmodsyms-lookup no_such_symbol' \
	${data_addrs:+"capture live-data-lookups lx-kallmodsyms-lookup $data_addrs"} \
	${data_addrs:+"capture live-data-modsym print \$lx_modsym($modsym_addr)"} \
	"break *0x$two" \
	"shell echo go > live/ctl.in" \
	'continue' \
	'capture live-bt bt 1' \
	'capture live-modsym print $lx_modsym($pc)' \
	'capture live-hits info breakpoints' \
	'delete' \
	'detach' || fail "gdb live session"
wait_qemu 120 || fail "the guest did not finish"
split_sections live

assert_same live/kallmodsyms live-list "lx-kallmodsyms vs /proc/kallmodsyms (KASLR)"
wc -l < live/kallmodsyms | check_capture live-count

mapfile -t addrs < <(sed 's/^/0x/' shows)
kms lookup -K live/kallmodsyms "$vmlinux" "${addrs[@]}" > lookups ||
	fail "kallmodsyms lookup"
assert_same lookups live-lookups "lx-kallmodsyms-lookup vs kallmodsyms lookup"
if [ -n "$data_addrs" ]; then
	# shellcheck disable=SC2086 # two addresses
	kms lookup -K live/kallmodsyms "$vmlinux" $data_addrs > data-lookups ||
		fail "kallmodsyms lookup (data)"
	assert_same data-lookups live-data-lookups "lx-kallmodsyms-lookup vs kallmodsyms lookup (data)"
	tail -n 1 data-lookups | grep -q '^[^ ]*+0x4/0x[0-9a-f]* \[' ||
		fail "a variable of a built-in module: $(cat data-lookups)"
	sed 's/^\$[0-9]* = //' live-data-modsym > live-data-modsym.value
	head -n1 data-lookups | sed 's/^/"/; s/$/"/' |
		testrun_compare cat live-data-modsym.value
elif grep -q '^CONFIG_KALLSYMS_ALL=y' "$kbuild/.config"; then
	fail "no data symbol of a built-in module in /proc/kallmodsyms"
fi
sed 's/+0x0\/0x[0-9a-f]*//' live-lookups > live-lookups.names
check_file live-lookups.names <<'EOF'
kms_sample_show [kms_sample_a]
kms_sample_show [kms_sample_a] [kms_sample_b]
kms_sample_show [kms_sample_b]
kms_sample_show [kms_sample_c] {c_main.o}
kms_sample_show [kms_sample_c] {one/util.o}
kms_sample_show [kms_sample_c] {two/util.o}
kms_sample_show [bool_notmod]
kms_sample_show
EOF
# gdb's own words, which depend on whether the vmlinux has DWARF.
if readelf -S "$vmlinux" | grep -q ' \.debug_info '; then
	no_symbol='No symbol "no_such_symbol" in current context.'
else
	no_symbol='No symbol table is loaded.  Use the "file" command.'
fi
check_error live-lookup-bad "lx-kallmodsyms-lookup: \"no_such_symbol\": $no_symbol"

# The breakpoint stopped the third run only (one, main, two), in two/util.o.
check_file live/ran <<'EOF'
one
main
two
EOF
sed -n 's/^#0 *0x[0-9a-f]* in /#0  /p' live-bt > live-bt.frame
check_file live-bt.frame <<'EOF'
#0  kms_sample_show [kms_sample_c] {two/util.o} ()
EOF
sed 's/^\$[0-9]* = //; s/+0x0\/0x[0-9a-f]*//' live-modsym > live-modsym.name
check_file live-modsym.name <<'EOF'
"kms_sample_show [kms_sample_c] {two/util.o}"
EOF
grep -c 'breakpoint already hit 1 time' live-hits > live-hits.count
check_file live-hits.count <<'EOF'
1
EOF

#
# Stopped before the kernel has checked its note (no KASLR), and
# again once it has: the helpers read the note in its section either way,
# as what the kernel keeps is its own (FORMAT.md 5), and need say nothing.
#
addr_of() { nm "$vmlinux" | awk -v s="$1" '$3 == s { print $1; exit }'; }
init=$(addr_of kallmodsyms_init)
# (a device initcall that stays out of line under ThinLTO too)
later=$(addr_of kms_sample_c_init)
start_gdbstub "$early_image" initrd.gz early -S -- nokaslr
run_gdb early "$vmlinux" \
	"target remote $gdbstub" \
	"hbreak *0x$init" 'continue' \
	'capture early-count lx-kallmodsyms -c -m kms_sample_c' \
	'lx-kallmodsyms -c kms_sample_show' \
	'delete' "hbreak *0x$later" 'continue' \
	'capture later-count lx-kallmodsyms -c -m kms_sample_c' \
	'kill-guest' || fail "gdb early session"
wait_qemu 60 || fail "QEMU did not stop after kill"
grep -c '[[]kms_sample_c[]]' list | check_capture early-count
grep -c '[[]kms_sample_c[]]' list | check_capture later-count
grep '^lx-kallmodsyms: ' early.stderr > early.notices
check_file early.notices < /dev/null

#
# A kernel that refused its note: the commands say so; --file shows why.
#
read -r image idesc < <(note_in_image)
cp "$image" image.paths
patch_byte image.paths $((idesc + 23)) ff
start_gdbstub image.paths initrd.gz refused -- nokaslr
wait_for_line refused/data "@@@ ready" 120 || fail "the guest did not get ready"
run_gdb refused vmlinux.paths \
	"target remote $gdbstub" \
	'capture refused-list lx-kallmodsyms -c' \
	'capture refused-lookup lx-kallmodsyms-lookup $pc' \
	'capture refused-file lx-kallmodsyms --file -c' \
	'kill-guest' || fail "gdb session with a refused note"
wait_qemu 60 || fail "QEMU did not stop after kill"
# The tables come from the file's note, the one the kernel refused.
refused="$tmp/vmlinux.paths: bad note header (the kernel refused it too, and logged \"kallmodsyms: disabled: ...\")"
check_error refused-list "lx-kallmodsyms: $refused"
check_error refused-lookup "lx-kallmodsyms-lookup: $refused"
check_error refused-file "lx-kallmodsyms: $tmp/vmlinux.paths: bad note header"
grep -o 'kallmodsyms: disabled: .*' refused/console.log | tr -d '\r' > refused.lines
check_file refused.lines <<'EOF'
kallmodsyms: disabled: bad note header
EOF

finish
