#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan
#
# kallmodsyms perf on the synthetic tree: perf script text made from the
# fixture's own addresses (its four event_show and two ext9_helper, the
# ambiguous dup_fn), with callchains (a header, indented frames, a blank
# line) and as single-line samples; the annotation before the offset, the
# lines it does not understand left alone; the KASLR offset given, read
# from perf's mmap line, or found from the frames; --by-module and
# --collapse; each refusal in one line, with nothing written.  Addresses,
# which the compiler decides, are replaced by ADDR.  Not under valgrind
# (it passes there, in 145 s on a loaded machine: over the default run's
# budget; ASan's leak checker covers the leaks).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables
norm() { sed -E 's/\bffffffff8[0-9a-f]{7}\b/ADDR/g'; }
kaslr=0
# at SYMBOL N OFFSET: the N-th SYMBOL by address, plus OFFSET, relocated.
at() {
	local link
	link=$(nm -n "$v" | awk -v s="$1" -v n="$2" '$3 == s && ++i == n { print $1 }')
	printf '%016x' $((0x$link + kaslr + $3))
}
# A profile with callchains, as `perf script` prints `perf record -g`'s.
script() {
	cat <<EOF
# ========
# cmdline : /usr/bin/perf record -a -g -e cpu-clock
# ========
#
app 1234 [000] 100.000001:     250000 cpu-clock: 
	$(at event_show 2 2) event_show+0x2 ([kernel.kallsyms])
	$(at schedule 1 3) schedule+0x3 ([kernel.kallsyms])
	ffffffffc0001234 nft_do_chain+0x14 ([nf_tables])
	    7f33378f2ad7 main+0x17 (/usr/bin/app)

app 1234 [000] 100.000002:     250000 cpu-clock: 
	$(at event_show 3 1) event_show+0x1 ([kernel.kallsyms])
	$(at schedule 1 3) schedule+0x3 ([kernel.kallsyms])
	    7f33378f2ad7 [unknown] ([unknown])

kworker/0:1 77 [001] 100.000003:     500000 cpu-clock: 
	$(at event_show 4 0) event_show+0x0 ([kernel.kallsyms])
	$(at ext9_helper 1 1) ext9_helper+0x1 ([kernel.kallsyms])
	$(at ext9_helper 2 0) ext9_helper+0x0 ([kernel.kallsyms])
  fs/ext9/super.c:12
	$(at liquid_probe 1 1) liquid_probe+0x1 ([kernel.kallsyms])
	$(at dup_fn 2 1) dup_fn+0x1 ([kernel.kallsyms])
	ffffffff8fffff00 [unknown] ([kernel.kallsyms])
	$(at start_kernel 1 5) start_kernel+0x5 ([kernel.kallsyms])

app 1234 [000] 100.000004:     250000 cpu-clock: 
	$(at event_show 2 1) event_show+0x1 ([kernel.kallsyms])
	$(at schedule 1 3) schedule+0x3 ([kernel.kallsyms])
	ffffffffc0001234 nft_do_chain+0x14 ([nf_tables])
	    7f33378f2ad7 main+0x17 (/usr/bin/app)

EOF
}
script > script.txt
annotated() {
	cat <<'EOF'
# ========
# cmdline : /usr/bin/perf record -a -g -e cpu-clock
# ========
#
app 1234 [000] 100.000001:     250000 cpu-clock: 
	ADDR event_show [mod_a]+0x2 ([kernel.kallsyms])
	ADDR schedule {sched/core.o}+0x3 ([kernel.kallsyms])
	ffffffffc0001234 nft_do_chain+0x14 ([nf_tables])
	    7f33378f2ad7 main+0x17 (/usr/bin/app)

app 1234 [000] 100.000002:     250000 cpu-clock: 
	ADDR event_show [mod_b]+0x1 ([kernel.kallsyms])
	ADDR schedule {sched/core.o}+0x3 ([kernel.kallsyms])
	    7f33378f2ad7 [unknown] ([unknown])

kworker/0:1 77 [001] 100.000003:     500000 cpu-clock: 
	ADDR event_show {sort.o}+0x0 ([kernel.kallsyms])
	ADDR ext9_helper [ext9] {inode.o}+0x1 ([kernel.kallsyms])
	ADDR ext9_helper [ext9] {super.o}+0x0 ([kernel.kallsyms])
  fs/ext9/super.c:12
	ADDR liquid_probe [liquid] [liquid_vf]+0x1 ([kernel.kallsyms])
	ADDR dup_fn+0x1 ([kernel.kallsyms])
	ADDR [unknown] ([kernel.kallsyms])
	ADDR start_kernel+0x5 ([kernel.kallsyms])

app 1234 [000] 100.000004:     250000 cpu-clock: 
	ADDR event_show [mod_a]+0x1 ([kernel.kallsyms])
	ADDR schedule {sched/core.o}+0x3 ([kernel.kallsyms])
	ffffffffc0001234 nft_do_chain+0x14 ([nf_tables])
	    7f33378f2ad7 main+0x17 (/usr/bin/app)

EOF
}
# run INPUT ARG...: kallmodsyms perf on the fixture, reading INPUT, the
# output normalised.
run() { kms perf -t fx.kms "$v" "${@:2}" < "$1" > raw || return; norm < raw; }

