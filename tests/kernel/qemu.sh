# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the boot tests: make a busybox initramfs that runs a guest
# script, boot a kernel on it in QEMU (TCG), and split what the script wrote.
#
# The guest script writes to stdout, which is the harness's second channel
# (/dev/kms-data in the guest, raw): sections start with a line "@@@ NAME".
# The console goes to a log that the tests print when something fails.
# A third channel, /dev/kms-ctl, is the test's way to let a guest script
# go on (start_gdbstub).  On x86_64 the channels are the serial ports
# ttyS0-2; on arm64 (QEMU's virt machine has one PL011 UART, ttyAMA0) the
# other two are virtio consoles, hvc0 and hvc1.

# $tmp: tests/lib.sh's, or the script's that sources this; $kbuild:
# kernels.sh's need_kernel.
# shellcheck disable=SC2154

# Where this file and qmp.py are.
qemu_sh_dir=$(dirname "${BASH_SOURCE[0]}")

# guest_arch: the architecture of the kernel in $kbuild.
guest_arch() {
	if grep -qx 'CONFIG_ARM64=y' "$kbuild/.config" 2> /dev/null; then
		echo arm64
	else
		echo x86_64
	fi
}

# boot_image: the image of $kbuild that QEMU boots.
boot_image() {
	case $(guest_arch) in
	arm64) echo "$kbuild/arch/arm64/boot/Image" ;;
	*) echo "$kbuild/arch/x86/boot/bzImage" ;;
	esac
}

# note_in_image: "IMAGE OFFSET": a copy-to-edit source for a boot with a
# damaged note, and where in it the note's descriptor lies.  On x86_64 the
# ELF vmlinux itself, booted through its PVH entry; on arm64 the Image
# QEMU boots, which holds the loaded bytes from _text on.
note_in_image() {
	local note text addr desc sec

	note=$(kms note "$kbuild/vmlinux") || return 1
	desc=$(awk '$1 == "desc_offset" { print $2 }' <<< "$note")
	case $(guest_arch) in
	arm64)
		# (64-bit addresses: bash arithmetic, not awk's doubles)
		addr=$(awk '$1 == "section_address" { print $2 }' <<< "$note")
		sec=$(awk '$1 == "section_offset" { print $2 }' <<< "$note")
		text=0x$(nm "$kbuild/vmlinux" | sed -n 's/ [Tt] _text$//p')
		echo "$(boot_image) $((addr + desc - sec - text))"
		;;
	*)
		echo "$kbuild/vmlinux $desc"
		;;
	esac
}

# qemu_run OUTDIR [QEMU OPTIONS...] -- KERNEL INITRAMFS [KERNEL ARGS...]:
# QEMU for $kbuild's architecture (TCG), its console in OUTDIR/console.log,
# the data channel in OUTDIR/data, the control channel (when OUTDIR/ctl.in
# and ctl.out exist) from the FIFO OUTDIR/ctl.in; $qemu_timeout seconds at
# most (default 300).  The guest has $qemu_mem of RAM (default 512M).
# qemu_start runs it in the background.
qemu_run() {
	local out=$1 opts=() kernel initrd
	shift
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	kernel=$2 initrd=$3
	shift 3
	# What differs: the machine, the console's name, the channels.
	local qemu machine console channels=()
	# shellcheck disable=SC2054 # QEMU's commas
	case $(guest_arch) in
	arm64)
		qemu=qemu-system-aarch64 console=ttyAMA0
		machine=(-M virt -cpu max,pauth-impdef=on)
		channels=(-device virtio-serial-device
			-chardev "file,id=data,path=$out/data"
			-device virtconsole,chardev=data)
		[ -p "$out/ctl.in" ] && channels+=(-chardev "pipe,id=ctl,path=$out/ctl"
			-device virtconsole,chardev=ctl)
		;;
	*)
		qemu=qemu-system-x86_64 console=ttyS0 machine=(-cpu max)
		channels=(-serial "file:$out/data")
		[ -p "$out/ctl.in" ] && channels+=(-serial "pipe:$out/ctl")
		;;
	esac
	${qemu_exec:-} timeout -k 10 "${qemu_timeout:-300}" "$qemu" "${machine[@]}" -m "${qemu_mem:-512M}" -smp 2 \
		-display none -monitor none -no-reboot \
		-serial "file:$out/console.log" "${channels[@]}" \
		${opts[@]+"${opts[@]}"} -kernel "$kernel" -initrd "$initrd" \
		-append "console=$console panic=-1 $*"
}

