#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-bpf suite=full (perf with tracers/perf, in a QEMU guest)
#
# perf with this project's perf series (tracers/perf: it adds the sort
# key builtin_mod, and when the key is in use reads /proc/kallmodsyms in
# place of /proc/kallsyms) in a QEMU guest whose kernel (small-bpf.config)
# has the kernel series' /proc/kallmodsyms.  In the guest: 'perf record -a'
# while files are written to and removed from an ext4 image on a loop
# device, 'perf report --sort builtin_mod,sym' and '--sort builtin_mod',
# and the series' own shell test (tests/shell/builtin_mod.sh: the same
# against the guest's /proc/kallmodsyms, then a truncated, an empty file,
# a 4000-byte line, a 130-byte name and ten modules on a line).  Every
# kernel row of a function /proc/kallmodsyms lists once must show its
# module list (ext4's functions [ext4], and at least one of them in the
# profile), the build-id cache must hold a copy of /proc/kallmodsyms
# beside kallsyms, and perf on this host, given the profile and that
# cache only (another machine, another kernel), must show the same rows.
# 'perf record --kcore' must copy /proc/kallmodsyms into the profile's
# kcore_dir, and its report show the same module lists from there (and,
# the copy removed, no [ext4] row).
# Then the fixture (kernel-patches/6.12-fixture, built into small-bpf):
# a kprobe event on each of kms_sample_c's three kms_sample_show()s,
# hit by writes to its run parameter, reported with --kallsyms=
# /proc/kallsyms and --ignore-vmlinux, in a guest with no vmlinux file:
# perf must say it used /proc/kallsyms for symbols (the file it names;
# the key in use, it reads the /proc/kallmodsyms beside it), and show three
# kms_sample_show rows, each at an address where the guest's
# /proc/kallmodsyms lists kms_sample_show with the row's module list,
# three different instances ({obj}) between them.
# The guest has busybox, perf with the shared libraries ldd names, the
# shell test and the ext4 image.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/../kernel/qemu.sh
. "$tests_dir/kernel/qemu.sh"

[ -r "${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}" ] ||
	{ echo "no linux-source-6.12 tarball (Debian: linux-source-6.12)"; exit 77; }
command -v mke2fs > /dev/null || { echo "mke2fs (e2fsprogs) is not installed"; exit 77; }
need_kernel small-bpf
need_config PERF_EVENTS KALLMODSYMS EXT4_FS BLK_DEV_LOOP PROC_KCORE
mapfile -t series < <(sed "s|^|$top/tracers/perf/|" "$top/tracers/perf/series")
perfdir=$("$tests_dir/tracers/build-perf.sh" "${series[@]}") || { fail "perf build"; exit 1; }
cd "$tmp" || exit 1

mkdir -p root/bin root/root
cp "$perfdir/build/perf" "$perfdir/src/tools/perf/tests/shell/builtin_mod.sh" root/bin/
ldd "$perfdir/build/perf" | sed -n 's|.*=> \(/[^ ]*\) .*|\1|p; s|^\t\(/[^ ]*\) .*|\1|p' |
	while read -r lib; do mkdir -p "root$(dirname "$lib")" && cp -L "$lib" "root$lib"; done
[ -e root/lib64/ld-linux-x86-64.so.2 ] || fail "ldd named no dynamic loader"
mkdir -p img/dir && echo hello > img/dir/file
mke2fs -q -t ext4 -d img root/ext4.img 8M || { fail "mke2fs"; exit 1; }

# The profile's and the cache's files go out as base64 of a gzipped tar.
cat > guest.sh <<'GUEST'
export HOME=/root
mkdir -p /mnt
mount -t ext4 -o loop /ext4.img /mnt
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
# The profiles' workload: files written to, listed and removed from the
# ext4 image.
cat > /tmp/write-files.sh <<'WORK'
for r in 1 2 3; do
	i=0
	while [ $i -lt 200 ]; do echo $i > /mnt/f$i; i=$((i + 1)); done
	sync; ls -l /mnt > /dev/null; rm /mnt/f*; sync