## Callchains: every kernel frame annotated, each instance its own name.
annotated | testrun_compare run script.txt
# The script as a file, too.
annotated | testrun_compare run /dev/null script.txt

## Single-line samples (perf record without -g), and lines perf did not
## print: they pass through unchanged, the last without its newline.
{
	printf '             app  1234 [000] 100.000005:     250000 cpu-clock:  %s event_show+0x3 ([kernel.kallsyms])\n' \
		"$(at event_show 1 3)"
	printf '      V8 Worker  1235 [001] 100.000006:     250000 cpu-clock:      7f33378f2ad7 main+0x17 (/usr/bin/app)\n'
	printf 'not a line of perf script (really)\n'
	printf '    kworker/1:0    80 [001] 100.000007:     250000 cpu-clock:  %s schedule ([kernel.kallsyms])' \
		"$(at schedule 1 0)"
} > single.txt
{
	cat <<'EOF'
             app  1234 [000] 100.000005:     250000 cpu-clock:  ADDR event_show {core.o}+0x3 ([kernel.kallsyms])
      V8 Worker  1235 [001] 100.000006:     250000 cpu-clock:      7f33378f2ad7 main+0x17 (/usr/bin/app)
not a line of perf script (really)
EOF
	printf '    kworker/1:0    80 [001] 100.000007:     250000 cpu-clock:  ADDR schedule {sched/core.o} ([kernel.kallsyms])'
} | testrun_compare run single.txt

## --by-module: the samples by their first frame, [kernel.kallsyms] split.
testrun_compare run script.txt --by-module <<'EOF'
# samples  percent  kind      module or DSO
        2   50.00%  built-in  [mod_a]
        1   25.00%  built-in  [mod_b]
        1   25.00%  core      [kernel.kallsyms]
# 4 samples
EOF
testrun_compare run single.txt --by-module <<'EOF'
# samples  percent  kind      module or DSO
        2   66.67%  core      [kernel.kallsyms]
        1   33.33%  dso       /usr/bin/app
# 3 samples
EOF

## --collapse: stackcollapse-perf.pl's folded stacks of the annotated text
## (process;root;...;leaf PERIOD), the three event_show apart.
testrun_compare run script.txt --collapse <<'EOF'
app;[unknown];schedule {sched/core.o};event_show [mod_b] 250000
app;main;nft_do_chain;schedule {sched/core.o};event_show [mod_a] 500000
kworker/0:1;start_kernel;[[kernel.kallsyms]];dup_fn;liquid_probe [liquid] [liquid_vf];ext9_helper [ext9] {super.o};ext9_helper [ext9] {inode.o};event_show {sort.o} 500000
EOF

