#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# probe: a kprobe_events line for one instance, against a fake copy of the
# running kernel's /proc/kallmodsyms (the fixture moved by a KASLR offset)
# and a fake tracefs directory.  Never the host's /proc or tracefs.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables
kaslr=0x1000000

# The live file: list's text, every address moved by the offset.
moved() {
	local line
	while IFS= read -r line; do
		printf '%016x %s\n' $((0x${line%% *} + $1)) "${line#* }"
	done
}
kms list -t fx.kms "$v" | moved $kaslr > live || fail "list"
# The address the running kernel has for the Nth instance of a name.
live_addr() { awk -v n="$1" -v k="$2" '$3 == n && ++seen == k { print $1 }' live; }
probe() { kms probe -t fx.kms --kallmodsyms live "$v" "$@"; }

# Duplicated names: the relocated address of the instance; unique names:
# the name, which the kernel resolves itself.
a3=$(live_addr event_show 3)
a_super=$(live_addr ext9_helper 2)
testrun_compare probe 'mod_b:event_show' <<EOF
p:event_show_3 0x${a3#00000000}
EOF
testrun_compare probe 'ext9_helper+0x1 [ext9] {super.o}' <<EOF
p:ext9_helper_2_1 0x$(printf '%x' $((0x$a_super + 1)))
EOF
testrun_compare probe 'liquid_probe+0x2' <<'EOF'
p:liquid_probe_2 liquid_probe+0x2
EOF
testrun_compare probe --name kms/vf_init 'liquid_vf:liquid_vf_init' <<'EOF'
p:kms/vf_init liquid_vf_init
EOF
# A name the vmlinux has once but a loaded module shares is not unique to
# the kernel: the address form.
cp live live-mod
printf 'ffffffffc0001000 t liquid_probe\t[liquid_ko]\n' >> live-mod
testrun_compare kms probe -t fx.kms --kallmodsyms live-mod "$v" liquid_probe <<EOF
p:liquid_probe_1 0x$(live_addr liquid_probe 1 | sed 's/^0*//')
EOF
# A copy of /proc/kallsyms serves as well.
cut -f1 live > kallsyms-copy
testrun_compare kms probe -t fx.kms --kallsyms kallsyms-copy "$v" 'event_show,3' <<EOF
p:event_show_3 0x${a3#00000000}
EOF

# --tracefs appends the line to DIR/kprobe_events (and prints it).
mkdir tracefs
echo 'p:older do_sys_open' > tracefs/kprobe_events
probe --tracefs tracefs 'event_show,2' > out || fail "probe --tracefs"
testrun_compare cat tracefs/kprobe_events <<EOF
p:older do_sys_open
$(cat out)
EOF
testrun_error 1 "kallmodsyms: nowhere/kprobe_events: cannot open: No such file or directory" \
	probe --tracefs nowhere 'event_show,2'

# Errors: ambiguity, a copy of another kernel, unreadable copies, usage.
kms probe -t fx.kms --kallmodsyms live "$v" event_show > out 2> err &&
	fail "probe of an ambiguous name exited 0"
head -n 1 err > err1
testrun_compare cat err1 <<'EOF'
kallmodsyms: "event_show": 4 instances of event_show; pick one by sympos (event_show,N), [module] {objfile}, mod:, obj.o: or file.c::
EOF
[ "$(wc -l < err)" = 5 ] || fail "probe event_show: not one line per candidate"
sed '/event_show/s/^f/e/' live > other
testrun_error 1 "kallmodsyms: other: no event_show at 0x${a3#00000000}, where $v has it: $v is not the running kernel" \
	kms probe -t fx.kms --kallmodsyms other "$v" 'event_show,3'
echo "0000000000000000 T _text" > zeroes
testrun_error 1 "kallmodsyms: zeroes: _text reads as 0: the copy was made without the right to see addresses" \
	kms probe -t fx.kms --kallmodsyms zeroes "$v" 'event_show,3'
testrun_error 1 'kallmodsyms: "event_show+0x100 [mod_a]": offset past the end of the symbol' \
	probe 'event_show+0x100 [mod_a]'
# kprobes probe code: a variable is refused by name, whatever the tables.
testrun_error 1 'kallmodsyms: "ext9_count": ext9_count is data (type B), not code: kprobes probe code only' \
	probe ext9_count
testrun_error 2 'kallmodsyms: --name "a b": an event name is [GROUP/]NAME of letters, digits and _' \
	probe --name 'a b' 'event_show,1'
testrun_error 2 'kallmodsyms: probe does not take some of these options; see kallmodsyms --help' \
	kms probe -t fx.kms --kaslr-offset 0x1000 "$v" 'event_show,1'
testrun_error 2 "usage: kallmodsyms probe [options] VMLINUX SPEC" \
	kms probe -t fx.kms --kallmodsyms live "$v" a b

finish
