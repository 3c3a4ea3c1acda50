#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What CONFIG_KALLMODSYMS costs a developer's edit-build cycle: touch one
# source file of vmlinux and rebuild vmlinux (recompile it, relink, run
# kallsyms and, with the option, kallmodsyms-gen on each temporary image
# and --verify on the last).  The same with the config's -nokms twin is
# the peer.  A third row runs the generator as the series did before it
# took modules.builtin's word (--modularity: kconfig and the Makefiles
# evaluated on every link), against the same peer.
#
# usage: bench/relink.sh [CONFIG...]   (default: small defconfig;
#        KMS_RELINK_RUNS runs each, default 3, the median counts)

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig)
runs=${KMS_RELINK_RUNS:-3}
gen=$bench_top/build/kallmodsyms-gen
touched=init/calibrate.c

# relink BUILD [GEN]: seconds to rebuild BUILD's vmlinux after touching
# $touched, the median of $runs runs.
relink() {
	local out=$1 src vars times=() i
	src=$(readlink -f "$out/source")
	mapfile -t vars < <(sed -n 's/^#make[[:space:]]\+//p' "$out/../fragment.config")
	for ((i = 0; i < runs; i++)); do
		touch "$src/$touched"
		times+=("$(seconds env PATH="/usr/lib/ccache:$PATH" \
			CCACHE_DIR="$(dirname "$(dirname "$out")")/ccache" \
			make -s -C "$src" O="$out" ARCH=x86_64 \
			KALLMODSYMS_GEN="${2:-$gen}" ${vars[@]+"${vars[@]}"} \
			-j"$(nproc)" vmlinux)")
	done
	median "${times[@]}"
}

row_header "vmlinux rebuild after touching $touched, seconds"
for c in "${configs[@]}"; do
	with=$(tests/kernel/build.sh "$c")
	without=$(tests/kernel/build.sh "$c-nokms")
	a=$(relink "$without")
	b=$(relink "$with")
	row "$c: with CONFIG_KALLMODSYMS" "$b" "$a" s
	m=$(relink "$with" "$gen --modularity")
	row "$c: ...analysing Kconfig/Makefiles at each link" "$m" "$a" s
	# Leave the tree as the cache had it: linked by the plain generator.
	runs=1 relink "$with" > /dev/null
done
