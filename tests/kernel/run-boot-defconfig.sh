#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=defconfig
#
# The real-world case: x86_64 defconfig (IBT, so linked from vmlinux.o)
# with the series and the fixture, booted in QEMU.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel defconfig
cd "$tmp" || exit 1

write_listing_guest guest.sh
# Probes by path on mainline functions: fat's init_once by its path and a
# shorter suffix, and a function of the series by its object.
guest_probe_fn >> guest.sh
cat >> guest.sh <<'GUEST'
mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
mount -t debugfs nodev /sys/kernel/debug 2> /dev/null
echo "@@@ probes"
probe_each 'init_once{fs/fat/cache.o}' 'init_once{fat/cache.o}' \
	'kallmodsyms_lookup{kernel/kallmodsyms.o}'
GUEST
make_initramfs initrd.gz guest.sh
boot "$(boot_image)" initrd.gz nokaslr nokaslr ||
	{ fail "boot"; exit 1; }
check_boot nokaslr "$kbuild/vmlinux"

# Each probe is at the function /proc/kallmodsyms lists for it.
gawk -F '\t' '
	$2 ~ /\[fat\]/ && $2 ~ /cache\.o/ && $1 ~ / init_once$/ { f = substr($1, 1, index($1, " ") - 1) }
	$1 ~ / kallmodsyms_lookup$/ { k = substr($1, 1, index($1, " ") - 1) }
	END {
		print "init_once{fs/fat/cache.o} " f
		print "init_once{fat/cache.o} " f
		print "kallmodsyms_lookup{kernel/kallmodsyms.o} " k
	}' nokaslr/kallmodsyms > probes.expected
probe_addresses nokaslr/probes > probes
testrun_compare cat probes < probes.expected

# Taking modules.builtin's word, every text symbol's modules agree with
# modules.builtin.ranges, but for the two that it gets wrong: its entry
# for cpuidle-haltpoll.o's .cpuidle.text ends before it starts.
kms_gen -q --no-modularity -f sidecar -o builtin.kms "$kbuild/vmlinux" ||
	fail "generate --no-modularity"
kms list -t builtin.kms "$kbuild/vmlinux" > list-builtin || fail "list"
gawk -f "$tests_dir/kernel/compare-builtin-ranges.awk" \
	"$kbuild/modules.builtin.ranges" "$kbuild/System.map" list-builtin \
	> compare
testrun_compare sh -c "grep -E '^differ: ' compare | cut -d' ' -f3-" <<'EOF'
__pfx_default_enter_idle: kallmodsyms [cpuidle_haltpoll], modules.builtin.ranges []
default_enter_idle: kallmodsyms [cpuidle_haltpoll], modules.builtin.ranges []
EOF
grep -v '^differ: ' compare

# Every class (KALLSYMS_ALL): all symbols agree but these (how many
# there are in all follows the series and is only logged).  The upstream
# file has no ranges for the module parameters'
# sections (__param, __modver) and one console initcall, and gets
# cpuidle_haltpoll wrong as above; and 13 zero-sized symbols lie in the
# padding between two objects of one module that print differently
# ({i915_module.o} and plain [i915]), which the tables keep a gap
# (FORMAT.md 3.7) and the upstream file gives the module.
kms_gen -q --all-classes --no-modularity -f sidecar -o all.kms "$kbuild/vmlinux" ||
	fail "generate --all-classes"
kms list -t all.kms "$kbuild/vmlinux" > list-all || fail "list --all-classes"
gawk -v all=1 -v show=100000 -f "$tests_dir/kernel/compare-builtin-ranges.awk" \
	"$kbuild/modules.builtin.ranges" "$kbuild/System.map" list-all \
	> compare-all
grep '^agree ' compare-all
gawk '/^agree / { differ = $4 - $2 } /^differ: / {
		shown++
		name = $3; sub(/:$/, "", name)
		if (/modules.builtin.ranges \[\]$/)
			what = name ~ /^__param_|^__modver|^__(start|stop)___(param|modver)$/ ?
				"theirs none: module parameters" :
				"theirs none: " name
		else if (/kallmodsyms \[\],/)
			what = "ours none: in a gap"
		else
			what = "both named, differently: " name
		n[what]++
	}
	END {
		if (differ != shown)
			print "disagreements not shown: " differ - shown
		for (w in n) print n[w], w | "LC_ALL=C sort -k2"
	}' compare-all \
	> compare-all.summary
testrun_compare cat compare-all.summary <<'EOF'
13 ours none: in a gap
1 theirs none: __initcall__kmod_8250__497_516_univ8250_console_initcon
1 theirs none: __pfx_default_enter_idle
1 theirs none: default_enter_idle
435 theirs none: module parameters
EOF

# What Kconfig and the Makefiles take out of modules.builtin: every such
# module's annotations disappear, and nothing else changes but {objfile}
# names added where core code now collides.
kms_gen -q --modularity -e -f sidecar -o explained.kms "$kbuild/vmlinux" > explain ||
	fail "generate --modularity --explain"
kms list -t explained.kms "$kbuild/vmlinux" > list-judged || fail "list --modularity tables"
grep -o 'not a module: .*' explain | grep -o '\[[^]]*\]' | tr -d '[]' |
	sort -u > dropped
echo "modules.builtin entries that are not modules: $(wc -l < dropped)"
grep -qx bool_notmod dropped || fail "bool_notmod was not taken out"
grep -qx ext4 dropped && fail "ext4 was taken out"
paste -d '\n' list-builtin list-judged | gawk -v dropped=dropped '
	BEGIN { while ((getline m < dropped) > 0) gone["[" m "]"] = 1 }
	NR % 2 { old = $0; next }
	old == $0 { next }
	{
		n = split(old, f, /[\t ]/)
		for (i = 1; i <= n; i++)
			if (f[i] in gone) { dropped_lines++; next }
	}
	index($0, old "\t{") == 1 || index($0, old " {") == 1 { named++; next }
	{ print "unexplained: " old " -> " $0 }
	END { print "lines", dropped_lines + named }' > changes
grep unexplained changes | head
grep -q '^lines [1-9]' changes && ! grep -q unexplained changes ||
	fail "listing changes beyond the dropped modules"

finish
