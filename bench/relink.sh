#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What CONFIG_KALLMODSYMS costs a developer's edit-build cycle: touch one
# source file of vmlinux and rebuild vmlinux (recompile it, relink, run
# kallsyms and, with the option, the generator on each temporary image
# and --verify on the last: the tree's scripts/kallmodsyms, or with 6.1's
# series kallmodsyms-gen).  The same with the config's -nokms twin is the
# peer.  Where kbuild runs kallmodsyms-gen, a third row runs it as the
# series did before it took modules.builtin's word (--modularity: kconfig
# and the Makefiles evaluated on every link), against the same peer.
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
gen=$bench_top/build/kallmodsyms-gen
touched=init/calibrate.c

# relink1 BUILD [GEN]: seconds to rebuild BUILD's vmlinux once after
# touching $touched.
relink1() {
	local out=$1 src vars
	src=$(readlink -f "$out/source")
	mapfile -t vars < <(sed -n 's/^#make[[:space:]]\+//p' "$out/../fragment.config")
	touch "$src/$touched"
	seconds env PATH="/usr/lib/ccache:$PATH" \
		CCACHE_DIR="$kms_ccache" \
		make -s -C "$src" O="$out" ARCH=x86_64 \
		KALLMODSYMS_GEN="${2:-$gen}" ${vars[@]+"${vars[@]}"} \
		-j"$(nproc)" vmlinux
}

row_header "vmlinux rebuild after touching $touched, seconds"
for c in "${configs[@]}"; do
	with=$(tests/kernel/build.sh "$c")
	without=$(tests/kernel/build.sh "$c-nokms")
	# One untimed round warms the page cache and ccache for all three;
	# then the rows take turns, each round in another order, so that no
	# row gains from always following another (run in sequence, the
	# last row came out 5-18% faster than the peer it was measured
	# against, which cannot be real).
	relink1 "$without" > /dev/null
	relink1 "$with" > /dev/null
	# A tree with its own generator runs no KALLMODSYMS_GEN: no third row.
	external=1
	[ ! -d "$(readlink -f "$with/source")/scripts/kallmodsyms" ] || external=
	a=() b=() m=()
	for ((i = 0; i < runs; i++)); do
		case $((i % 3)) in
		0) a+=("$(relink1 "$without")")
		   b+=("$(relink1 "$with")")
		   [ -z "$external" ] || m+=("$(relink1 "$with" "$gen --modularity")") ;;
		1) b+=("$(relink1 "$with")")
		   [ -z "$external" ] || m+=("$(relink1 "$with" "$gen --modularity")")
		   a+=("$(relink1 "$without")") ;;
		2) [ -z "$external" ] || m+=("$(relink1 "$with" "$gen --modularity")")
		   a+=("$(relink1 "$without")")
		   b+=("$(relink1 "$with")") ;;
		esac
	done
	row "$c: with CONFIG_KALLMODSYMS" "$(median "${b[@]}")" \
		"$(median "${a[@]}")" s
	[ -z "$external" ] ||
		row "$c: ...analysing Kconfig/Makefiles at each link" \
			"$(median "${m[@]}")" "$(median "${a[@]}")" s
	# Leave the tree as the cache had it: linked by the plain generator.
	relink1 "$with" > /dev/null
done
