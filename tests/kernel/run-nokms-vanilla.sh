#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-nokms,small-vanilla suite=full (two kernels of its own: about 12 minutes each to build on two cores without ccache, two boots of under a minute)
#
# With the series applied and CONFIG_KALLMODSYMS=n, the probe grammar the
# series adds is compiled out: "vmlinux:SYM", "SYM{OBJ}" and "MOD:SYM" of
# a built-in module behave exactly as on vanilla 6.12.  Both small kernels
# (small-nokms; small-vanilla, the same config on the unpatched source)
# boot in QEMU and are given the same probe definitions, one at a time;
# after each, the write's status (errno as the shell words it), the
# kprobe_events and dynamic_events listings and tracing/error_log must be
# the same on both, line for line.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small-vanilla
vanilla=$kbuild
need_config KPROBE_EVENTS FPROBE_EVENTS
need_kernel small-nokms
nokms=$kbuild
need_config KPROBE_EVENTS FPROBE_EVENTS
cd "$tmp" || exit 1

# The functions probed, as mainline has them: vfs_read() (fs/read_write.c,
# core kernel, one of its name) and fat_fill_super() (fs/fat/inode.c, in
# the built-in module fat).  Each kernel must have them, or the
# comparison would only show two refusals alike.
for k in "$vanilla" "$nokms"; do
	testrun_compare gawk '$3 == "vfs_read" || $3 == "fat_fill_super" { print $2, $3 }' \
		"$k/System.map" <<'EOF'
T vfs_read
T fat_fill_super
EOF
	grep -qx 'kernel/fs/fat/fat.ko' "$k/modules.builtin" ||
		fail "$k: fat is not a built-in module"
done
grep -qx 'CONFIG_KALLMODSYMS=y' "$nokms/.config" && fail "small-nokms has CONFIG_KALLMODSYMS"

# FILE DEFINITION, one a line: the kprobe forms the series parses
# (vmlinux:, {OBJ}, MOD:SYM of a built-in module, named and not), two
# malformed ones, a unique plain name, and the same for fprobe events.
# (":foo", an empty module name, is not refused by vanilla: a
# symbol of the module "", which is not loaded, so the probe waits for
# it; "foo{" names no symbol and is refused.)
# The unnamed ones get names made from what was written, which the
# series makes with code of its own whatever the option (is_good_name()'s
# rule, a cut marked "__trunc"): "MOD:SYM{OBJ}" of a module that is not
# loaded, which vanilla accepts and defers, and a name too long to keep.
cat > guest.sh <<'GUEST'
t=/sys/kernel/tracing
mount -t tracefs nodev $t
echo "@@@ probes"
while read -r file def; do
	: > $t/error_log
	echo "=== $file: $def"
	if echo "$def" >> $t/$file 2> /tmp/err; then
		echo "written"
	else
		echo "refused: $(cat /tmp/err)"
	fi
	echo "--- kprobe_events"
	cat $t/kprobe_events
	echo "--- dynamic_events"
	cat $t/dynamic_events
	echo "--- error_log"
	sed 's/^\[ *[0-9.]*\] //' $t/error_log
done <<'EOF'
kprobe_events p:a vmlinux:vfs_read
kprobe_events p:a2 vmlinux:no_such_function
kprobe_events p vmlinux:vfs_read
kprobe_events p:b vfs_read{fs/read_write.o}
kprobe_events p:b2 vfs_read{read_write.o}
kprobe_events p:c fat:fat_fill_super
kprobe_events p fat:fat_fill_super
kprobe_events p:c2 fat:fat_fill_super{fs/fat/inode.o}
kprobe_events p fat:fat_fill_super{fs/fat/inode.o}
kprobe_events p fat:fat_fill_super{inode.o}
kprobe_events p vmlinux:a_function_name_long_enough_that_the_event_name_made_of_it_is_cut
kprobe_events p:d :foo
kprobe_events p:e foo{
kprobe_events p:f vfs_read
dynamic_events f:fa vmlinux:vfs_read
dynamic_events f:fb vfs_read{fs/read_write.o}
dynamic_events f:fc fat:fat_fill_super
dynamic_events f:fd vfs_read
dynamic_events f vmlinux:vfs_read
dynamic_events f vfs_read
EOF
echo "@@@ dmesg"
dmesg
GUEST
make_initramfs initrd.gz guest.sh
for k in vanilla nokms; do
	kbuild=${!k}
	boot "$(boot_image)" initrd.gz "$k" || { fail "boot $k"; exit 1; }
	if grep -E 'BUG|Oops|WARNING|Call Trace' "$k/dmesg"; then
		fail "the boot log of $k has errors"
	fi
done

# Not a comparison of two kernels that refuse everything: both took the
# unique plain names and refused "foo{", which names no symbol.
for k in vanilla nokms; do
	testrun_compare gawk '/^=== / { def = $0; next }
		/^(written|refused)/ && def ~ /(p:f|f:fd) vfs_read$|foo\{$/ {
			print def; print $1 }' "$k/probes" <<'EOF'
=== kprobe_events: p:e foo{
refused:
=== kprobe_events: p:f vfs_read
written
=== dynamic_events: f:fd vfs_read
written
EOF
done
diff -u vanilla/probes nokms/probes ||
	fail "small-nokms (- vanilla, + the series with CONFIG_KALLMODSYMS=n) differs"

finish
