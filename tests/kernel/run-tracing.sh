#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc,arm64 configs=small
#
# The kernel's tracers name built-in modules themselves (series patches
# 0001-0002 and 0010-0013), with no host tool: in the small 6.12 kernel booted in QEMU,
#  - kprobe events "MOD:SYM", "vmlinux:SYM" and "SYM{OBJ}" put one probe on
#    each of the five of the fixture's eight kms_sample_show()s a notation
#    names, from the kernel command line (kprobe_event=, so that the calls
#    at boot are traced): each fires once, called by its own object's init,
#    and kprobe_events shows each as written; through tracefs, the three of
#    kms_sample_c fire only when /sys/module/kms_sample_c/parameters/run
#    runs them; and at boot, while the kernel has the paths of init text,
#    "SYM{OBJ}" names an init function by its object's path
#    (kms_sample_c_init, which fires once);
#  - the refusals: a name several functions fit (error_log lists them, in
#    the notation that picks each, with the object file's path:
#    "MOD:SYM" fits both kms_sample_a's own and the one of shared.o, which
#    kms_sample_a and kms_sample_b share, so the kernel will not guess),
#    an unknown module, object and symbol, a data symbol, a malformed
#    object name; a function of init text, freed after boot, refused by
#    MOD:SYM as by its plain name (kprobes will not probe freed text), and
#    by its object's path, which the kernel no longer knows;
#  - those two, which /proc/kallmodsyms tells apart by their module lists
#    alone, by their objects' paths and shorter suffixes of them, at the
#    addresses it lists them at;
#  - a probe by "MOD:SYM{OBJ}" with no event name gets one tracefs can make
#    a directory of (braces and '/' made '_');
#  - with CONFIG_FUNCTION_TRACER (the small kernels): ":mod:MOD" in
#    set_ftrace_filter selects exactly the functions /proc/kallmodsyms
#    gives [MOD] among those ftrace can trace, for the fixture's modules
#    and the largest built-in module, by address; and set_ftrace_notrace,
#    '!' removal, a '!' module glob and set_graph_function's FUNC:mod:MOD.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small
grep -qx 'CONFIG_KPROBE_EVENTS=y' "$kbuild/.config" ||
	{ echo "$kbuild: no CONFIG_KPROBE_EVENTS"; exit 77; }
ftrace=
grep -qx 'CONFIG_FUNCTION_TRACER=y' "$kbuild/.config" && ftrace=1
cd "$tmp" || exit 1

# Each instance, by the notation that picks it.
probes='p:kms/main,kms_sample_c:kms_sample_show{c_main.o}'
probes+=';p:kms/one,kms_sample_c:kms_sample_show{one/util.o}'
probes+=';p:kms/two,kms_sample_show{two/util.o}'
probes+=';p:kms/bool,bool_notmod:kms_sample_show'
probes+=';p:kms/core,vmlinux:kms_sample_show'
probes+=';p:kms/init,kms_sample_c_init{samples/kallmodsyms/c_main.o}'