# qemu_start STDERR QEMU_RUN_ARGS...: qemu_run in the background, its
# stderr into STDERR.  qemu_pid is QEMU's timeout itself (the subshell
# execs it), so that "kill $qemu_pid" stops QEMU, not only a shell that
# was waiting for it; the test's exit stops QEMU whatever happened.
qemu_start() {
	local err=$1
	shift
	(qemu_exec="exec" qemu_run "$@") 2> "$err" &
	qemu_pid=$!
	at_exit "kill $qemu_pid 2> /dev/null"
}

# make_initramfs OUT GUEST_SCRIPT [PROGRAM|DIR=PATH...]: PROGRAMs go to
# /bin, each DIR's tree to PATH.
make_initramfs() {
	local out=$1 script=$2 root f
	shift 2
	root=$(mktemp -d "$tmp/initramfs.XXXXXX")
	chmod 755 "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,tmp,etc}
	local busybox=/bin/busybox data_tty=ttyS1 ctl_tty=ttyS2
	if [ "$(guest_arch)" = arm64 ]; then
		busybox=/usr/local/lib/kallmodsyms/arm64/busybox
		data_tty=hvc0 ctl_tty=hvc1
	fi
	cp "$busybox" "$root/bin/busybox"
	cat > "$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2> /dev/null
ln -s $data_tty /dev/kms-data
ln -s $ctl_tty /dev/kms-ctl
# Open once: hvc resets a closed port's modes (TTY_DRIVER_RESET_TERMIOS).
exec 3<> /dev/kms-data
stty raw -echo <&3
echo "guest: running the test script"
sh /test.sh >&3 2>&1
echo "guest: test script exited \$?"
sync
reboot -f
INIT
	chmod +x "$root/init"
	cp "$script" "$root/test.sh"
	for f in "$@"; do
		case $f in
		*=/*)	mkdir -p "$root/${f#*=}"
			cp -R "${f%%=*}/." "$root/${f#*=}/" ;;
		*)	cp "$f" "$root/bin/" ;;
		esac
	done
	echo 'root:x:0:0:root:/:/bin/sh' > "$root/etc/passwd"
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> "$root/etc/passwd"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
	rm -rf "$root"
}

# boot KERNEL INITRAMFS OUTDIR [KERNEL ARGS...]
# Boots with qemu_run's time limit; OUTDIR gets console.log, data and one file per
# section.  Fails when QEMU fails or times out, or the guest did not finish.
boot() {
	local kernel=$1 initrd=$2 outdir=$3 status=0
	shift 3
	mkdir -p "$outdir"
	: > "$outdir/data"
	qemu_run "$outdir" -- "$kernel" "$initrd" "$@" || status=$?
	if [ "$status" != 0 ]; then
		echo "qemu exited $status (124: timed out); console:" >&2
		tail -n 60 "$outdir/console.log" >&2
		return 1
	fi
	if ! grep -q 'guest: test script exited' "$outdir/console.log"; then
		echo "the guest did not finish its script; console:" >&2
		tail -n 60 "$outdir/console.log" >&2
		return 1
	fi
	split_sections "$outdir"
}

# The guest script of the listing checks: what check_boot reads.
write_listing_guest() {
	cat > "$1" <<'GUEST'
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ kallsyms"
cat /proc/kallsyms
echo "@@@ user"
su -s /bin/sh nobody -c 'cat /proc/kallmodsyms'
echo "@@@ notes"
su -s /bin/sh nobody -c 'base64 /sys/kernel/notes'
echo "@@@ dmesg"
dmesg
GUEST
}

# guest_probe_fn: the guest's shell function probe_each SPEC..., which
# prints for each "SPEC ADDRESS SYMBOL+OFFSET", the probe kprobe_events
# makes of it (the only kprobe then) as /sys/kernel/debug/kprobes/list
# has it, or "SPEC refused"; for guest scripts, tracefs and debugfs
# mounted.
guest_probe_fn() {
	cat <<'GUEST'
probe_each() {
	for spec; do
		if echo "p:kms/probe $spec" >> /sys/kernel/tracing/kprobe_events 2> /dev/null; then
			echo "$spec $(awk '{ print $1, $3 }' /sys/kernel/debug/kprobes/list)"
			echo '-:kms/probe' >> /sys/kernel/tracing/kprobe_events
		else
			echo "$spec refused"
		fi
	done
}
GUEST
}

# probe_addresses FILE: probe_each's lines "SPEC ADDRESS SYMBOL+OFFSET"
# or "SPEC refused",
# each address less its offset: the function's.  kprobes probes past an
# endbr64 (IBT) on a function whose address is taken.
probe_addresses() {
	local spec addr where

	while read -r spec addr where; do
		if [ "$addr" = refused ]; then
			echo "$spec refused"
		else
			printf '%s %x\n' "$spec" $((0x$addr - ${where##*+}))
		fi
	done < "$1"
}

# check_boot OUTDIR VMLINUX: what every booted kernel with the series and
# the fixture must show.
check_boot() {
	local out=$1 vmlinux=$2

	# Byte for byte what the offline reader lists from the same vmlinux.
	kms list "$vmlinux" > "$out/list" || fail "kallmodsyms list"
	assert_same "$out/list" "$out/kallmodsyms" \
		"/proc/kallmodsyms vs kallmodsyms list"
	# Without the annotations it is /proc/kallsyms (no module is loaded,
	# so every TAB starts an annotation).
	sed 's/\t.*//' "$out/kallmodsyms" > "$out/stripped"
	assert_same "$out/kallsyms" "$out/stripped" \
		"/proc/kallmodsyms without annotations vs /proc/kallsyms"

	# The fixture's symbols, exactly: shared.o in two modules, c_main.o
	# and the two util.o told apart by their paths, the bool option's
	# object, which could never be a module but says MODULE_LICENSE(), so
	# that modules.builtin (the kernel's definition, which the tables
	# follow) calls it one (kallmodsyms verify -b and kallmodsyms-audit
	# name it), and plain core code.
	grep -E ' (kms_sample_show|kms_sample_shared|kms_sample_util_one)(	|$)' \
		"$out/kallmodsyms" | cut -d' ' -f2- | as_built > "$out/samples"
	as_built <<'EXPECT' | testrun_compare cat "$out/samples"
t kms_sample_show	[kms_sample_a]
t kms_sample_show	[kms_sample_a] [kms_sample_b]
T kms_sample_shared	[kms_sample_a] [kms_sample_b]
t kms_sample_show	[kms_sample_b]
t kms_sample_show	[kms_sample_c] {c_main.o}
t kms_sample_show	[kms_sample_c] {one/util.o}
T kms_sample_util_one	[kms_sample_c] {one/util.o}
t kms_sample_show	[kms_sample_c] {two/util.o}
t kms_sample_show	[bool_notmod]
t kms_sample_show
EXPECT

	# Read as nobody: every address is zero, the rest is the same.
	cut -d' ' -f1 "$out/user" | sort -u > "$out/user-addresses"
	echo 0000000000000000 > "$out/zero"
	assert_same "$out/zero" "$out/user-addresses" "addresses nobody sees"
	cut -d' ' -f2- "$out/user" > "$out/user-rest"
	cut -d' ' -f2- "$out/kallmodsyms" > "$out/root-rest"
	assert_same "$out/root-rest" "$out/user-rest" \
		"what nobody sees besides addresses"

	# Not a line at boot (the parser's summary is a debug line, a refusal
	# an error line), and nothing alarming; the tables were kept, since
	# the file is there.  The KUnit suites (6.12's patch 0008), which run later
	# and give the parser damaged notes on purpose, are
	# run-selftests.sh's to judge.
	sed '/KTAP version 1/,$d' "$out/dmesg" > "$out/boot-dmesg"
	testrun_compare sh -c "grep -cE '^(\[ *[0-9.]*\] )?kallmodsyms: ' '$out/boot-dmesg' || :" <<'EXPECT'
0
EXPECT
	if grep -E 'BUG|Oops|WARNING|Call Trace' "$out/dmesg"; then
		fail "the boot log of $out has errors"
	fi
}

