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
#  - native perf (the series' 0015), where the tree has it: run in the
#    guest with vmlinux (its debug info stripped) on the same profile,
#    `perf report --sort kmod,sym` has each probe's event as one row, its
#    instance told apart by {object} as /proc/kallmodsyms tells it, and
#    every row of every event is a (function, annotation) pair of the
#    listing; `perf script -F +kmod` prints exactly what `kallmodsyms
#    perf` makes of the same script without it; and perf's own shell
#    test (tools/perf/tests/shell/kallmodsyms.sh, POSIX sh: the guest has
#    busybox, no bash) passes in the guest, perf finding vmlinux where it
#    looks for one (/lib/modules/RELEASE/build/vmlinux).  On the host, the
#    same perf on the guest's perf.data: a vmlinux without the note reads
#    a sidecar VMLINUX.kms beside it (the same report); a damaged sidecar
#    is refused in one warning naming it and the rule, the column then
#    "[unknown]"; beside a vmlinux with the note, the note wins.
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
# Native perf (0015): its shell test and vmlinux, for perf report and
# perf script -F +kmod in the guest.
native=
shelltest=$kbuild/../src/tools/perf/tests/shell/kallmodsyms.sh
if [ -f "$shelltest" ]; then
	native=1
	objcopy --strip-debug "$kbuild/vmlinux" vmlinux
	cp "$shelltest" kallmodsyms.sh
	cat >> guest.sh <<'EOF'
echo "@@@ native-report"
# (through cat: on the console's tty perf would colour the percentages)
perf report -i perf.data --vmlinux /bin/vmlinux --stdio --no-children \
	-g none --sort kmod,sym 2> report.err | cat
echo "@@@ native-report-err"
cat report.err
echo "@@@ native-plain"
perf script -i perf.data --vmlinux /bin/vmlinux -F +ip,+sym,+symoff,+dso
echo "@@@ native-kmod"
perf script -i perf.data --vmlinux /bin/vmlinux -F +ip,+sym,+symoff,+dso,+kmod
echo "@@@ native-data"
base64 perf.data
echo "@@@ native-shelltest"
mkdir -p "/lib/modules/$(uname -r)/build"
ln -s /bin/vmlinux "/lib/modules/$(uname -r)/build/vmlinux"
sh /bin/kallmodsyms.sh 2>&1
echo "exit $?"
EOF
fi
make_initramfs initrd.gz guest.sh "$perf" perf-load ${native:+vmlinux kallmodsyms.sh}
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

# Native perf (0015), where the tree has it: perf report --sort
# kmod,sym.  Each row as "EVENT<TAB>KMOD<TAB>SYMBOL", the probes' events
# by their names.
native_rows() {
	gawk -v OFS='\t' '
	FILENAME == "out/events" {
		split($0, f, " ")
		name[f[1]] = f[2]
		next
	}
	/^# Samples: / {
		ev = $0
		sub(/.* of event \047/, "", ev)
		sub(/\047$/, "", ev)
		if (ev in name)
			ev = name[ev]
		next
	}
	match($0, /^ *[0-9.]+% +(.*[^ ]) +\[k\] ([^ ]+) *$/, m) {
		print ev, m[1], m[2]
	}' out/events out/native-report
}
# The probes' rows, "EVENT<TAB>SYMBOL<TAB>KMOD".
probe_rows() {
	native_rows | gawk -F '\t' '$1 ~ /^(main|one|two)$/ { print $1 "\t" $3 "\t" $2 }' |
		LC_ALL=C sort
}
# The same, from the listing: kms_sample_c's instances of kms_sample_show,
# each probe named by its object (c_main.o: main, one/util.o: one, ...).
listed_probes() {
	gawk -F '\t' '$1 ~ / kms_sample_show$/ && $2 ~ /^\[kms_sample_c\] \{/ {
		p = $2
		sub(/^.*\{/, "", p)
		sub(/(\/util)?\.o\}$/, "", p)
		sub(/^c_/, "", p)
		print p "\tkms_sample_show\t" $2
	}' out/kallmodsyms | LC_ALL=C sort
}
# The listing's (function, annotation) pairs; "[kernel.kallsyms]" for
# functions without an annotation, as the kmod column names them.
listed_pairs() {
	gawk -F '\t' '{
		split($1, f, " ")
		print f[3] "\t" ($2 == "" ? "[kernel.kallsyms]" : $2)
	}' functions | LC_ALL=C sort -u
}
# Rows whose (function, annotation) the listing does not have; rows of
# code outside vmlinux (perf names it 0xffff...) have no pair.
unlisted_rows() {
	listed_pairs > pairs
	native_rows | gawk -F '\t' '$3 !~ /^0x/ { print $3 "\t" $2 }' |
		LC_ALL=C sort -u | LC_ALL=C comm -23 - pairs
}
if [ -n "$native" ]; then
	[ -s out/native-report-err ] &&
		fail "perf report --sort kmod,sym: $(head -n 3 out/native-report-err)"
	echo "native perf: $(native_rows | wc -l) report rows"
	testrun_compare probe_rows <<'EOF'
