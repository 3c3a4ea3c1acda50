#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,arm64 configs=small suite=full (builds dtrace-utils twice: ~4 minutes)
#
# DTrace with tracers/dtrace's patches reads /proc/kallmodsyms: every text
# symbol of the fixture's files, in each layout, and of the file of the
# small test kernel of this run, booted in QEMU, is filed under each of its
# modules (vmlinux without one); a file it cannot read makes it use
# /proc/kallsyms and modules.builtin.ranges, as without the file, with one
# message; and unpatched DTrace dies on a file whose first line is text
# (the booted arm64 kernel's), and reads no text symbol of one whose
# per-CPU "A" lines come first (x86-64's).  libdtrace reads the files in
# place of /proc/kallsyms and /proc/kallmodsyms in a mount namespace
# (tests/tracers/with-proc.sh): nothing is loaded into the running kernel.
# KMS_DTRACE_SRC: a dtrace-utils git repository with the patches' base
# (default: a clone in the cache, dtrace-utils.git; the test skips without
# one); KMS_DTRACE_FILES: more /proc/kallmodsyms files to check.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/../kernel/qemu.sh
. "$tests_dir/kernel/qemu.sh"
# shellcheck source=SCRIPTDIR/dtrace.sh
. "$tests_dir/tracers/dtrace.sh"

here=$tests_dir/tracers
unshare -m true 2> /dev/null || { echo "cannot make a mount namespace (unshare -m)"; exit 77; }
need_dtrace
need_kernel small
for d in "$patched" "$unpatched"; do
	gcc -std=gnu99 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I"$d/src/include" -I"$d/src/uts/common" -I"$d/src/libdtrace" -I"$d/build" \
		-o "$d/build/dtrace-lookup" "$here/dtrace-lookup.c" -L"$d/build" -ldtrace ||
		fail "dtrace-lookup does not build against $d"
done

# lookup BUILD DIR FILE: dtrace-lookup's answers for FILE's symbols, with
# DIR as /proc, into $tmp/answers; its stderr (DTrace's debug output) in
# $tmp/debug.  Returns dtrace-lookup's status.
lookup() {
	python3 "$here/dtrace_files.py" queries "$3" > "$tmp/queries"
	LD_LIBRARY_PATH=$1/build DTRACE_DEBUG=1 "$here/with-proc.sh" "$2" \
		"$1/build/dtrace-lookup" < "$tmp/queries" > "$tmp/answers" 2> "$tmp/debug"
}

# check DIR FILE: patched DTrace files FILE's symbols as FILE says.
check() {
	lookup "$patched" "$1" "$2" || { fail "$1: dtrace-lookup exited $?"; return; }
	python3 "$here/dtrace_files.py" check "$2" "$tmp/answers" > "$tmp/check" ||
		{ fail "$1: DTrace filed symbols elsewhere"; cat "$tmp/check" >&2; }
	grep -q 'falling back' "$tmp/debug" && fail "$1: fell back to /proc/kallsyms"
	head -n 1 "$tmp/check"
}

fx=$(fixture relocatable)
kms_gen -f sidecar -o "$tmp/fx.kms" "$fx/vmlinux" 2> /dev/null
kms list -t "$tmp/fx.kms" "$fx/vmlinux" > "$tmp/list" || fail "kallmodsyms list failed"
kms export -f ranges -t "$tmp/fx.kms" "$fx/vmlinux" > "$tmp/ranges" || fail "export failed"
python3 "$here/dtrace_files.py" make "$tmp/list" "$tmp/ranges" "$tmp/files"
f=$tmp/files

# Each layout; a name of 200 bytes (over DTrace 2.0's 128) in a module;
# a line with ten modules.
for l in x86 arm64 uek; do
	check "$f/$l" "$f/$l/kallmodsyms"
done
long=liquid_vf_init_$(printf 'l%.0s' $(seq 185))
mkdir "$f/long-name" "$f/ten-modules"
sed "s/ liquid_vf_init\t/ $long\t/" "$f/x86/kallmodsyms" > "$f/long-name/kallmodsyms"
grep -q "$long" "$f/long-name/kallmodsyms" || fail "no long name made"
sed 's/\(liquid_probe\t\[liquid\] \[liquid_vf\]\)/\1 [m3] [m4] [m5] [m6] [m7] [m8] [m9] [m10]/' \
	"$f/x86/kallmodsyms" > "$f/ten-modules/kallmodsyms"
grep -q '\[m10\]' "$f/ten-modules/kallmodsyms" || fail "no ten modules made"
for c in long-name ten-modules; do
	check "$f/$c" "$f/$c/kallmodsyms"
