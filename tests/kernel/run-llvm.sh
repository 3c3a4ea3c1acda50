#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 toolchains=llvm configs=small
#
# The clang kernel's annotations against the GCC kernel's, same config
# (small): text symbols of one name from the same object in both builds
# must have the same [module]s, and every difference in {object} naming
# must be one compare-toolchains.awk explains (an object is named when it
# shares a name with another object, and the compilers emit different sets
# of out-of-line functions).  Runs in the LLVM pass (KMS_TOOLCHAIN=llvm),
# where both kernels are built.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

declare -A dirs
need_kernel small
dirs[llvm]=$kbuild
KMS_TOOLCHAIN='' need_kernel small
dirs[gcc]=$kbuild
cd "$tmp" || exit 1

for b in gcc llvm; do
	dir=${dirs[$b]}
	kms_gen -q -ee -f sidecar -o $b.kms "$dir/vmlinux" > $b.explain ||
		fail "kallmodsyms-gen -ee on $dir/vmlinux"
	kms list -t $b.kms "$dir/vmlinux" > $b.list ||
		fail "kallmodsyms list on $dir/vmlinux"
done
gawk -f "$tests_dir/kernel/compare-toolchains.awk" gcc.explain llvm.explain \
	gcc.list llvm.list > report || fail "compare-toolchains.awk"
sed -n '/^text symbols/,$p' report

grep -qx 'unexplained 0' report || {
	fail "differences the toolchains do not explain:"
	grep -E '^(module|unexplained) ' report | head -n 20 >&2
}
# Most symbols pair up, so the comparison says something.
awk '/^text symbols/ { small = $3 < $5 ? $3 : $5 }
     /^paired/ { paired = $6 + 0 }
     END { exit !(paired >= 0.9 * small) }' report ||
	fail "fewer than 90% of the text symbols paired"

finish
