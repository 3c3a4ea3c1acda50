#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What CONFIG_KALLMODSYMS costs a developer's edit-build cycle: touch one
# source file of vmlinux and rebuild vmlinux (recompile it, relink, run
# kallsyms and, with the option, the tree's scripts/kallmodsyms on each
# temporary image and --verify on the last).  The same with the config's
# -nokms twin is the peer.  (A third row ran the generator as the series
# did before it took modules.builtin's word, --modularity, through
# KALLMODSYMS_GEN: the series now builds its own, which has no such mode.)
#
# usage: bench/relink.sh [CONFIG...]   (default: small defconfig;
#        KMS_RELINK_RUNS runs of each row, default 3, taken in turns;
#        the median counts)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
# kms_ccache: the ccache the kernels were built through.
# shellcheck source=SCRIPTDIR/../tests/kernel/env.sh
. tests/kernel/env.sh

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig)
runs=${KMS_RELINK_RUNS:-3}
touched=init/calibrate.c

# relink1 BUILD: seconds to rebuild BUILD's vmlinux once after touching
# $touched.
relink1() {
	local out=$1 src vars
	src=$(readlink -f "$out/source")
	mapfile -t vars < <(sed -n 's/^#make[[:space:]]\+//p' "$out/../fragment.config")
	touch "$src/$touched"
	seconds env PATH="/usr/lib/ccache:$PATH" \
		CCACHE_DIR="$kms_ccache" \
		make -s -C "$src" O="$out" ARCH=x86_64 \
		${vars[@]+"${vars[@]}"} \
		-j"$(nproc)" vmlinux
}

row_header "vmlinux rebuild after touching $touched, seconds"
for c in "${configs[@]}"; do
	with=$(tests/kernel/build.sh "$c")
	without=$(tests/kernel/build.sh "$c-nokms")
	# One untimed round warms the page cache and ccache for both; then
	# the rows take turns, each round in the other order, so that
	# neither gains from always following the other (run in sequence,
	# the last row came out 5-18% faster than the peer it was measured
	# against, which cannot be real).
	relink1 "$without" > /dev/null
	relink1 "$with" > /dev/null
	a=() b=()
	for ((i = 0; i < runs; i++)); do
		if ((i % 2)); then
			b+=("$(relink1 "$with")")
			a+=("$(relink1 "$without")")
		else
			a+=("$(relink1 "$without")")
			b+=("$(relink1 "$with")")
		fi
	done
	row "$c: with CONFIG_KALLMODSYMS" "$(median "${b[@]}")" \
		"$(median "${a[@]}")" s
done
