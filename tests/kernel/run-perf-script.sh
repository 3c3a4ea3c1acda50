#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=gcc configs=small
#
# kallmodsyms perf on the small kernel's real addresses, no boot: a
# perf script profile made from its vmlinux, one sample per instance of
# the fixture's kms_sample_show (8) and of brelse (in ext4, jbd2, fat, ...)
# under vfs_read and do_syscall_64, moved by a KASLR offset the command
# finds from those two names.  Every frame's annotation must be what
# `kallmodsyms find` (the /proc/kallmodsyms column) gives that instance,
# and the folded stacks keep the instances apart.  (The guest's own
# profile, recorded by perf in QEMU, is another test's.)
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small
cd "$tmp" || exit 1
vmlinux=$kbuild/vmlinux
kaslr=0x1e00000

kms find "$vmlinux" kms_sample_show brelse > instances || fail "find"
addr() { nm "$vmlinux" | awk -v s="$1" '$3 == s { print $1; exit }'; }
vfs_read=$(addr vfs_read)
syscall=$(addr do_syscall_64)
# The profile: per instance, a sample whose leaf is 1 byte into it.
at() { printf '%016x' $((0x$1 + kaslr + $2)); }
n=0
while IFS=$'\t' read -r sym _; do
	read -r address _ name <<< "$sym"
	n=$((n + 1))
	printf 'cat %d [000] 10.%06d:     250000 cpu-clock: \n' $((100 + n)) "$n"
	printf '\t%s %s+0x1 ([kernel.kallsyms])\n' "$(at "$address" 1)" "${name%/*}"
	printf '\t%s vfs_read+0x10 ([kernel.kallsyms])\n' "$(at "$vfs_read" 16)"
	printf '\t%s do_syscall_64+0x8 ([kernel.kallsyms])\n' "$(at "$syscall" 8)"
	printf '\t          4a1c2e read+0xe (/bin/busybox)\n\n'
done < instances > script.txt
kms perf "$vmlinux" < script.txt > annotated || fail "perf"

# Each leaf's annotation, against find's column for the instance.
gawk -F'\t' '{ print NF == 3 ? $2 : "" }' instances > want
grep -E '\+0x1 \(\[kernel' annotated |
	sed -E 's/^\t[0-9a-f]+ [a-z_]+ ?//; s/\+0x1 \(\[kernel\.kallsyms\]\)$//' > got
diff -u want got >&2 || fail "annotations differ from kallmodsyms find's"
[ "$(wc -l < got)" -ge 20 ] || fail "fewer than 20 instances: $(wc -l < got)"
# The other lines pass unchanged.
diff <(grep -vE '\+0x1 \(\[kernel' script.txt) \
	<(grep -vE '\+0x1 \(\[kernel' annotated | sed -E 's/ \{[a-z_/]+\.o\}\+/+/') >&2 ||
	fail "lines other than the leaves changed"

# The eight kms_sample_show, eight stacks (the core kernel's has no
# annotation, as find gives it none).
kms perf --collapse "$vmlinux" < script.txt | grep kms_sample_show |
	sed -E 's/^cat;read;do_syscall_64[^;]*;vfs_read[^;]*;//' > folded ||
	fail "perf --collapse"
testrun_compare cat folded <<'EOF'
kms_sample_show 250000
kms_sample_show [bool_notmod] 250000
kms_sample_show [kms_sample_a] 250000
kms_sample_show [kms_sample_a] [kms_sample_b] 250000
kms_sample_show [kms_sample_b] 250000
kms_sample_show [kms_sample_c] {c_main.o} 250000
kms_sample_show [kms_sample_c] {one/util.o} 250000
kms_sample_show [kms_sample_c] {two/util.o} 250000
EOF

# --by-module: one sample per instance, by the instance's module.
kms perf --by-module "$vmlinux" < script.txt | grep -E 'kms_sample|ext4|# ' > modules ||
	fail "perf --by-module"
testrun_compare sed -E 's/^ +[0-9]+ +[0-9.]+%/N P%/' modules <<EOF
# samples  percent  kind      module or DSO
N P%  built-in  [ext4]
N P%  built-in  [kms_sample_c]
N P%  built-in  [kms_sample_a]
N P%  built-in  [kms_sample_a] [kms_sample_b]
N P%  built-in  [kms_sample_b]
# $(wc -l < instances) samples
EOF
grep -q '^ *11 .*\[ext4\]$' modules || fail "not 11 samples in ext4: $(grep ext4 modules)"

finish
