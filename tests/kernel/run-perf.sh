#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small-dwarf suite=full
#
# Real perf profiles of the CI kernel (issue #37): perf, built statically
# from the same patched tree (tests/kernel/build-perf.sh), runs in the QEMU
# guest (KASLR on) `perf record -a -g` while tests/kernel/perf-load.c
# writes "one", "main" and "two" to /sys/module/kms_sample_c/parameters/run
# for 5 s, each write running one of kms_sample_c's three
# kms_sample_show()s; then `perf script` there.  The profile and
# /proc/kallmodsyms of the same boot come out.  Two kinds of software
# event (TCG has no PMU):
#  - cpu-clock, the time profile;
#  - a kprobe event on each instance, put by the series' own notation
#    (kms_sample_c:kms_sample_show{one/util.o}), one sample in 1000 hits.
#    cpu-clock alone never samples these three-instruction functions
#    here: the small kernel's tick is 250 Hz (no high-resolution timers)
#    and TCG takes an interrupt only between translated blocks; 4 x 10 s of
#    it (about 10,000 samples, 60 in their caller run_set()) had none.
# Checks:
#  - the profile has kernel frames, cpu-clock samples among them, and each
#    frame is where /proc/kallmodsyms says: the symbol perf named is the
#    one listed at or before the frame's address, at the offset perf
#    printed;
#  - each probe's samples lie in its own instance, as /proc/kallmodsyms
#    annotates it: [kms_sample_c] with {c_main.o}, {one/util.o},
#    {two/util.o};
#  - where `kallmodsyms perf` exists (kallmodsyms --help lists it), every
#    kernel frame it annotates carries the annotation /proc/kallmodsyms
#    gives its function, the other lines pass through unchanged, and its
#    --collapse output has the three instances as three frames of their
#    own; where it does not, that is said, and not counted as passed;
#  - native perf, patched by tracers/perf (its own series for
#    perf-tools-next, the builtin_mod sort key), has a guest test of its
#    own: tests/tracers/run-perf-guest.sh.
# suite=full: building perf costs more than CI's budget allows a test
# (about 3.5 min of CPU fresh, 14 min on a loaded two-core host; cached
# afterwards, the test takes about a minute).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"
# shellcheck source=SCRIPTDIR/qemu.sh
. "$tests_dir/kernel/qemu.sh"

need_kernel small-dwarf
grep -qx 'CONFIG_PERF_EVENTS=y' "$kbuild/.config" ||
	{ echo "$kbuild: no CONFIG_PERF_EVENTS"; exit 77; }
perf=$("$tests_dir/kernel/build-perf.sh" "$kbuild") ||
	{ fail "perf build"; exit 1; }
cd "$tmp" || exit 1

# The load: a static program (tests/kernel/perf-load.c), not a shell
# loop, so that most samples fall in the kernel's write path.
gcc -static -O2 -Wall -Wextra -o perf-load "$tests_dir/kernel/perf-load.c" ||
	{ fail "cannot build perf-load"; exit 1; }

# One kprobe event on each instance, in the series' own notation
# (MOD:SYM{OBJ}), recorded by perf as a tracepoint by its id (this perf
# has no libtraceevent to take its name), one sample in 1000 hits.
cat > guest.sh <<'EOF'
t=/sys/kernel/tracing
mount -t tracefs nodev $t
for p in main:c_main one:one/util two:two/util; do
	echo "p:kms/${p%%:*} kms_sample_c:kms_sample_show{${p#*:}.o}" >> $t/kprobe_events
done
echo "@@@ events"
events=
for e in main one two; do
	id=$(cat $t/events/kms/$e/id)
	echo "tracepoint/config=$id,period=1000/ $e"
	events="$events -e tracepoint/config=$id,period=1000/"
done
cd /tmp
perf record -a -g -e cpu-clock $events -o perf.data -- \
	perf-load /sys/module/kms_sample_c/parameters/run 5 \
	> load.out 2> record.err ||
	{ echo "@@@ record-error"; cat record.err; exit 1; }
