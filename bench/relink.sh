#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What CONFIG_KALLMODSYMS costs a developer's edit-build cycle: touch one
# source file of vmlinux and rebuild vmlinux (recompile it, relink, run
# kallsyms and, with the option, the tree's scripts/kallmodsyms on each
# temporary image and --verify on the last).  The same with the config's
# -nokms twin is the peer; a second row times "make vmlinux" with nothing
# to rebuild, make's walk of the tree, in both.  (A third row ran the generator as the series
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

# make_vmlinux BUILD: seconds of one "make vmlinux" in BUILD.
make_vmlinux() {
	local out=$1 src vars
	src=$(readlink -f "$out/source")
	mapfile -t vars < <(sed -n 's/^#make[[:space:]]\+//p' "$out/../fragment.config")
	seconds env PATH="/usr/lib/ccache:$PATH" \
		CCACHE_DIR="$kms_ccache" \
		make -s -C "$src" O="$out" ARCH=x86_64 \
		${vars[@]+"${vars[@]}"} \
		-j"$(nproc)" vmlinux
}

# relink1 BUILD: seconds to rebuild BUILD's vmlinux once after touching
# $touched.
relink1() {
	touch "$(readlink -f "$1/source")/$touched"
	make_vmlinux "$1"
}

# in_turns STEP WITH WITHOUT LABEL GOAL: the row of STEP (relink1 or
# make_vmlinux) in build WITH against WITHOUT, $runs medians.  One
# untimed round warms the page cache and ccache for both; then the rows
# take turns, each round in the other order, so that neither gains from
# always following the other (run in sequence, the last row came out
# 5-18% faster than the peer it was measured against, which cannot be
# real).
in_turns() {
	local step=$1 with=$2 without=$3 a=() b=() i
	"$step" "$without" > /dev/null
	"$step" "$with" > /dev/null
	for ((i = 0; i < runs; i++)); do
		if ((i % 2)); then
			b+=("$("$step" "$with")")
			a+=("$("$step" "$without")")
		else
			a+=("$("$step" "$without")")
			b+=("$("$step" "$with")")
		fi
	done
	note "$4: with ${b[*]}; without ${a[*]}"
	row "$4" "$(median "${b[@]}")" "$(median "${a[@]}")" s ${5:+"$5"}
}

row_header "vmlinux rebuild after touching $touched, seconds"
for c in "${configs[@]}"; do
	with=$(tests/kernel/build.sh "$c")
	without=$(tests/kernel/build.sh "$c-nokms")
	in_turns relink1 "$with" "$without" "$c: with CONFIG_KALLMODSYMS" 1.05
	# make's walk of the tree alone: "make vmlinux" with nothing to
	# do, which every rebuild pays before it compiles the file.
	in_turns make_vmlinux "$with" "$without" \
		"$c: ...no-op make vmlinux (the walk)"
done
