#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-bpf suite=full (bpftrace and bcc, which link LLVM, in a QEMU guest: a 100 MB initramfs)
#
# What bpftrace and bcc, as Debian 12 ships them (0.17 and 0.26), make
# of a built-in module's function today, in a QEMU guest whose kernel
# (small-bpf.config) has this series' /proc/kallmodsyms: a record of
# the "before".  Its checks assert today's behaviour, so the first
# improvement to either tool fails one of them, which then becomes the
# "after" (bench/RESULTS.md has both).  Today bpftrace's parser refuses
# kprobe:ext4:ext4_readdir and kprobe:vmlinux:ext4_readdir ("kprobe
# probe type requires 1 argument"), where the kernel's kprobe events
# take ext4:ext4_readdir; kprobe:ext4_readdir attaches to ext4's
# function, and func, ksym() and kstack name it with no module;
# kprobe:init_once, a name nine functions have, is refused ("Invalid
# argument"; the kernel's error_log: not unique); bcc's
# BPF.ksym(show_module=True) says [kernel] for ext4's functions and for
# each init_once alike.  The same boot runs the "after" of bcc: with
# tracers/bcc's series (applied to a copy of the package in the guest,
# never to the host's), ksym() names each function's module and object
# as the guest's /proc/kallmodsyms does; damaged copies of that file,
# bound over it, each get one warning and today's [kernel]; and the
# installed bcc's attach_kprobe() takes "ext4:ext4_readdir" and
# "fat:init_once{cache.o}" (the kernel's kprobe PMU resolves them),
# whose kprobes fire.  The guest has busybox, bpftrace, python3 with
# the modules that importing bcc loads (bcc-ksym.py), the shared
# libraries ldd names, the kernel headers that compiling bcc-attach.py's
# program reads (found with strace on the host), and a small ext4 image
# on a loop device, whose readdir fires the probes.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/../kernel/qemu.sh
. "$tests_dir/kernel/qemu.sh"

command -v bpftrace > /dev/null || { echo "bpftrace is not installed"; exit 77; }
command -v mke2fs > /dev/null || { echo "mke2fs (e2fsprogs) is not installed"; exit 77; }
need_kernel small-bpf
need_config BPF_SYSCALL DEBUG_INFO_BTF KPROBES EXT4_FS BLK_DEV_LOOP
cd "$tmp" || exit 1

# copy_with_libs FILE...: each FILE, and the shared libraries ldd names
# for it, at their own paths under root/.
copy_with_libs() {
	local f lib
	for f in "$@"; do
		mkdir -p "root$(dirname "$f")"
		cp -L "$f" "root$f"
		ldd "$f" | sed -n 's|.*=> \(/[^ ]*\) .*|\1|p; s|^\t\(/[^ ]*\) .*|\1|p' |
			while read -r lib; do
				[ -e "root$lib" ] && continue
				mkdir -p "root$(dirname "$lib")"
				cp -L "$lib" "root$lib"
			done
	done
}
copy_with_libs "$(command -v bpftrace)"
# bcc: its Python package and libbcc (dlopened by ctypes), python3 and
# the modules that importing bcc loads.
bcc=
py=/usr/bin/python3
if [ -x "$py" ] && PYTHONPATH=/usr/lib/python3/dist-packages "$py" -S \
	"$tests_dir/tracers/bcc-ksym.py" --modules > py-files 2> py-err; then
	bcc=yes
	PYTHONPATH=/usr/lib/python3/dist-packages "$py" -S -c \
		'import bcc; print(bcc.__version__)' > py-version
	mapfile -t ext < <(grep '\.so$' py-files)
	copy_with_libs "$(readlink -f "$py")" /usr/lib/x86_64-linux-gnu/libbcc.so.0 \
		/usr/lib/x86_64-linux-gnu/librt.so.1 "${ext[@]}"
	grep -v '\.so$' py-files | while read -r f; do
		mkdir -p "root$(dirname "$f")"
		cp "$f" "root$f"
	done
	mkdir -p root/bin
	cp "$tests_dir/tracers/bcc-ksym.py" "$tests_dir/tracers/bcc-attach.py" root/bin/
	ln -sf "$(readlink -f "$py")" root/usr/bin/python3
	# The "after": tracers/bcc's series applied to a copy of the package,
	# which the guest imports ahead of the installed one.
	mkdir -p root/patched
	cp -R /usr/lib/python3/dist-packages/bcc root/patched/
	for p in "$top"/tracers/bcc/0*.patch; do
		patch -s -p4 -d root/patched/bcc < "$p" || fail "$p does not apply to bcc $(cat py-version)"
	done
	# The kernel headers that compiling bcc-attach.py's program reads,
	# found by compiling it here against the build tree.
	if command -v strace > /dev/null; then
		mkdir -p kh/arch/x86 kh/include
		cp -Rs "$kbuild/source/arch/x86/include" kh/arch/x86/
		cp -Rs "$kbuild/source/include" kh/
		cp -Rs "$kbuild/arch/x86/include/generated" kh/arch/x86/include/
		cp -Rs "$kbuild/include/generated" kh/include/
		(cd kh && BCC_KERNEL_SOURCE=$PWD PYTHONPATH=/usr/lib/python3/dist-packages \
			strace -f -qq -e trace=openat -o ../kh.trace \
			"$py" -S "$tests_dir/tracers/bcc-attach.py" --compile 2> ../kh.err) ||
			fail "bcc-attach.py does not compile: $(grep error: kh.err | head -n 3)"
		grep -v ENOENT kh.trace | sed -n 's/.*openat(AT_FDCWD, "\([^/"][^"]*\)".*/\1/p' |
			sort -u | while read -r f; do
				[ -f "kh/$f" ] || continue
				mkdir -p "root/kbuild/$(dirname "$f")"
				cp -L "kh/$f" "root/kbuild/$f"
			done
		[ -e root/kbuild/include/linux/kconfig.h ] || fail "no kconfig.h among the headers bcc reads"
	fi