perf script -i perf.data > script.txt 2> script.err ||
	{ echo "@@@ script-error"; cat script.err; exit 1; }
echo "@@@ load"
cat load.out
echo "@@@ script"
cat script.txt
echo "@@@ kallmodsyms"
cat /proc/kallmodsyms
EOF
make_initramfs initrd.gz guest.sh "$perf" perf-load
boot "$(boot_image)" initrd.gz out || { fail "boot"; exit 1; }
[ -e out/record-error ] && fail "perf record: $(cat out/record-error)"
[ -e out/script-error ] && fail "perf script: $(cat out/script-error)"
[ -s out/script ] || { fail "no perf script output"; exit 1; }
# Each sample's event and first frame: "EVENT ADDRESS SYMBOL+OFF (DSO)".
gawk '/^[^\t]/ { n = split($0, w, " "); ev = w[n]; sub(/:$/, "", ev); first = 1; next }
	first && /^\t/ { sub(/^\t */, ""); print ev " " $0; first = 0 }' out/script > leaves
echo "$(cat out/load) times three writes in 5 s;" \
	"samples: $(cut -d' ' -f1 leaves | sort | uniq -c | tr -s ' \n' ' ')"

# The listing's functions, by address (16 hex digits: compared as text).
# "ADDRESS NAME\tANNOTATION"; a name listed twice at one address (aliases)
# is two lines.
awk '$2 ~ /^[tTwW]$/' out/kallmodsyms | LC_ALL=C sort -s -k1,1 > functions

# frames: each kernel frame of the profile as "ADDRESS SYMBOL OFFSET",
# perf's symbol without its offset.  ([unknown] where perf named none.)
sed -nE 's/^\t *([0-9a-f]+) (.*) \(\[kernel\.kallsyms\]\)$/\1 \2/p' out/script |
	sed -E 's/^([0-9a-f]+) (.*)\+(0x[0-9a-f]+)$/\1 \2 \3/' > frames
count=$(wc -l < frames)
[ "$count" -gt 0 ] || fail "the profile has no kernel frames"
echo "$count kernel frames"

# containing FRAMES: for each frame, the function of the listing it lies
# in (the last one at or before its address), as "ADDRESS SYMBOL OFFSET\t
# LISTED-ADDRESS LISTED-NAME\tANNOTATION"; several lines where the listing
# has aliases there.
containing() {
	LC_ALL=C sort -u -k1,1 "$1" |
		LC_ALL=C sort -m -s -k1,1 functions - |
		gawk -F '\t' '
		# The listing sorts before a frame of the same address (-s, and
		# the listing comes first).
		NF >= 1 && $0 ~ /^[0-9a-f]+ [tTwW] / {
			split($1, f, " ")
			if (f[1] != at) {
				at = f[1]
				n = 0
			}
			name[++n] = f[3]
			annot[n] = $2
			next
		}
		{
			split($0, f, " ")
			if (at == "") {
				print $0 "\t-\t"
				next
			}
			for (i = 1; i <= n; i++)
				print $0 "\t" at " " name[i] "\t" annot[i]
		}'
}
containing frames > placed

# In the listing: perf named the listed function (or an alias of it), at
# the offset from its listed address.  Prints the frames that are not.
misplaced() {
	gawk -F '\t' '
	function hex(s) { return strtonum("0x" substr(s, length(s) - 11)) }
	{
		split($1, f, " ")
		split($2, l, " ")
		ok = l[2] == f[2] && f[3] != "" &&
			hex(f[1]) - hex(l[1]) == strtonum(f[3])
		if (ok)
			good[$1] = 1
		seen[$1] = 1
	}
	END {
		for (k in seen)
			if (!(k in good))
				print k
	}' placed | LC_ALL=C sort
}
testrun_empty misplaced

# The time profile has kernel samples, not only the probes'.
grep -q '^cpu-clock [0-9a-f]* .*(\[kernel\.kallsyms\])$' leaves ||
	fail "no cpu-clock sample in the kernel"