done
for file in ${KMS_DTRACE_FILES:-}; do
	mkdir -p "$tmp/given" && cp "$file" "$tmp/given/kallmodsyms"
	check "$tmp/given" "$tmp/given/kallmodsyms"
done

# The file of this run's kernel, booted (KASLR on, no module loaded).
printf '%s\n' 'echo "@@@ kallmodsyms"' 'cat /proc/kallmodsyms' > "$tmp/guest.sh"
make_initramfs "$tmp/initramfs" "$tmp/guest.sh"
boot "$(boot_image)" "$tmp/initramfs" "$tmp/boot" || fail "boot of $kbuild"
real=$tmp/real
mkdir "$real" && cp "$tmp/boot/kallmodsyms" "$real/"
[ "$(wc -l < "$real/kallmodsyms")" -gt 20000 ] ||
	fail "$real/kallmodsyms: $(wc -l < "$real/kallmodsyms") lines"
check "$real" "$real/kallmodsyms"

# Bad files: DTrace says which line, once, and then makes of /proc/kallsyms
# exactly what it makes of it when there is no /proc/kallmodsyms.
mkdir "$f/plain"
cp "$f/x86/kallsyms" "$tmp/ranges" "$f/plain/"
cp "$tmp/ranges" "$f/plain/modules.builtin.ranges"
lookup "$patched" "$f/plain" "$f/x86/kallmodsyms" || fail "plain: dtrace-lookup exited $?"
mv "$tmp/answers" "$tmp/plain-answers"
n=$(printf 'x%.0s' $(seq 3980))
for c in truncated long-line empty; do
	mkdir "$f/$c"
	cp "$f/plain/kallsyms" "$f/plain/modules.builtin.ranges" "$f/$c/"
done
head -n 11 "$f/x86/kallmodsyms" > "$f/truncated/kallmodsyms"
sed -n 12p "$f/x86/kallmodsyms" | head -c 20 >> "$f/truncated/kallmodsyms"
sed "8s/\t.*//; 8s/\$/$n/" "$f/x86/kallmodsyms" > "$f/long-line/kallmodsyms"
[ "$(sed -n 8p "$f/long-line/kallmodsyms" | wc -c)" -gt 4000 ] || fail "no long line made"
: > "$f/empty/kallmodsyms"
for c in truncated:12 long-line:8 empty:; do
	lookup "$patched" "$f/${c%:*}" "$f/x86/kallmodsyms" || fail "$c: dtrace-lookup exited $?"
	cmp -s "$tmp/plain-answers" "$tmp/answers" || fail "${c%:*}: not what /proc/kallsyms gives"
	grep -o 'warning: /proc/kallmodsyms.*' "$tmp/debug" > "$tmp/warning"
	case $c in
	*:) want='warning: /proc/kallmodsyms: no core kernel symbols in 0 lines: falling back to /proc/kallsyms' ;;
	*) want="warning: /proc/kallmodsyms line ${c#*:} unreadable: .*: falling back to /proc/kallsyms" ;;
	esac
	grep -xq "$want" "$tmp/warning" && [ "$(wc -l < "$tmp/warning")" = 1 ] ||
		{ fail "${c%:*}: not one warning matching '$want'"; cat "$tmp/warning" >&2; }
	echo "${c%:*}: $(cut -c1-100 "$tmp/warning")"
done

# Unpatched DTrace reads the size from the type's column, and stops at
# the first line whose type is not a hex digit: it dies in dtrace_open()
# on a file whose first line is such (text: the arm64 layout), and reads
# no text symbol of one whose per-CPU "A" lines come first (x86-64's).
# unpatched NAME DIR: what it makes of DIR/kallmodsyms.
unpatched() {
	local status=0 n
	lookup "$unpatched" "$2" "$2/kallmodsyms" || status=$?
	if head -n 1 "$2/kallmodsyms" | grep -Eq '^[0-9a-f]+ [^0-9a-fA-F] '; then
		[ "$status" = 139 ] ||
			fail "unpatched DTrace on $1 (first line: not a hex digit): exit $status, not SIGSEGV"
		echo "unpatched, $1: exit $status"
		return
	fi
	[ "$status" = 0 ] || { fail "unpatched DTrace on $1: exit $status"; return; }
	n=$(grep -c ' -$' "$tmp/answers")
	[ "$n" -gt 0 ] || fail "unpatched DTrace read $1"
	echo "unpatched, $1: $n of $(wc -l < "$tmp/answers") lookups fail"
}
unpatched "arm64 layout" "$f/arm64"
unpatched "x86 layout" "$f/x86"
unpatched "the booted $(guest_arch) kernel" "$real"
finish