else
	echo "bcc's Python does not import here: no bcc in the guest"
	cat py-err
fi
[ -e root/lib64/ld-linux-x86-64.so.2 ] || fail "ldd named no dynamic loader"

# The ext4 image: a directory whose listing calls ext4_readdir.
mkdir -p img/dir && echo hello > img/dir/file
mke2fs -q -t ext4 -d img root/ext4.img 4M || { fail "mke2fs"; exit 1; }

cat > guest.sh <<'GUEST'
mount -t debugfs nodev /sys/kernel/debug
mount -t tracefs nodev /sys/kernel/tracing
mkdir -p /mnt
mount -t ext4 -o loop /ext4.img /mnt
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ version"
bpftrace --version
# run NAME CMD...: CMD's output and exit status in sections NAME and
# NAME.status.
run() {
	local name=$1 status
	shift
	echo "@@@ $name"
	"$@" 2>&1
	status=$?
	echo "@@@ $name.status"
	echo "exit $status"
}
run list bpftrace -l 'kprobe:ext4_readdir'
run list-ext4 bpftrace -l 'kprobe:ext4:*'
run list-vmlinux bpftrace -l 'kprobe:vmlinux:*'
run list-dup bpftrace -l 'kprobe:init_once'
# trace NAME PROGRAM: bpftrace -e PROGRAM in the background; once its
# kprobe is there (/sys/kernel/debug/kprobes/list, which is kept: what
# it attached to), list /mnt/dir (ext4_readdir) every second until it
# exits, 5 s at most; 150 s in all.  Its output and exit status.
trace() {
	local name=$1 n=0 up=0 pid status
	bpftrace -e "$2" > /tmp/out 2>&1 &
	pid=$!
	: > /tmp/kprobes
	while kill -0 $pid 2> /dev/null && [ $n -lt 150 ] && [ $up -lt 5 ]; do
		cat /sys/kernel/debug/kprobes/list > /tmp/kp
		if [ -s /tmp/kp ]; then
			cp /tmp/kp /tmp/kprobes
			up=$((up + 1))
			ls /mnt/dir > /dev/null
		fi
		n=$((n + 1))
		sleep 1
	done
	kill $pid 2> /dev/null
	wait $pid
	status=$?
	echo "@@@ $name"
	cat /tmp/out
	echo "@@@ $name.status"
	echo "exit $status"
	echo "@@@ $name.kprobes"
	cat /tmp/kprobes
}
trace ext4 'kprobe:ext4:ext4_readdir { @ = count(); exit(); }'
trace vmlinux 'kprobe:vmlinux:ext4_readdir { @ = count(); exit(); }'
trace plain 'kprobe:ext4_readdir { printf("%s|%s\n", func, ksym(reg("ip"))); print(kstack); exit(); }'
trace dup 'kprobe:init_once { @ = count(); exit(); }'
echo "@@@ dup.error_log"
cat /sys/kernel/tracing/error_log
# The kernel's own kprobe events, which share the resolution of
# perf_event_open()'s kprobe PMU with them (the series' 0012).
echo > /sys/kernel/tracing/error_log
echo "@@@ events"
for p in ext4:ext4_readdir vmlinux:ext4_readdir 'fat:init_once{cache.o}'; do
	echo "p:bt/x $p" >> /sys/kernel/tracing/kprobe_events && echo "accepted $p"
	echo "-:bt/x" >> /sys/kernel/tracing/kprobe_events