{
	guest_probe_fn
	cat <<'EOF'
t=/sys/kernel/tracing
mount -t tracefs nodev $t
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
echo "@@@ events"
cat $t/kprobe_events
echo "@@@ boot"
grep -v '^#' $t/trace
: > $t/trace
for which in one main two two; do
	echo $which > /sys/module/kms_sample_c/parameters/run
done
echo "@@@ run"
grep -v '^#' $t/trace
echo 0 > $t/events/kms/enable
echo > $t/error_log
for spec in kms_sample_a:kms_sample_show \
	kms_sample_c:kms_sample_show 'kms_sample_show{util.o}' \
	'no_such_module:kms_sample_show{c_main.o}' \
	'kms_sample_c:kms_sample_show{nosuch.o}' kms_sample_c:no_such_fn \
	kms_sample_c:run_ops 'kms_sample_c:kms_sample_show{c_main.o'; do
	echo "p:kms/err $spec" >> $t/kprobe_events 2> /dev/null &&
		echo "accepted: $spec"
done
echo "@@@ errors"
sed 's/^\[ *[0-9.]*\] //' $t/error_log
echo > $t/error_log
for spec in fat:init_fat_fs init_fat_fs \
	'kms_sample_c_init{samples/kallmodsyms/c_main.o}'; do
	echo "p:kms/err $spec" >> $t/kprobe_events 2> /dev/null &&
		echo "accepted: $spec"
done
echo "@@@ init-errors"
sed 's/^\[ *[0-9.]*\] //' $t/error_log
# By path: each accepted place, and the address kprobes put it at (the
# only kprobe then), or "refused".
echo > $t/kprobe_events
mount -t debugfs nodev /sys/kernel/debug 2> /dev/null
echo "@@@ paths"
probe_each 'kms_sample_a:kms_sample_show{a_main.o}' \
	'kms_sample_a:kms_sample_show{samples/kallmodsyms/a_main.o}' \
	'kms_sample_show{kallmodsyms/shared.o}' \
	'kms_sample_show{samples/kallmodsyms/shared.o}' \
	'kms_sample_show{ms/shared.o}' 'init_once{fs/fat/cache.o}' \
	'init_once{fat/cache.o}' 'init_once{cache.o}' 'fat:init_once{cache.o}' \
	'kallmodsyms_lookup{kernel/kallmodsyms.o}'
echo 'p kms_sample_c:kms_sample_show{two/util.o}' >> $t/kprobe_events
echo "@@@ unnamed"
ls $t/events/kprobes
[ -e $t/set_ftrace_filter ] || exit 0
echo "@@@ addrs"
cat $t/available_filter_functions_addrs
big=$(sed -n 's/^[0-9a-f]* [tT] [^	]*	\[\([a-z0-9_]*\)\]$/\1/p' /proc/kallmodsyms |
	sort | uniq -c | sort -n | tail -n 1 | sed 's/.* //')
for m in kms_sample_a kms_sample_b kms_sample_c $big; do
	echo ":mod:$m" > $t/set_ftrace_filter
	echo "@@@ filter-$m"
	cat $t/set_ftrace_filter
done
echo "@@@ big"
echo "$big"
echo ':mod:kms_sample_c' > $t/set_ftrace_notrace
echo "@@@ notrace"
cat $t/set_ftrace_notrace
echo > $t/set_ftrace_notrace
echo ':mod:kms_sample_a' > $t/set_ftrace_filter
echo ':mod:kms_sample_c' >> $t/set_ftrace_filter
echo '!*:mod:kms_sample_a' >> $t/set_ftrace_filter
echo "@@@ removed"
cat $t/set_ftrace_filter
echo 'kms_sample_show:mod:!kms_sample_c' > $t/set_ftrace_filter
echo "@@@ excluded"
cat $t/set_ftrace_filter
echo 'kms_sample_show:mod:kms_sample_c' > $t/set_graph_function
echo "@@@ graph"
cat $t/set_graph_function
EOF
} > guest.sh
make_initramfs initrd.gz guest.sh
# trace_clock=global: where the guest finds sched_clock unstable (a busy
# host), the tracer switches to that clock at late_initcall, and a switch
# empties the ring buffer, with the hits at boot in it.
boot "$(boot_image)" initrd.gz out "kprobe_event=$probes" trace_clock=global ||
	{ fail "boot"; exit 1; }

# As written, resolved by the kernel alone.
testrun_compare cat out/events <<'EOF'
p:kms/main kms_sample_c:kms_sample_show{c_main.o}
p:kms/one kms_sample_c:kms_sample_show{one/util.o}
p:kms/two kms_sample_show{two/util.o}
p:kms/bool bool_notmod:kms_sample_show
p:kms/core vmlinux:kms_sample_show
p:kms/init kms_sample_c_init{samples/kallmodsyms/c_main.o}
EOF