## The KASLR offset: from the frames perf named, from -k, from a copy of
## /proc/kallsyms, from perf's mmap line of the kernel.
kaslr=0x2000000
script > moved.txt
annotated | testrun_compare run moved.txt
annotated | testrun_compare run moved.txt -k "$kaslr"
printf '%016x T _text\n' $((0xffffffff81000000 + kaslr)) > kallsyms
[ "$(nm "$v" | awk '$3 == "_text" { print $1 }')" = ffffffff81000000 ] ||
	fail "the fixture's _text moved"
annotated | testrun_compare run moved.txt -K kallsyms
mmap="swapper     0     0.000000: PERF_RECORD_MMAP -1/0: [0xffffffff83000000(0x1000) @ 0xffffffff83000000]: x [kernel.kallsyms]_text"
{ echo "$mmap"; cat moved.txt; } > mmap.txt
{ echo "$mmap"; annotated; } | testrun_compare run mmap.txt

## A copy of /proc/kallmodsyms (-K) with the issue's bad input: only its
## _text line counts, so damage elsewhere changes nothing, and a file
## with no whole _text line is refused in one line.  The copy: list's
## text, every address moved by the offset.
while IFS= read -r line; do
	printf '%016x %s\n' $((0x${line%% *} + kaslr)) "${line#* }"
done < <(kms list -t fx.kms "$v") > live
grep -q $' T _text\t' live || fail "the fixture's listing has no _text"
annotated | testrun_compare run moved.txt -K live
# Truncated: cut in a line after _text's, without its newline.
head -c $(($(wc -c < live) / 2)) live > truncated
[ -n "$(tail -c 1 truncated | tr -d '\n')" ] || fail "truncated ends with a newline"
annotated | testrun_compare run moved.txt -K truncated
# ...or in the _text line itself, before its name ends.
sed -n '/ T _text\t/{s/_text\t.*/_te/p;q};p' live | head -c -1 > truncated-text
testrun_error 1 "kallmodsyms: truncated-text: no _text line: not a copy of /proc/kallsyms" \
	kms perf -t fx.kms -K truncated-text "$v" < moved.txt
# A line of 4,000 bytes, a name of 130 (over the 128 DTrace's buffer
# holds), a list of ten modules, each first in the file: read past.
long=$(printf '%03980d' 0)
printf 'ffffffff83000000 t l%s\n' "$long" | cat - live > long-line
[ "$(head -n 1 long-line | wc -c)" = 4001 ] || fail "the long line is not 4,000 bytes"
annotated | testrun_compare run moved.txt -K long-line
printf 'ffffffff83000000 t n%s\t[mod_a]\n' "$(printf '%0129d' 0)" | cat - live > long-name
annotated | testrun_compare run moved.txt -K long-name
printf 'ffffffff83000000 t ten\t%s{ten.o}\n' "$(printf '[m%d] ' 0 1 2 3 4 5 6 7 8 9)" |
	cat - live > ten-modules
annotated | testrun_compare run moved.txt -K ten-modules
# Empty.
: > empty
testrun_error 1 "kallmodsyms: empty: no _text line: not a copy of /proc/kallsyms" \
	kms perf -t fx.kms -K empty "$v" < moved.txt

## Code the kernel made at run time (an ftrace trampoline, which perf
## also calls [kernel.kallsyms]) lies past the image's end: it passes
## through unchanged, first frame or not, and counts against nothing.
tramp='	ffffffffc0312044 ftrace_trampoline+0x44 ([kernel.kallsyms])'
sed "6i\\$tramp" moved.txt | sed "7a\\$tramp" > tramp.txt
annotated | sed "6i\\$tramp" | sed "7a\\$tramp" |
	testrun_compare run tramp.txt

## Refusals, each one line naming the input, nothing written.
# The wrong offset.
testrun_error 1 "kallmodsyms: stdin:6: $(at event_show 2 2) event_show+0x2 is not $v's: a profile of another kernel, or another KASLR offset (-k, -K)" \
	kms perf -t fx.kms -k 0x1000000 "$v" < moved.txt