done
WORK
perf record -q -a -e cpu-clock -F 1000 -o /tmp/perf.data -- sh /tmp/write-files.sh \
	> /tmp/record.err 2>&1
echo "@@@ record.status"
echo "exit $?"
cat /tmp/record.err
# report NAME ARG...: perf report ARG... as section NAME, its exit status
# and stderr as NAME.status.  Into a file: on the console perf would
# colour the percentages.
report() {
	name=$1
	shift
	perf report --stdio -g none --no-children "$@" > /tmp/out 2> /tmp/err
	status=$?
	echo "@@@ $name"
	cat /tmp/out
	echo "@@@ $name.status"
	echo "exit $status"
	cat /tmp/err
}
for s in builtin_mod,sym builtin_mod; do
	report "report-$s" -i /tmp/perf.data --sort $s
done
echo "@@@ cache"
for d in /root/.debug/\[kernel.kallsyms\]/*/; do
	ls "$d"
	cmp "$d/kallmodsyms" /proc/kallmodsyms && echo "kallmodsyms: same"
done
# --kcore: the data directory's kcore_dir gets a copy of /proc/kallmodsyms
# beside its kallsyms, which 'perf report' then reads; without it (the
# control) the same profile has no module lists.
perf record -q --kcore -a -e cpu-clock -F 1000 -o /tmp/kcore.data -- sh /tmp/write-files.sh \
	> /tmp/record.err 2>&1
echo "@@@ kcore-record.status"
echo "exit $?"
cat /tmp/record.err
echo "@@@ kcore"
ls /tmp/kcore.data/kcore_dir
cmp /tmp/kcore.data/kcore_dir/kallmodsyms /proc/kallmodsyms && echo "kallmodsyms: same"
report report-kcore -i /tmp/kcore.data --sort builtin_mod,sym
cp -r /tmp/kcore.data /tmp/control.data
rm /tmp/control.data/kcore_dir/kallmodsyms
report report-kcore-control -i /tmp/control.data --sort builtin_mod,sym
echo "@@@ shell-test"
sh /bin/builtin_mod.sh 2>&1
echo "@@@ shell-test.status"
echo "exit $?"
echo "@@@ files"
tar -czf - /tmp/perf.data /root/.debug/\[kernel.kallsyms\] 2> /dev/null | base64
# The fixture's three kms_sample_show()s: too short for cpu-clock to
# sample (tests/kernel/run-perf.sh), so one kprobe event on each, in
# the series' notation, recorded by id (no libtraceevent), every hit.
echo "@@@ vmlinux"
find / -xdev -name 'vmlinux*'
t=/sys/kernel/tracing
mount -t tracefs nodev $t
events=
for p in main:c_main one:one/util two:two/util; do
	echo "p:kms/${p%%:*} kms_sample_c:kms_sample_show{${p#*:}.o}" >> $t/kprobe_events
	events="$events -e tracepoint/config=$(cat $t/events/kms/${p%%:*}/id)/"
done
# shellcheck disable=SC2086 # one word an option
perf record -q -a $events -o /tmp/fixture.data -- sh -c '
	i=0
	while [ $i -lt 20 ]; do
		for w in one main two; do echo $w > /sys/module/kms_sample_c/parameters/run; done
		i=$((i + 1))
	done' > /tmp/record.err 2>&1
echo "@@@ fixture-record.status"
echo "exit $?"
cat /tmp/record.err
# No vmlinux: --kallsyms names the file, and perf then tries no vmlinux
# (its path, the build-id cache's, --vmlinux: none is looked at); -v
# prints each row's address and its symbols' origin, and says which
# file the symbols came from.  --group: the three events in one table.
report fixture-report -i /tmp/fixture.data -v --group --ignore-vmlinux \
	--kallsyms=/proc/kallsyms --sort builtin_mod,sym
echo "@@@ fixture-symbols"
grep ' for symbols$' /tmp/err
GUEST
make_initramfs initrd.gz guest.sh "$tmp/root=/"
qemu_mem=1G boot "$(boot_image)" initrd.gz out || { fail "boot"; exit 1; }

# rows FILE: the kernel rows of a "--sort builtin_mod,sym" report,
# "SYMBOL<TAB>BUILTIN_MOD", sorted.
rows() {
	sed -n 's/^ *[0-9.]*% *\(.*[^ ]\) *\[k\] \([^ ]*\) *$/\2\t\1/p' "$1" | sort -u
}
for s in record report-builtin_mod,sym report-builtin_mod kcore-record report-kcore \
	report-kcore-control shell-test; do
	grep -qx 'exit 0' "out/$s.status" || fail "$s: $(head -n 5 "out/$s.status")"
done
# Each name /proc/kallmodsyms lists once: its module list, else the
# kernel's DSO name.
gawk -F '\t' '{
	split($1, f, " "); m = $2; sub(/ *\{[^}]*\}$/, "", m)
	v[f[3]] = m == "" ? "[kernel.kallsyms]" : m; n[f[3]]++
} END { for (s in v) if (n[s] == 1) print s "\t" v[s] }' out/kallmodsyms > listed
# check_rows REPORT PREFIX WHAT: REPORT's kernel rows into PREFIXrows,
# those of a name listed once held to the list ("SYMBOL<TAB>ROW'S
# MODULES<TAB>LISTED") into PREFIXchecked; a failure for each row that
# shows another module list, and for a profile (WHAT) with no row of an
# ext4 function; how many rows of ext4's functions it has into ext4_rows.
# (Not in a $(...): fail must count in this shell.)
check_rows() {
	rows "$1" > "${2}rows"
	gawk -F '\t' 'NR == FNR { v[$1] = $2; next } $1 in v { print $1 "\t" $2 "\t" v[$1] }' \
		listed "${2}rows" > "${2}checked"
	gawk -F '\t' '$2 != $3 { print "row " $1 " shows " $2 ", listed " $3 }' \
		"${2}checked" > "${2}wrong"
	[ ! -s "${2}wrong" ] || fail "perf report of $3: $(head -n 5 "${2}wrong")"
	ext4_rows=$(gawk -F '\t' '$3 == "[ext4]"' "${2}checked" | wc -l)
	[ "$ext4_rows" -gt 0 ] ||
		fail "no row of an ext4 function in $3: $(head -n 5 "${2}rows")"
}
check_rows out/report-builtin_mod,sym "" "the profile"
ext4=$ext4_rows
grep -q '%  *\[ext4\] *$' out/report-builtin_mod || fail "perf report --sort builtin_mod: no [ext4] row"
grep -qx 'kallmodsyms: same' out/cache ||
	fail "the build-id cache has no copy of /proc/kallmodsyms: $(head -n 5 out/cache)"

# --kcore: the same check on the rows of the profile perf reported from
# its kcore_dir, and none of ext4's rows without the copy there.
grep -qx 'kallmodsyms: same' out/kcore ||
	fail "perf record --kcore left no copy of /proc/kallmodsyms: $(head -n 5 out/kcore)"
check_rows out/report-kcore kcore- "the --kcore profile"
kcore_ext4=$ext4_rows
! grep -q '\[ext4\] *\[k\]' out/report-kcore-control ||
	fail "the --kcore profile without kcore_dir/kallmodsyms still has [ext4] rows"

# Another machine: this host's kernel is not the guest's, so perf reads
# the kernel's symbols, and the module lists, from the guest's cache.
base64 -d out/files | tar -xzf - || fail "the guest's files"
"$perfdir/build/perf" --buildid-dir "$PWD/root/.debug" report -i tmp/perf.data \
	--stdio -g none --no-children --sort builtin_mod,sym > host-report 2> host-err ||
	fail "perf report on the host: $(head -n 3 host-err)"
rows host-report > host-rows
diff -u rows host-rows > host-diff || fail "the host's rows differ from the guest's: $(head -n 20 host-diff)"

# The fixture, reported from /proc/kallsyms and /proc/kallmodsyms alone:
# each row "ADDRESS ORIGIN [k] kms_sample_show" (-v), held against the
# function the guest's /proc/kallmodsyms lists at that address, as
# "ADDRESS\tORIGIN\tSYMBOL\tROW'S MODULES\tLISTED NAME\tLISTED ANNOTATION".
grep -qx 'exit 0' out/fixture-record.status ||
	fail "perf record of the fixture's kprobes: $(head -n 5 out/fixture-record.status)"
grep -qx 'exit 0' out/fixture-report.status ||
	fail "perf report of the fixture: $(head -n 5 out/fixture-report.status)"
[ ! -s out/vmlinux ] || fail "the guest has a vmlinux: $(head -n 3 out/vmlinux)"
grep -qx 'Using /proc/kallsyms for symbols' out/fixture-symbols ||
	fail "perf report did not say it used /proc/kallsyms: $(head -n 3 out/fixture-symbols)"
grep -v '^Using /proc/kallsyms for symbols$' out/fixture-symbols > other-symbols
[ ! -s other-symbols ] || fail "perf report used other symbols too: $(head -n 3 other-symbols)"
sed -nE 's/^ *([0-9.]+% +)+(.*[^ ]) +0x([0-9a-f]+) (.) \[k\] ([^ ]+) *$/\3\t\4\t\5\t\2/p' \
	out/fixture-report > fixture-rows
gawk -F '\t' 'NR == FNR {
	split($1, f, " ")
	if (f[2] ~ /^[tTwW]$/) { n++; at[n] = f[1]; name[n] = f[3]; ann[n] = $2 }
	next
}
{
	best = ""; ln = ""; la = ""
	for (i = 1; i <= n; i++)
		if (at[i] <= $1 && at[i] >= best) {
			if (at[i] > best) { ln = ""; la = "" }
			best = at[i]
			if (ln == "" || name[i] == $3) { ln = name[i]; la = ann[i] }
		}
	print $1 "\t" $2 "\t" $3 "\t" $4 "\t" ln "\t" la
}' out/kallmodsyms fixture-rows > fixture-checked
[ "$(wc -l < fixture-checked)" = 3 ] ||
	fail "perf report --sort builtin_mod,sym of the fixture: not three rows: $(cat out/fixture-report)"
gawk -F '\t' '{ m = $6; sub(/ *\{[^}]*\}$/, "", m) }
	$2 != "k" { print $1 ": symbols from origin " $2 ", not kallsyms" }
	$3 != "kms_sample_show" || $5 != $3 { print $1 ": row " $3 ", listed " $5 }
	$4 != m || m != "[kms_sample_c]" { print $1 ": row " $4 ", listed " $6 }' \
	fixture-checked > fixture-wrong
[ ! -s fixture-wrong ] || fail "the fixture's rows: $(head -n 5 fixture-wrong)"
[ "$(cut -f6 fixture-checked | sort -u | wc -l)" = 3 ] ||
	fail "the fixture's rows are not three instances: $(cut -f6 fixture-checked | tr '\n' ' ')"
echo "the fixture, from /proc/kallsyms and /proc/kallmodsyms (no vmlinux):"
grep 'kms_sample_show' out/fixture-report
echo "perf: $(wc -l < checked) kernel rows agree with /proc/kallmodsyms, $ext4 of ext4's functions;" \
	"the fixture's three kms_sample_show ($(cut -f6 fixture-checked | sed 's/.*{//; s/}$//' | sort | paste -sd ' '))" \
	"three rows; --kcore: $(wc -l < kcore-checked) rows agree, $kcore_ext4 of ext4's;" \
	"$(tail -n 1 out/shell-test)"
finish