# Each probe sits on its own instance: the address it fired at is the one
# /proc/kallmodsyms lists with that annotation.
hits() {
	sed -n 's/.* \([a-z]*\): (\([a-z_]*\)+0x\([0-9a-f]*\)\/0x[0-9a-f]*)$/\1 \2+0x\3/p' "$1"
}
# At boot, in initcall order: the samples' inits call kms_sample_show()
# through their own objects (c through both utils, core_helper and
# bool_notmod once each), and kms_sample_c's init runs once: where in
# it, the architecture decides (on x86 kprobes skip the ENDBR an initcall,
# whose address is taken, starts with).
hits out/boot | sed 's/^init kms_sample_c_init+0x[0-9a-f]*$/init kms_sample_c_init/' |
	LC_ALL=C sort > boot.hits
testrun_compare cat boot.hits <<'EOF'
bool kms_sample_show+0x0
core kms_sample_show+0x0
init kms_sample_c_init
main kms_sample_show+0x0
one kms_sample_show+0x0
two kms_sample_show+0x0
EOF
# After boot, only kms_sample_c's "run" calls them: one, main, two, two.
testrun_compare hits out/run <<'EOF'
one kms_sample_show+0x0
main kms_sample_show+0x0
two kms_sample_show+0x0
two kms_sample_show+0x0
EOF

# The refusals, each with its reason; the ambiguous ones list the
# candidates in the notation that picks each.
testrun_compare cat out/errors <<'EOF'
trace_kprobe: error: The symbol is not unique: name its object, SYM{OBJ}
  Command: p:kms/err kms_sample_a:kms_sample_show
                     ^
  Candidate: kms_sample_a:kms_sample_show{samples/kallmodsyms/a_main.o}
  Candidate: kms_sample_show{samples/kallmodsyms/shared.o}
trace_kprobe: error: The symbol is not unique: name its object, SYM{OBJ}
  Command: p:kms/err kms_sample_c:kms_sample_show
                     ^
  Candidate: kms_sample_c:kms_sample_show{samples/kallmodsyms/c_main.o}
  Candidate: kms_sample_c:kms_sample_show{samples/kallmodsyms/one/util.o}
  Candidate: kms_sample_c:kms_sample_show{samples/kallmodsyms/two/util.o}
trace_kprobe: error: The symbol is not unique: name its object, SYM{OBJ}
  Command: p:kms/err kms_sample_show{util.o}
                     ^
  Candidate: kms_sample_c:kms_sample_show{samples/kallmodsyms/one/util.o}
  Candidate: kms_sample_c:kms_sample_show{samples/kallmodsyms/two/util.o}
trace_kprobe: error: No built-in module of this name
  Command: p:kms/err no_such_module:kms_sample_show{c_main.o}
                     ^
trace_kprobe: error: No such symbol in this built-in module or object
  Command: p:kms/err kms_sample_c:kms_sample_show{nosuch.o}
                     ^
trace_kprobe: error: No such symbol in this built-in module or object
  Command: p:kms/err kms_sample_c:no_such_fn
                     ^
trace_kprobe: error: Not a function: a data symbol
  Command: p:kms/err kms_sample_c:run_ops
                     ^