# Another kernel's profile: a name the fixture does not have.
sed 's/ schedule+0x3 / sched_tick+0x3 /; s/ event_show+0x2 / event_shown+0x2 /' moved.txt > other.txt
testrun_error 1 "kallmodsyms: other.txt:6: event_shown: no such symbol in $v: a profile of another kernel" \
	kms perf -t fx.kms "$v" other.txt
# ...or its names where the fixture has other symbols.
sed '0,/ schedule+0x3 /s// native_smp_send+0x3 /' moved.txt > other.txt
testrun_error 1 "kallmodsyms: stdin:7: $(at schedule 1 3) native_smp_send+0x3 is not $v's: a profile of another kernel, or another KASLR offset (-k, -K)" \
	kms perf -t fx.kms "$v" < other.txt
# ...or another build id in perf's mmap line (perf record --buildid-mmap).
objcopy --add-section .note.gnu.build-id=<(
	printf '\004\000\000\000\010\000\000\000\003\000\000\000GNU\000\001\043\105\147\211\253\315\357') \
	"$v" vmlinux-id || fail "objcopy"
sed "1i swapper     0     0.000000: PERF_RECORD_MMAP2 -1/0: [0xffffffff83000000(0x1000) @ 0xffffffff83000000 <00112233445566778899aabbccddeeff00112233>]: ---p [kernel.kallsyms]_text" \
	moved.txt > other.txt
testrun_error 1 "kallmodsyms: stdin:1: [kernel.kallsyms] has build id 00112233445566778899aabbccddeeff00112233, vmlinux-id has 0123456789abcdef: a profile of another kernel" \
	kms perf -t fx.kms vmlinux-id < other.txt
sed -i 's/<00112233445566778899aabbccddeeff00112233>/<0123456789abcdef>/' other.txt
{ sed -n 1p other.txt; annotated; } |
	testrun_compare sh -c "$KMS_WRAP $KMS_BUILD/kallmodsyms perf -t fx.kms vmlinux-id < other.txt | sed -E 's/\bffffffff8[0-9a-f]{7}\b/ADDR/g; 1s/.*/$(sed -n 1p other.txt | sed 's/[]\/$*.^[]/\\&/g')/'"
# No kernel frame.
grep -v 'kernel\.kallsyms' script.txt > user.txt
testrun_error 1 "kallmodsyms: stdin: no kernel frame ([kernel.kallsyms]): nothing to annotate" \
	kms perf -t fx.kms "$v" < user.txt
# Not perf script's text: perf report's, or -F without ip, sym and dso.
printf '# Overhead  Command  Shared Object\n    50.00%%  app  [kernel.kallsyms]  [k] event_show\n' > report.txt
testrun_error 1 'kallmodsyms: stdin: no "ADDRESS SYMBOL (DSO)" frame: not perf script output, or without its ip, sym or dso field' \
	kms perf -t fx.kms "$v" < report.txt
testrun_error 1 "kallmodsyms: missing.txt: cannot open: No such file or directory" \
	kms perf -t fx.kms "$v" missing.txt
testrun_error 2 "kallmodsyms: --by-module and --collapse exclude each other" \
	kms perf -t fx.kms --by-module --collapse "$v"

## A frame that does not match after the first ones did: the output is
## written, the frame left as it was, and one line says so.
kaslr=0
late=$(at event_show 2 1)
sed "s/$late event_show+0x1 /$late event_show+0x2 /" script.txt > late.txt
status=0
kms perf -t fx.kms "$v" < late.txt > out 2> err || status=$?
[ "$status" = 1 ] || fail "a late mismatch exited $status"
annotated | sed 's/ event_show \[mod_a\]+0x1 / event_show+0x2 /' |
	diff -u - <(norm < out) >&2 || fail "a late mismatch: output differs"
testrun_compare cat err <<EOF
kallmodsyms: stdin: 1 of 13 kernel frames are not $v's (the first on line 27): a profile of another kernel, or another KASLR offset (-k, -K)
EOF

finish