main	kms_sample_show	[kms_sample_c] {c_main.o}
one	kms_sample_show	[kms_sample_c] {one/util.o}
two	kms_sample_show	[kms_sample_c] {two/util.o}
EOF
	listed_probes > listed-probes
	testrun_compare probe_rows < listed-probes
	testrun_empty unlisted_rows
else
	echo "NOT RUN: native perf (no tools/perf/tests/shell/kallmodsyms.sh in $kbuild/../src: no 0015)"
fi

# Where native perf takes the tables from, on the host: the rows of
# perf report --sort kmod,sym for VMLINUX, then its warnings.
kmod_report() {
	"$perf" report -i perf.data --vmlinux "$1" --stdio --no-children -g none \
		--sort kmod,sym 2> report.err | grep -v -e '^#' -e '^$'
	cat report.err
}
if [ -n "$native" ]; then
	base64 -d out/native-data > perf.data || fail "perf.data from the guest"
	kmod_report "$PWD/vmlinux" > note.rows
	grep -q 'kms_sample_c.*kms_sample_show' note.rows ||
		fail "perf report on the host: no kms_sample_show row"
	objcopy --remove-section .note.kallmodsyms vmlinux bare
	objcopy -O binary --only-section=.note.kallmodsyms vmlinux bare.kms
	kmod_report "$PWD/bare" > sidecar.rows
	assert_same note.rows sidecar.rows "perf report with the note and with a sidecar"
	# version 7 (byte 4 of the descriptor, after the 24-byte record header)
	printf '\007' | dd of=bare.kms bs=1 seek=28 conv=notrunc 2> /dev/null
	# Its warnings, then the values of kms_sample_show's rows.
	damaged() {
		kmod_report "$PWD/bare" > damaged.rows
		grep '^kallmodsyms' damaged.rows
		sed -n 's/^ *[0-9.]*% *\(.*[^ ]\) *\[k\] kms_sample_show *$/\1/p' damaged.rows |
			sort -u
	}
	testrun_compare damaged <<EOF
kallmodsyms: $PWD/bare.kms: note: format version 7, this reader knows version 3
[unknown]
EOF
	cp bare.kms vmlinux.kms
	kmod_report "$PWD/vmlinux" > precedence.rows
	assert_same note.rows precedence.rows "perf report with the note and a damaged sidecar beside it"
fi

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

# Native perf's script field prints what the annotator makes of the same
# script without it, byte for byte; its shell test passes in the guest.
if [ -n "$native" ]; then
	kms perf "$kbuild/vmlinux" < out/native-plain > native-annotated ||
		fail "kallmodsyms perf < perf script -F +ip,+sym,+symoff,+dso"
	grep -q 'kms_sample_show \[kms_sample_c\] {one/util.o}+0x' out/native-kmod ||
		fail "perf script -F +kmod: no annotated kms_sample_show frame"
	assert_same native-annotated out/native-kmod \
		"perf script -F +kmod and kallmodsyms perf"
	cat out/native-shelltest
	[ "$(tail -n 1 out/native-shelltest)" = "exit 0" ] ||
		fail "perf's shell test kallmodsyms.sh in the guest"
fi

finish