trace_kprobe: error: Invalid module or object name: [MOD:]SYM{OBJ}
  Command: p:kms/err kms_sample_c:kms_sample_show{c_main.o
                                                 ^
EOF

# A function of init text by MOD:SYM, after boot freed it: found, and
# refused by kprobes as its plain name is, not taken for data.  By its
# object's path, which boot named it by, it is not found: the paths of
# init text went with it.
testrun_compare cat out/init-errors <<'EOF'
trace_kprobe: error: Failed to register probe event
  Command: p:kms/err fat:init_fat_fs
                     ^
trace_kprobe: error: Failed to register probe event
  Command: p:kms/err init_fat_fs
                     ^
trace_kprobe: error: No such symbol in this built-in module or object
  Command: p:kms/err kms_sample_c_init{samples/kallmodsyms/c_main.o}
                     ^
EOF

# By path: the two copies the module list alone told apart, each by its
# object file's path and by a shorter suffix of it, at the address
# /proc/kallmodsyms lists it at; a suffix that is not one of the path's
# components is refused.  And two functions of mainline: fat's init_once
# (one of nine of the name) by its path and each shorter suffix, and a
# function of the series by its object.
gawk -F '\t' '
	$2 == "[kms_sample_a]" && $1 ~ / kms_sample_show$/ { a = substr($1, 1, index($1, " ") - 1) }
	$2 == "[kms_sample_a] [kms_sample_b]" && $1 ~ / kms_sample_show$/ { s = substr($1, 1, index($1, " ") - 1) }
	$2 == "[fat] {cache.o}" && $1 ~ / init_once$/ { f = substr($1, 1, index($1, " ") - 1) }
	$1 ~ / kallmodsyms_lookup$/ { k = substr($1, 1, index($1, " ") - 1) }
	END {
		print "kms_sample_a:kms_sample_show{a_main.o} " a
		print "kms_sample_a:kms_sample_show{samples/kallmodsyms/a_main.o} " a
		print "kms_sample_show{kallmodsyms/shared.o} " s
		print "kms_sample_show{samples/kallmodsyms/shared.o} " s
		print "kms_sample_show{ms/shared.o} refused"
		print "init_once{fs/fat/cache.o} " f
		print "init_once{fat/cache.o} " f
		print "init_once{cache.o} " f
		print "fat:init_once{cache.o} " f
		print "kallmodsyms_lookup{kernel/kallmodsyms.o} " k
	}' out/kallmodsyms > paths.expected
probe_addresses out/paths > paths
testrun_compare cat paths < paths.expected

# No event name: the one made from the notation has a tracefs directory.
testrun_compare cat out/unnamed <<'EOF'
enable
filter
p_kms_sample_c_kms_sample_show_two_util_o__0
EOF

if [ -z "$ftrace" ]; then
	echo "no CONFIG_FUNCTION_TRACER: no ftrace checks"
	finish
fi

# What :mod:MOD must select: each function ftrace can trace (its record's
# address, in available_filter_functions_addrs, lies in the function's
# first bytes) that /proc/kallmodsyms lists with [MOD]; names, sorted.
expected_filter() {
	gawk -v mod="[$1]" -F '\t' '
	FNR == NR {
		split($1, f, " ")
		if (f[2] !~ /^[tTwW]$/)
			next
		n = ++count[f[3]]
		at[f[3], n] = f[1]
		mods[f[3], n] = " " $2 " "
		next
	}
	{
		split($0, f, " ")
		best = ""
		for (i = 1; i <= count[f[2]]; i++)
			if (at[f[2], i] <= f[1] && at[f[2], i] > best) {
				best = at[f[2], i]
				m = mods[f[2], i]
			}
		if (best != "" && index(m, " " mod " "))
			print f[2]
	}' out/kallmodsyms out/addrs | LC_ALL=C sort
}
big=$(cat out/big)
[ -n "$big" ] || fail "no built-in module found in /proc/kallmodsyms"
for m in kms_sample_a kms_sample_b kms_sample_c "$big"; do
	LC_ALL=C sort "out/filter-$m" > "filter-$m"
	expected_filter "$m" > "expected-$m"
	[ -s "expected-$m" ] || fail "$m: no traceable function in /proc/kallmodsyms"
	testrun_compare cat "filter-$m" < "expected-$m"
done
echo "$big: $(wc -l < "filter-$big") functions"
# The fixture's modules, written out: shared.o's functions are part of
# both kms_sample_a and kms_sample_b.
testrun_compare cat filter-kms_sample_a <<'EOF'
kms_sample_shared
kms_sample_show
kms_sample_show
EOF
testrun_compare cat filter-kms_sample_c <<'EOF'
kms_bench_set
kms_sample_show
kms_sample_show
kms_sample_show
kms_sample_util_one
kms_sample_util_two
run_set
EOF
LC_ALL=C sort out/notrace > notrace
testrun_compare cat notrace < filter-kms_sample_c
LC_ALL=C sort out/removed > removed
testrun_compare cat removed < filter-kms_sample_c
# kms_sample_show but kms_sample_c's: a, shared, b, bool_notmod, core.
testrun_compare cat out/excluded <<'EOF'
kms_sample_show
kms_sample_show
kms_sample_show
kms_sample_show
kms_sample_show
EOF
testrun_compare cat out/graph <<'EOF'
kms_sample_show
kms_sample_show
kms_sample_show
EOF

finish