# Each probe's samples lie in its own instance of kms_sample_show, as
# /proc/kallmodsyms tells them apart (by address): "EVENT FUNCTION
# ANNOTATION" of each sample's first frame.
instances() {
	gawk -F '\t' '
	FILENAME == "out/events" {
		split($0, f, " ")
		name[f[1]] = f[2]
		next
	}
	FILENAME == "placed" {
		split($1, f, " ")
		split($2, l, " ")
		if (!(f[1] in listed) || l[2] == f[2])
			listed[f[1]] = l[2] "\t" $3
		next
	}
	{
		split($0, w, " ")
		if (w[1] in name)
			print name[w[1]] "\t" listed[w[2]]
	}' out/events placed leaves | LC_ALL=C sort -u
}
testrun_compare instances <<'EOF'
main	kms_sample_show	[kms_sample_c] {c_main.o}
one	kms_sample_show	[kms_sample_c] {one/util.o}
two	kms_sample_show	[kms_sample_c] {two/util.o}
EOF

# The annotator, kallmodsyms perf (issue #37, item 1), once it exists.
if ! kms --help 2>&1 | grep -qE '^ +perf( |$)'; then
	echo "NOT RUN: kallmodsyms perf (not in kallmodsyms --help): the annotation checks"
	finish
fi
kms perf "$kbuild/vmlinux" < out/script > annotated ||
	fail "kallmodsyms perf $kbuild/vmlinux < perf script output"
# Every line passes through, kernel frames annotated: the same lines,
# kernel frames aside.
grep -v '(\[kernel\.kallsyms\])$' out/script > plain.in
grep -v '(\[kernel\.kallsyms\])$' annotated > plain.out
assert_same plain.in plain.out "lines that are no kernel frame, through kallmodsyms perf"
# Each kernel frame, "SYMBOL ANNOTATION+0xOFF": the annotation is the
# listing's for the function the frame lies in (no annotation: none).
# Code outside vmlinux that kallsyms lists under a pseudo-module (the
# kprobes' ftrace trampoline, "[__builtin__ftrace]") may also pass
# unannotated: VMLINUX's tables cannot speak for it.
sed -nE 's/^\t *([0-9a-f]+) (.*) \(\[kernel\.kallsyms\]\)$/\1 \2/p' annotated > annotated.frames
[ "$(wc -l < annotated.frames)" = "$count" ] ||
	fail "kallmodsyms perf: $(wc -l < annotated.frames) kernel frames out of $count"
bad_annotation() {
	gawk '
	FNR == NR {
		split($0, t, "\t")
		split(t[1], f, " ")
		split(t[2], l, " ")
		if (l[2] == f[2])
			want[f[1]] = t[3]
		next
	}
	{
		addr = $1
		rest = substr($0, length(addr) + 2)
		sub(/\+0x[0-9a-f]+$/, "", rest)
		sym = rest
		sub(/ .*/, "", sym)
		got = substr(rest, length(sym) + 2)
		if (!(addr in want) ||
		    (want[addr] != got && !(want[addr] ~ /^\[__builtin__[a-z_]*\]$/ && got == "")))
			print addr " " rest " (listed: " want[addr] ")"
	}' placed annotated.frames | LC_ALL=C sort -u
}
testrun_empty bad_annotation
# The flame graph's frames: the three instances are three frames.
kms perf --collapse "$kbuild/vmlinux" < out/script > collapsed ||
	fail "kallmodsyms perf --collapse"
collapsed_instances() {
	tr ';' '\n' < collapsed | sed 's/ [0-9]*$//' |
		grep '^kms_sample_show \[kms_sample_c\]' | LC_ALL=C sort -u
}
testrun_compare collapsed_instances <<'EOF'
kms_sample_show [kms_sample_c] {c_main.o}
kms_sample_show [kms_sample_c] {one/util.o}
kms_sample_show [kms_sample_c] {two/util.o}
EOF

finish