done 2>&1
echo "@@@ events.error_log"
cat /sys/kernel/tracing/error_log
if [ -e /bin/bcc-ksym.py ]; then
	for f in ext4_readdir init_once; do
		run "bcc-$f" env PYTHONPATH=/usr/lib/python3/dist-packages \
			python3 -S /bin/bcc-ksym.py $f
		run "bcc-after-$f" env PYTHONPATH=/patched:/usr/lib/python3/dist-packages \
			python3 -S /bin/bcc-ksym.py $f
	done
	# Damaged copies of /proc/kallmodsyms, each bound over it in turn.
	k=/tmp/kallmodsyms tab=$(printf '\t')
	cat /proc/kallmodsyms > $k
	head -n 11 $k > /tmp/bad-truncated
	sed -n 12p $k | head -c 20 >> /tmp/bad-truncated
	sed "8s/$tab.*//; 8s/\$/$(printf 'x%.0s' $(seq 3980))/" $k > /tmp/bad-long-line
	: > /tmp/bad-empty
	sed "s/ init_once$tab/ init_once_$(printf 'l%.0s' $(seq 190))$tab/" $k > /tmp/bad-long-name
	sed "s/ ext4_readdir$tab\[ext4\]/& [m2] [m3] [m4] [m5] [m6] [m7] [m8] [m9] [m10]/" \
		$k > /tmp/bad-ten-modules
	for c in truncated long-line empty long-name ten-modules; do
		mount -o bind /tmp/bad-$c /proc/kallmodsyms
		run "bcc-bad-$c" env PYTHONPATH=/patched:/usr/lib/python3/dist-packages \
			python3 -S /bin/bcc-ksym.py ext4_readdir
		umount /proc/kallmodsyms
	done
fi
# bcc attaching by MOD:FUNC (the installed bcc: the series leaves
# attach_kprobe() as it is): ext4's function while ls reads /mnt/dir,
# fat's init_once of cache.o while a FAT file system is made, written
# and read, which allocates the first of fat's cluster cache entries.
if [ -d /kbuild ]; then
	mkdir -p /fat
	fat='dd if=/dev/zero of=/fat.img bs=1k count=2048 2> /dev/null &&
		mkdosfs /fat.img > /dev/null && mount -t vfat -o loop /fat.img /fat &&
		dd if=/dev/zero of=/fat/f bs=1k count=256 2> /dev/null && umount /fat &&
		mount -t vfat -o loop /fat.img /fat && cat /fat/f > /dev/null'
	BCC_KERNEL_SOURCE=/kbuild PYTHONPATH=/usr/lib/python3/dist-packages \
		python3 -S /bin/bcc-attach.py \
		bcc-attach-ext4 ext4:ext4_readdir 'ls /mnt/dir > /dev/null' \
		bcc-attach-vmlinux vmlinux:ext4_readdir true \
		bcc-attach-fat 'fat:init_once{cache.o}' "$fat" 2> /tmp/attach-err
	status=$?
	echo "@@@ bcc-attach.status"
	echo "exit $status"
	echo "@@@ bcc-attach.stderr"
	grep -v '^ \|^In file included\|^#define\|warning:\|note:\|^extern' /tmp/attach-err
fi
GUEST
make_initramfs initrd.gz guest.sh "$tmp/root=/"
# The "after" adds eight python3 runs to the boot, one compiling a BPF
# program under TCG.
qemu_mem=2G qemu_timeout=600 boot "$(boot_image)" initrd.gz out || { fail "boot"; exit 1; }
echo "guest: $(cat out/version)"

# status NAME WANT: bpftrace's exit status in section NAME was WANT.
status() {
	grep -qx "exit $2" "out/$1.status" ||
		fail "$1: bpftrace $(cat "out/$1.status"), expected exit $2; it said: $(head -n 3 "out/$1")"
}
# has NAME LINE: section NAME has that line (a fixed string).
has() {
	grep -qxF -- "$2" "out/$1" || fail "$1: no line \"$2\" in: $(head -n 5 "out/$1")"
}
# module_of ADDR: ADDR's line in the guest's /proc/kallmodsyms, without
# the address.
module_of() {
	awk -v a="$(printf %016x "$1")" '$1 == a { print substr($0, 18) }' out/kallmodsyms
}
refused='ERROR: kprobe probe type requires 1 argument'