# start_gdbstub KERNEL INITRAMFS OUTDIR [QEMU OPTIONS...] -- [KERNEL ARGS...]
# Boots in the background with a gdbstub on the Unix socket
# OUTDIR/gdb.sock, its absolute path in $gdbstub (gdb: "target remote
# $gdbstub"), and the control channel (the guest's /dev/kms-ctl) fed from
# the FIFO OUTDIR/ctl.in, so that the test can let the guest script go on
# ("read go < /dev/kms-ctl").  A socket in the test's own directory, not
# a TCP port: no other run can take it between its choice and QEMU's
# bind.  Returns once QEMU listens there (fails if it does not in 60 s).
# Sets qemu_pid; the test's exit stops QEMU whatever happened.  The guest
# has 300 s.
start_gdbstub() {
	local kernel=$1 initrd=$2 outdir=$3 qemu_opts=()
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		qemu_opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	mkdir -p "$outdir"
	outdir=$(cd "$outdir" && pwd)
	gdbstub=$outdir/gdb.sock
	: > "$outdir/data"
	mkfifo "$outdir/ctl.in" "$outdir/ctl.out"
	# shellcheck disable=SC2054 # QEMU's commas
	qemu_start "$outdir/qemu.stderr" "$outdir" \
		-chardev "socket,path=$gdbstub,server=on,wait=off,id=gdbstub" \
		-gdb chardev:gdbstub \
		${qemu_opts[@]+"${qemu_opts[@]}"} -- "$kernel" "$initrd" "$@"
	poll 60 test -S "$gdbstub" || {
		echo "QEMU opened no gdbstub at $gdbstub; its stderr:" >&2
		cat "$outdir/qemu.stderr" >&2
		return 1
	}
}

