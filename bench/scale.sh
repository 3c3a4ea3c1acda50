#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scale: kallmodsyms-gen's time and memory against input size, on synthetic
# build trees F times a defconfig (bench/synth-build.py), with 6.12's
# scripts/generate_builtin_ranges.awk timed on the same trees as the peer.
#
#   bench/scale.sh [F...]           default: 1 5 20 100
#
# Environment:
#   KMS_BUILD     the tools' build directory (default: build/ beside bench/)
#   KMS_AWK       generate_builtin_ranges.awk (default: from the cached
#                 defconfig tree's sources, else from Debian's
#                 /usr/src/linux-source-6.12.tar.xz)
#   RUNS          runs per tool and factor, the median is reported (default 3)
#   SEED          synth-build.py's seed (default 8)
#   CALLGRIND     1: also count instructions (valgrind --tool=callgrind) for
#                 F in CALLGRIND_F (default "1 20")
#   TMPDIR        where the trees are written (they are removed after use;
#                 F=100 needs about 3 GB)
#
# The table goes to stdout, progress to stderr.  Exits non-zero when the
# generator or the tree writer fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${KMS_BUILD:-$top/build}
gen=$build/kallmodsyms-gen
runs=${RUNS:-3}
seed=${SEED:-8}
factors=("$@")
[ ${#factors[@]} -gt 0 ] || factors=(1 5 20 100)

die() { echo "scale.sh: $*" >&2; exit 1; }
say() { echo "scale.sh: $*" >&2; }

[ -x "$gen" ] || die "no generator at $gen (run make first)"
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is needed"
command -v gawk >/dev/null || die "gawk is needed for the peer"
command -v python3 >/dev/null || die "python3 is needed"

work=$(mktemp -d "${TMPDIR:-/tmp}/kms-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

awk_script=${KMS_AWK:-}
if [ -z "$awk_script" ]; then
	# shellcheck source=SCRIPTDIR/../tests/kernel/env.sh
	. "$top/tests/kernel/env.sh"
	for d in "$kms_cache"/linux-6.12-*/src; do
		if [ -f "$d/scripts/generate_builtin_ranges.awk" ]; then
			awk_script=$d/scripts/generate_builtin_ranges.awk
			break
		fi
	done
fi
if [ -z "$awk_script" ] && [ -f /usr/src/linux-source-6.12.tar.xz ]; then
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$work" --wildcards \
		'*/scripts/generate_builtin_ranges.awk' 2>/dev/null || true
	awk_script=$(find "$work" -name generate_builtin_ranges.awk | head -1)
fi
[ -n "$awk_script" ] && [ -f "$awk_script" ] ||
	die "no scripts/generate_builtin_ranges.awk (set KMS_AWK)"

now() { date +%s%N; }

# run_timed LOG CMD...: run under /usr/bin/time -v; print "NS RSS_KB CPU_S".
run_timed() {
	local log=$1 t0 t1 rc
	shift
	t0=$(now)
	set +e
	/usr/bin/time -v -o "$log.time" "$@" >"$log.out" 2>"$log.err"
	rc=$?
	set -e
	t1=$(now)
	if [ $rc -ne 0 ]; then
		return $rc
	fi
	echo "$((t1 - t0)) $(awk -F': ' '/Maximum resident set size/ {r = $2}
		/(User|System) time \(seconds\)/ {c += $2} END {print r, c}' "$log.time")"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

F1=${factors[0]}
printf '# kallmodsyms-gen vs generate_builtin_ranges.awk on synthetic trees F x defconfig\n'
printf '# wall: median of %d runs; RSS: max over the runs; linearity: (t(F)/t(%s)) / (F/%s), 1.00 = linear\n' \
	"$runs" "$F1" "$F1"
printf '# gen-cpu, awk-cpu: user+sys seconds (median); cpu-lin as lin on CPU time\n'
printf '%5s %10s %8s %7s %8s %7s %7s %8s %5s %7s %8s %7s %7s %7s %7s\n' \
	F text-syms objects map-MB gen-s gen-cpu us/sym RSS-MiB lin cpu-lin \
	awk-s awk-cpu awk-RSS awk-lin gen/awk
declare -A syms objs mapb gen_ns gen_rss gen_cpu awk_ns awk_rss awk_cpu gen_ir awk_ir
for F in "${factors[@]}"; do
	tree=$work/F$F
	say "F=$F: writing the synthetic tree"
	summary=$(nice -n 10 python3 "$here/synth-build.py" -F "$F" -s "$seed" "$tree") ||
		die "synth-build.py failed for F=$F"
	syms[$F]=$(awk '{for (i = 1; i < NF; i++) if ($i == "text-symbols") print $(i + 1)}' <<<"$summary")
	objs[$F]=$(awk '{for (i = 1; i < NF; i++) if ($i == "text-objects") print $(i + 1)}' <<<"$summary")
	mapb[$F]=$(awk '{for (i = 1; i < NF; i++) if ($i == "map-bytes") print $(i + 1)}' <<<"$summary")

	times=() cpus=() rss=0
	for r in $(seq "$runs"); do
		say "F=$F: kallmodsyms-gen run $r/$runs"
		out=$(run_timed "$work/gen" "$gen" --no-modularity -s -f sidecar \
			-o "$work/out.kms" "$tree/vmlinux") || {
			cat "$work/gen.err" >&2
			die "kallmodsyms-gen failed on the F=$F tree"
		}
		if grep -q warning "$work/gen.err"; then
			say "F=$F: the generator warned:"
			grep warning "$work/gen.err" | head -5 >&2
		fi
		read -r ns kb cpu <<<"$out"
		times+=("$ns")
		cpus+=("$cpu")
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	gen_ns[$F]=$(printf '%s\n' "${times[@]}" | median)
	gen_cpu[$F]=$(printf '%s\n' "${cpus[@]}" | median)
	gen_rss[$F]=$rss
	head -2 "$work/gen.err" | sed "s/^/scale.sh: F=$F: /" >&2

	times=() cpus=() rss=0
	for r in $(seq "$runs"); do
		say "F=$F: gawk generate_builtin_ranges.awk run $r/$runs"
		out=$(cd "$tree" && run_timed "$work/awk" gawk -f "$awk_script" \
			modules.builtin vmlinux.map vmlinux.o.map) ||
			die "gawk -f $awk_script failed on the F=$F tree: $(head -3 "$work/awk.err")"
		read -r ns kb cpu <<<"$out"
		times+=("$ns")
		cpus+=("$cpu")
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	awk_ns[$F]=$(printf '%s\n' "${times[@]}" | median)
	awk_cpu[$F]=$(printf '%s\n' "${cpus[@]}" | median)
	awk_rss[$F]=$rss
	say "F=$F: the peer wrote $(wc -l <"$work/awk.out") ranges"

	if [ "${CALLGRIND:-0}" = 1 ] && [[ " ${CALLGRIND_F:-1 20} " == *" $F "* ]]; then
		command -v valgrind >/dev/null || die "CALLGRIND=1 needs valgrind"
		say "F=$F: callgrind on kallmodsyms-gen"
		nice -n 10 valgrind --tool=callgrind --callgrind-out-file="$work/cg.gen" \
			"$gen" --no-modularity -q -f sidecar -o "$work/cg.kms" \
			"$tree/vmlinux" 2>"$work/cg.err" >/dev/null ||
			die "kallmodsyms-gen failed under valgrind on the F=$F tree"
		gen_ir[$F]=$(awk '/^summary:/ {print $2}' "$work/cg.gen")
		say "F=$F: callgrind on gawk"
		(cd "$tree" && nice -n 10 valgrind --tool=callgrind \
			--callgrind-out-file="$work/cg.awk" gawk -f "$awk_script" \
			modules.builtin vmlinux.map vmlinux.o.map >/dev/null 2>"$work/cg.err") ||
			die "gawk failed under valgrind on the F=$F tree"
		awk_ir[$F]=$(awk '/^summary:/ {print $2}' "$work/cg.awk")
	fi
	awk -v F="$F" -v F1="$F1" -v s="${syms[$F]}" -v o="${objs[$F]}" \
	    -v m="${mapb[$F]}" -v g="${gen_ns[$F]}" -v g1="${gen_ns[$F1]}" \
	    -v gc="${gen_cpu[$F]}" -v gc1="${gen_cpu[$F1]}" \
	    -v r="${gen_rss[$F]}" -v a="${awk_ns[$F]}" -v a1="${awk_ns[$F1]}" \
	    -v ac="${awk_cpu[$F]}" -v ar="${awk_rss[$F]}" 'BEGIN {
		printf "%5s %10d %8d %7.1f %8.3f %7.2f %7.2f %8.1f %5.2f %7.2f %8.3f %7.2f %7.1f %7.2f %7.3f\n",
		       F, s, o, m / 1048576, g / 1e9, gc, g / 1e3 / s, r / 1024,
		       (g / g1) / (F / F1), (gc1 > 0 ? (gc / gc1) / (F / F1) : 0),
		       a / 1e9, ac, ar / 1024, (a / a1) / (F / F1), g / a
	}'
	say "F=$F: removing the tree"
	# rm -rf alone unlinks ~150 files/s here; find is several times faster.
	find "$tree" -type f -delete
	rm -rf "$tree"
done

if [ "${CALLGRIND:-0}" = 1 ]; then
	printf '\n# instructions (callgrind Ir)\n%5s %14s %10s %14s %10s %9s\n' \
		F gen-Ir gen-Ir/sym awk-Ir awk-Ir/sym gen/awk
	for F in "${factors[@]}"; do
		[ -n "${gen_ir[$F]:-}" ] || continue
		awk -v F="$F" -v s="${syms[$F]}" -v g="${gen_ir[$F]}" -v a="${awk_ir[$F]}" 'BEGIN {
			printf "%5s %14d %10.0f %14d %10.0f %9.3f\n", F, g, g / s, a, a / s, g / a
		}'
	done
fi
