#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kallmodsyms-gen --dwarf on a distribution's debug vmlinux, every class
# (--all-classes), against pahole -J on the same file: the DWARF pass
# distributions already run at each kernel build (BTF encoding), one
# thread each.  Wall seconds (median of RUNS runs, taking turns) and peak
# resident memory (the largest of the runs), as ratios.  pahole -J writes
# .BTF into the file it reads, so it runs on a fresh copy each time (the
# copy is not timed).
#
# usage: bench/dwarf-distro.sh   (Debian 12's 6.12 amd64 kernel, from
# tests/distro/fetch.sh: downloaded into the cache on the first run)
# Environment: RUNS (default 3); PAHOLE (default pahole, Debian's dwarves).

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"

runs=${RUNS:-3}
pahole=${PAHOLE:-pahole}
release=6.12.118+deb12-amd64
command -v "$pahole" > /dev/null || { note "no $pahole (apt-get install dwarves)"; exit 1; }
[ -x /usr/bin/time ] || { note "/usr/bin/time (GNU time) is needed"; exit 1; }
make -s build/kallmodsyms-gen
gen=$bench_top/build/kallmodsyms-gen
dir=$(tests/distro/fetch.sh "$release" amd64)
vmlinux=$dir/usr/lib/debug/boot/vmlinux-$release
builtin=$dir/lib/modules/$release/modules.builtin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed CMD...: "SECONDS PEAK_KB" of one run of CMD, its output discarded.
timed() {
	local start end
	start=$(date +%s.%N)
	/usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2>&1 ||
		{ note "failed: $*"; return 1; }
	end=$(date +%s.%N)
	gawk -v a="$start" -v b="$end" -v kb="$(cat "$tmp/rss")" \
		'BEGIN { printf "%.3f %d\n", b - a, kb }'
}

ours_s=() peer_s=() ours_kb=0 peer_kb=0
for _ in $(seq "$runs"); do
	read -r s kb < <(timed "$gen" -q --dwarf --all-classes -B "$builtin" \
		--modinfo "$builtin.modinfo" -f sidecar -o "$tmp/out.kms" \
		"$vmlinux")
	ours_s+=("$s"); [ "$kb" -gt "$ours_kb" ] && ours_kb=$kb
	cp "$vmlinux" "$tmp/vmlinux"
	read -r s kb < <(timed "$pahole" -J "$tmp/vmlinux")
	peer_s+=("$s"); [ "$kb" -gt "$peer_kb" ] && peer_kb=$kb
	rm -f "$tmp/vmlinux"
done
note "$(basename "$vmlinux"): $(( $(stat -c %s "$vmlinux") >> 20 )) MB; ours ${ours_s[*]} s, pahole ${peer_s[*]} s"

row_header "--dwarf --all-classes vs pahole -J, Debian $release"
row "wall seconds (median of $runs)" "$(median "${ours_s[@]}")" \
	"$(median "${peer_s[@]}")" s
row "peak resident memory" "$((ours_kb >> 10))" "$((peer_kb >> 10))" MB