# start_gdbstub_moved KERNEL INITRAMFS OUTDIR [QEMU OPTIONS...] -- [KERNEL ARGS...]
# start_gdbstub with KASLR (its socket in $gdbstub), for a guest script
# that prints /proc/kallmodsyms in its "kallmodsyms" section and then
# "@@@ ready"; the sections split.  KASLR may keep the link-time slot (one
# boot in some hundred), which would make a test of it trivial: then boot
# again, three boots at most.  Fails if the guest does not get ready or
# the kernel never moved.
start_gdbstub_moved() {
	local kernel=$1 initrd=$2 out=$3 link try
	shift 3
	link=$(nm "$kbuild/vmlinux" | sed -n 's/ T _text$//p')
	for try in 1 2 3; do
		rm -rf "$out"
		start_gdbstub "$kernel" "$initrd" "$out" "$@" kaslr || return 1
		wait_for_line "$out/data" "@@@ ready" 120 || return 1
		split_sections "$out"
		grep -q " T _text\$" "$out/kallmodsyms" || return 1
		grep -q "^$link T _text\$" "$out/kallmodsyms" || return 0
		echo "boot $try: KASLR kept the link-time address; booting again"
		kill "$qemu_pid"
		wait "$qemu_pid" 2> /dev/null
	done
	echo "KASLR did not move the kernel in $try boots" >&2
	return 1
}

# poll SECONDS CMD...: run CMD every 0.1 s until it succeeds (true), or
# until SECONDS have passed or QEMU is gone (false; CMD runs once more
# after QEMU's exit, which may have come after its last output).  Time is
# the wall clock's ($SECONDS), not a count of sleeps: on a loaded machine
# each "sleep 0.1" takes longer.
poll() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		kill -0 "$qemu_pid" 2> /dev/null || { "$@"; return; }
		[ "$SECONDS" -le "$deadline" ] || return 1
		sleep 0.1
	done
}

# wait_for_line FILE LINE SECONDS: until FILE has that line; fails after
# SECONDS, or when QEMU is gone.  wait_for_text: a line holding TEXT.
wait_for_line() { wait_for_grep -x "$@"; }
wait_for_text() { wait_for_grep '' "$@"; }
wait_for_grep() {
	local how=$1 file=$2 line=$3 what=' holding'
	[ -z "$how" ] || what=
	poll "$4" grep -sqF ${how:+"$how"} -- "$line" "$file" || {
		echo "no line$what \"$line\" in $file" >&2
		return 1
	}
}

# wait_qemu SECONDS: QEMU has exited (the guest script ended) in time
# (wall-clock seconds).
wait_qemu() {
	local deadline=$((SECONDS + $1))
	while kill -0 "$qemu_pid" 2> /dev/null; do
		if [ "$SECONDS" -gt "$deadline" ]; then
			kill "$qemu_pid"
			echo "QEMU did not exit in $1 s" >&2
			return 1
		fi
		sleep 0.1
	done
	wait "$qemu_pid" 2> /dev/null
}