# Listing: ext4_readdir by its name alone; "MOD:*", for the built-in
# module or for vmlinux, is no probe bpftrace 0.17 can parse; one line
# for the nine functions called init_once.
status list 0
testrun_compare cat out/list <<'EXPECT'
kprobe:ext4_readdir
EXPECT
for s in list-ext4 list-vmlinux; do
	status "$s" 1
	grep -q ": $refused\$" "out/$s" || fail "$s: not refused as \"$refused\""
done
n=$(grep -cP '^\S+ [tT] init_once(\t|$)' out/kallmodsyms)
[ "$n" -ge 2 ] || fail "the guest has $n functions called init_once, not several"
status list-dup 0
testrun_compare cat out/list-dup <<'EXPECT'
kprobe:init_once
EXPECT

# Attaching: MOD:FUNC is refused by the parser, whether MOD is ext4 or
# vmlinux, and nothing is attached; the kernel's own kprobe events take
# "ext4:ext4_readdir" and "fat:init_once{cache.o}" (the series' 0012,
# which perf_event_open()'s kprobe PMU shares), and refuse
# "vmlinux:ext4_readdir", since ext4_readdir is ext4's.
for s in ext4 vmlinux; do
	status "$s" 1
	grep -q ": $refused\$" "out/$s" || fail "$s: not refused as \"$refused\""
	[ ! -s "out/$s.kprobes" ] || fail "$s: a kprobe was there: $(cat "out/$s.kprobes")"
done
has events 'accepted ext4:ext4_readdir'
has events 'accepted fat:init_once{cache.o}'
grep -q 'error: No such symbol in this built-in module or object' out/events.error_log ||
	fail "kprobe_events took vmlinux:ext4_readdir: $(cat out/events.error_log)"

# The plain name attaches to ext4's function (the kprobe's address is in
# ext4's text, as the guest's /proc/kallmodsyms says), and bpftrace's
# func, ksym() and kstack name it without a module.
status plain 0
has plain 'ext4_readdir|ext4_readdir'
grep -qP '^\s+ext4_readdir\+\d+$' out/plain || fail "plain: kstack has no ext4_readdir+N frame"
read -r kaddr _ at _ < out/plain.kprobes
[ "$(wc -l < out/plain.kprobes)" = 1 ] && [ "${at%+0x*}" = ext4_readdir ] ||
	fail "plain: kprobes: $(cat out/plain.kprobes)"
