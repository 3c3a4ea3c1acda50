#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The generator against Linux 6.12's own generator of the same kind of
# table, on the same build tree:
#   gawk -f scripts/generate_builtin_ranges.awk modules.builtin \
#	vmlinux.map vmlinux.o.map
# Ours runs three ways: with --no-modularity, which like the awk script
# takes modules.builtin's word (like for like); as kbuild runs it first,
# with the Kconfig/Makefile modularity analysis; and as kbuild runs it
# again in the same link, with kconfig's answer cached.  Ours also reads vmlinux's symbols
# and the .cmd files, which the awk script does not.  Median of RUNS runs,
# the commands taking turns.
#
# usage: bench/gen-speed.sh [CONFIG...]   (default: small defconfig)
# Environment: RUNS (default 5); CALLGRIND=0 skips the instruction counts
# (valgrind --tool=callgrind, a minute per config).

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(small defconfig)
runs=${RUNS:-5}
make -s build/kallmodsyms-gen
gen=$bench_top/build/kallmodsyms-gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# instructions CMD...: millions of instructions CMD executes (callgrind).
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
		2>&1 > /dev/null | gawk '/Collected :/ { printf "%d", $NF / 1e6 }'
}

row_header "generator, wall seconds (median of $runs)"
for config in "${configs[@]}"; do
	kbuild=$(tests/kernel/build.sh "$config")
	awk_script=$kbuild/source/scripts/generate_builtin_ranges.awk
	[ -f "$awk_script" ] || { note "$awk_script: missing"; exit 1; }
	cd "$kbuild"
	peer=() plain=() full=() cached=()
	for ((i = 0; i < runs; i++)); do
		peer+=("$(seconds gawk -f "$awk_script" modules.builtin \
			vmlinux.map vmlinux.o.map)")
		plain+=("$(seconds "$gen" -q --no-modularity -f sidecar \
			-o "$tmp/tables" vmlinux)")
		rm -f .tmp_kallmodsyms_bools
		full+=("$(seconds "$gen" -q -f sidecar -o "$tmp/tables" \
			vmlinux)")
		cached+=("$(seconds "$gen" -q -f sidecar -o "$tmp/tables" \
			vmlinux)")
	done
	if [ "${CALLGRIND:-1}" = 1 ]; then
		# Instruction counts: what wall time says on a quiet machine.
		i_peer=$(instructions gawk -f "$awk_script" modules.builtin \
			vmlinux.map vmlinux.o.map)
		i_ours=$(instructions "$gen" -q --no-modularity -f sidecar \
			-o "$tmp/tables" vmlinux)
	fi
	cd "$bench_top"
	p=$(median "${peer[@]}")
	row "$config: kallmodsyms-gen --no-modularity vs gawk" \
		"$(median "${plain[@]}")" "$p" s 0.1
	row "$config: kallmodsyms-gen (modularity) vs gawk" \
		"$(median "${full[@]}")" "$p" s
	row "$config: same, kconfig's answer cached, vs gawk" \
		"$(median "${cached[@]}")" "$p" s
	[ -z "${i_ours:-}" ] ||
		row "$config: --no-modularity vs gawk, Minstructions" \
			"$i_ours" "$i_peer" M 0.1
done