# vmcore_opts: QEMU's options and the kernel's parameter for dumps that
# carry VMCOREINFO (the KASLR offset, the build id): -device vmcoreinfo,
# which the guest's fw_cfg driver (found by its parameter: no ACPI) tells
# where the note lies, and a QMP socket, $tmp/qmp.sock, for the dumps.
vmcore_opts=(-device vmcoreinfo -qmp "unix:$tmp/qmp.sock,server=on,wait=off")
vmcore_param=qemu_fw_cfg.ioport=0x10@0x510:0:1:4

# panic_dumps OUTDIR INITRAMFS KIND...: boot $kbuild's kernel, no KASLR,
# with the samples' WARN made a panic (panic_on_warn); once the panic has
# ended, dump the guest: OUTDIR/panic.KIND for each KIND, "core" (ELF, the
# physical memory, as kdump writes it), "paging" (ELF with the virtual
# mappings too) or "flat" (kdump-compressed, makedumpfile's flattened
# format); then stop QEMU.  OUTDIR/console.log holds the panic.
panic_dumps() {
	local out=$1 initrd=$2 kind format
	shift 2
	mkdir -p "$out"
	: > "$out/data"
	: > "$out/console.log"
	qemu_start "$out/qemu.stderr" "$out" "${vmcore_opts[@]}" -- \
		"$(boot_image)" "$initrd" nokaslr kms_sample_a.warn=1 \
		panic_on_warn=1 panic=0 "$vmcore_param"
	if ! wait_for_text "$out/console.log" '---[ end Kernel panic' 120; then
		echo "the kernel did not panic; console:" >&2
		tail -n 30 "$out/console.log" >&2
		return 1
	fi
	for kind in "$@"; do
		format=()
		case $kind in
		paging) format=(paging) ;;
		flat) format=(kdump-zlib) ;;
		esac
		"$qemu_sh_dir/qmp.py" "$tmp/qmp.sock" dump "$out/panic.$kind" \
			${format[@]+"${format[@]}"} || return 1
	done
	kill "$qemu_pid"
	wait "$qemu_pid" 2> /dev/null || true
}

# split_sections OUTDIR: one file per "@@@ NAME" section of OUTDIR/data.
split_sections() {
	gawk -v dir="$1" '
		/^@@@ / { f = dir "/" $2; printf "" > f; next }
		f { print > f }' "$1/data"
}

# The guest script of the damaged-note boots: what check_damaged reads.
write_damaged_guest() {
	cat > "$1" <<'GUEST'
echo "@@@ dmesg"
dmesg
echo "@@@ proc"
if [ -e /proc/kallmodsyms ]; then echo present; else echo absent; fi
t=/sys/kernel/tracing
mount -t tracefs nodev $t 2> /dev/null
echo "@@@ kprobe"
if [ -e $t/kprobe_events ]; then
	echo 'p:kms/x vmlinux:kms_sample_show' >> $t/kprobe_events 2> /dev/null &&
		echo "accepted"
	sed -n 's/^\[ *[0-9.]*\] //p' $t/error_log
fi
GUEST
}

# check_damaged OUTDIR MESSAGE: a kernel booted with a damaged note said
# "kallmodsyms: disabled: MESSAGE" once, nothing alarming, and has no
# /proc/kallmodsyms; its kprobe events (the 6.12 series, 0012) refuse
# "vmlinux:SYM", which without the tables would wait for a module of that
# name.
check_damaged() {
	local out=$1 message=$2
	# (Anchored: KUnit's summary of its suite reads "# kallmodsyms: pass:...")
	sed -nE 's/^(\[ *[0-9.]+\] )?(kallmodsyms: .*)/\2/p' "$out/dmesg" > "$out/lines"
	testrun_compare cat "$out/lines" <<EXPECT
kallmodsyms: disabled: $message
EXPECT
	testrun_compare cat "$out/proc" <<'EXPECT'
absent
EXPECT
	[ "${KMS_KERNEL:-6.12}" = 6.1 ] ||
		testrun_compare cat "$out/kprobe" <<'EXPECT'
trace_kprobe: error: No kallmodsyms tables: no vmlinux: or {OBJ}
EXPECT
	if grep -E 'BUG|Oops|WARNING|Call Trace' "$out/dmesg"; then
		fail "damaged note ($out): the boot log has errors"
	fi
}