line=$(module_of $((0x$kaddr - ${at#*+})))
[ "$line" = "$(printf 't ext4_readdir\t[ext4] {dir.o}')" ] ||
	fail "plain: the kprobe at $kaddr is not ext4's ext4_readdir: $line"

# A name several functions have: the kernel refuses it (commit
# b022f0c7e404), bpftrace says "Invalid argument".
status dup 255
has dup 'cannot attach kprobe, Invalid argument'
[ ! -s out/dup.kprobes ] || fail "dup: a kprobe was there: $(cat out/dup.kprobes)"
grep -q 'error: The symbol is not unique' out/dup.error_log ||
	fail "dup: the kernel did not refuse init_once as not unique: $(cat out/dup.error_log)"

# bcc: ksym() with show_module says [kernel] for each function, ext4's
# and the nine init_once alike; get_kprobe_functions() gives names.
if [ -n "$bcc" ]; then
	for f in ext4_readdir init_once; do
		status "bcc-$f" 0
		has "bcc-$f" "get_kprobe_functions $f"
		n=$(grep -cP "^[0-9a-f]+ \\Q$f\\E\\+0x4 \\[kernel\\]\$" "out/bcc-$f")
		m=$(grep -cP "^\\S+ [tT] \\Q$f\\E(\\t|\$)" out/kallmodsyms)
		[ "$n" = "$m" ] || fail "bcc-$f: $n lines \"$f+0x4 [kernel]\", $m functions"
	done
	read -r addr _ < out/bcc-ext4_readdir
	[ "$(module_of $((0x$addr)) | cut -f2)" = '[ext4] {dir.o}' ] ||
		fail "bcc: $addr is not ext4's ext4_readdir"
	echo "bcc: $(head -n 1 out/bcc-ext4_readdir) for /proc/kallmodsyms' $(module_of $((0x$addr)))"

	# After (tracers/bcc): each function's modules and object, as the
	# guest's /proc/kallmodsyms has them at its address; [kernel] where
	# it has none, and before the object alone.
	for f in ext4_readdir init_once; do
		status "bcc-after-$f" 0
		! grep -q Warning "out/bcc-after-$f" || fail "bcc-after-$f: $(grep Warning "out/bcc-after-$f")"
		n=0
		while read -r a ksym; do
			[ "$a" = get_kprobe_functions ] && continue
			want=$(module_of $((0x$a)) | cut -sf2)
			case $want in
			'') want='[kernel]' ;;
			'{'*) want="[kernel] $want" ;;
			esac
			[ "$ksym" = "$f+0x4 $want" ] || fail "bcc-after-$f: $a is \"$ksym\", not \"$f+0x4 $want\""
			n=$((n + 1))
		done < "out/bcc-after-$f"
		m=$(grep -cP "^\\S+ [tT] \\Q$f\\E(\\t|\$)" out/kallmodsyms)
		[ "$n" = "$m" ] || fail "bcc-after-$f: $n lines for $m functions"
	done
	grep -qx '[0-9a-f]* init_once+0x4 \[fat\] {cache.o}' out/bcc-after-init_once ||
		fail "bcc-after-init_once: no fat's init_once of cache.o"
	echo "bcc after: $(head -n 1 out/bcc-after-ext4_readdir)"

	# Damaged files: one warning, then today's [kernel]; a long name and
	# ten modules are no damage.
	w='Warning: /proc/kallmodsyms: '
	for c in truncated:"line 12: no newline at its end" \
		long-line:"line 8: a name of [0-9]* bytes, over the kernel's 511" empty:empty \
		long-name: ten-modules:; do
		s=bcc-bad-${c%%:*}
		status "$s" 0
		if [ -n "${c#*:}" ]; then
			grep -x "$w${c#*:}; showing \[kernel\] for built-in modules" "out/$s" > warning
			[ "$(grep -c Warning "out/$s")" = 1 ] && [ -s warning ] ||
				fail "$s: not one warning \"$w${c#*:}\": $(grep Warning "out/$s")"
			want='[kernel]'
			echo "$s: $(cat warning)"
		else
			! grep -q Warning "out/$s" || fail "$s: $(grep Warning "out/$s")"
			want='[ext4] {dir.o}'
		fi
		[ "${c%%:*}" = ten-modules ] && want='[ext4] [m2] [m3] [m4] [m5] [m6] [m7] [m8] [m9] [m10] {dir.o}'
		line=$(grep -m 1 '^[0-9a-f]* ext4_readdir+' "out/$s")
		[ "${line#* }" = "ext4_readdir+0x4 $want" ] ||
			fail "$s: not \"ext4_readdir+0x4 $want\": $(head -n 2 "out/$s")"
	done
fi
# bcc attaching by MOD:FUNC: the kprobe is on the function
# /proc/kallmodsyms annotates so, and fired; vmlinux:ext4_readdir is
# refused.
if [ -d root/kbuild ]; then
	status bcc-attach 0
	for c in ext4:"t ext4_readdir	[ext4] {dir.o}" fat:"t init_once	[fat] {cache.o}"; do
		s=bcc-attach-${c%%:*}
		has "$s" detached
		awk '/^hits /{p=0} p; /^kprobes$/{p=1}' "out/$s" > "$s.kprobes"
		read -r paddr _ at _ < "$s.kprobes"
		[ "$(wc -l < "$s.kprobes")" = 1 ] && [ "$(module_of $((0x$paddr - ${at#*+})))" = "${c#*:}" ] ||
			fail "$s: the kprobe is not on \"${c#*:}\": $(cat "$s.kprobes")"
		hits=$(sed -n 's/^hits //p' "out/$s")
		[ "${hits:-0}" -gt 0 ] || fail "$s: hits ${hits:-none}"
		echo "bcc: $s: a kprobe at $at, $hits hits"
	done
	has bcc-attach-vmlinux refused
elif [ -n "$bcc" ]; then
	echo "no strace: the headers bcc compiles with are not known; bcc's attach not run"
fi
echo "bpftrace: kprobe:ext4:ext4_readdir refused ($refused); kprobe:ext4_readdir attached at $kaddr, ext4's"
finish
