#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan kernels=6.12 toolchains=gcc,arm64 configs=small-dwarf
#
# Tables from DWARF alone (kallmodsyms-gen --dwarf: no maps, no .cmd files,
# no Kconfig), as for a distribution's debug vmlinux, against the tables of
# the build tree on the small kernel built with DWARF.  Prints the
# agreement (text symbols whose annotation is identical) with and without
# modules.builtin.ranges, against the build tree's tables with and without
# the modularity analysis, and fails under 99%.  Without the ranges, the
# code of multi-object modules cannot be placed (the generator lists those
# modules): that figure is held on the [module]s of the symbols outside
# them (their {objfile} names grow where that code joins the core).
#
# With --all-classes, data comes from the units' variables: every symbol
# that DWARF mode annotates must read exactly as in the build tree's
# --all-classes tables, and of the data symbols the build tree annotates
# DWARF mode must annotate 97% alike (the rest is data without a DWARF
# variable: switch tables, __func__, initcall entries and other top-level
# asm, linker-script labels at an object's first byte).
#
# KMS_DWARF_CONFIG=defconfig-dwarf runs it on the defconfig with DWARF 5
# (a long build, not part of scripts/check).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel "${KMS_DWARF_CONFIG:-small-dwarf}"
cd "$tmp" || exit 1
vmlinux=$kbuild/vmlinux
for f in modules.builtin modules.builtin.modinfo modules.builtin.ranges; do
	[ -s "$kbuild/$f" ] || { fail "$kbuild/$f is missing"; finish; }
done

# The baselines, from the build tree (not what is tested here: unwrapped),
# of the text class alone, as DWARF mode describes it.
"$KMS_BUILD/kallmodsyms-gen" -q -f sidecar -o builtin.kms "$vmlinux" ||
	fail "generate"
"$KMS_BUILD/kallmodsyms" list -t builtin.kms "$vmlinux" > base-builtin ||
	fail "list"
"$KMS_BUILD/kallmodsyms-gen" -q --modularity -f sidecar -o base.kms \
	"$vmlinux" || fail "generate --modularity"
"$KMS_BUILD/kallmodsyms" list -t base.kms "$vmlinux" > base-modularity ||
	fail "list --modularity"

# agree BASELINE LIST [EXCLUDED_MODULES [modules]]: "agree N of M (P%)"
# over the text symbols, exit 1 under 99%; a symbol the baseline gives one
# of the excluded modules does not count; "modules": the [module]s alone
# are compared, not the {objfile} names.
agree() {
	gawk -v excluded="${3:-}" -v modules_only="${4:-}" '
	BEGIN { n = split(excluded, x, " "); for (i = 1; i <= n; i++) ex["[" x[i] "]"] = 1 }
	NR == FNR { base[FNR] = $0; next }
	$2 !~ /^[tTwW]$/ { next }
	{
		b = base[FNR]; l = $0
		if (n) {
			split(b, f, "\t")
			m = split(f[2], w, " ")
			for (i = 1; i <= m; i++) if (w[i] in ex) next
		}
		if (modules_only) {
			sub(/[\t ]?\{[^}]*\}$/, "", b)
			sub(/[\t ]?\{[^}]*\}$/, "", l)
		}
		total++
		if (b == l) same++
	}
	END { printf "agree %d of %d (%.2f%%)\n", same, total, total ? 100 * same / total : 0
	      exit !(total && same * 100 >= total * 99) }' "$1" "$2"
}

run_dwarf() {
	local name=$1
	shift
	kms_gen -q --dwarf -s -e -f sidecar -o "$name.kms" "$@" "$vmlinux" \
		> "$name.explain" 2> "$name.stats" || { fail "generate $name"; cat "$name.stats" >&2; }
	kms list -t "$name.kms" "$vmlinux" > "$name.list" || fail "list $name"
	[ "$(wc -l < "$name.list")" = "$(wc -l < base-builtin)" ] ||
		fail "$name: not the baseline's symbols"
}

run_dwarf ranges -B "$kbuild/modules.builtin" \
	--modinfo "$kbuild/modules.builtin.modinfo" \
	--ranges "$kbuild/modules.builtin.ranges"
run_dwarf paths -B "$kbuild/modules.builtin" \
	--modinfo "$kbuild/modules.builtin.modinfo"
grep -q '^modules-from modules.builtin.ranges by-path 0 unknown 0$' ranges.stats ||
	fail "ranges: $(cat ranges.stats)"
grep -q '^modules-from paths by-path [1-9][0-9]* unknown [1-9][0-9]*$' paths.stats ||
	fail "paths: $(cat paths.stats)"

# The same inputs give the same bytes.
kms_gen -q --dwarf -f sidecar -o again.kms -B "$kbuild/modules.builtin" \
	--modinfo "$kbuild/modules.builtin.modinfo" \
	--ranges "$kbuild/modules.builtin.ranges" "$vmlinux" || fail "generate again"
assert_same ranges.kms again.kms "two DWARF runs"

unknown=$(sed -n 's,^module \([^:]*\): objects unknown.*,\1,p' paths.explain |
	sed 's,.*/,,; s,-,_,g' | tr '\n' ' ')
[ -n "$unknown" ] || fail "no module listed as unknown without the ranges"

nr_unknown=$(echo "$unknown" | wc -w)
for base in builtin modularity; do
	res=$(agree "base-$base" ranges.list) || fail "ranges vs $base under 99%"
	echo "with modules.builtin.ranges, against the build tree ($base): $res"
	res=$(agree "base-$base" paths.list) || true
	echo "without them, every text symbol ($base): $res"
	res=$(agree "base-$base" paths.list "$unknown") || true
	echo "without them, outside the $nr_unknown unknown modules ($base): $res"
	res=$(agree "base-$base" paths.list "$unknown" modules) ||
		fail "paths vs $base under 99% outside the unknown modules"
	echo "without them, outside the $nr_unknown unknown modules, [modules] only ($base): $res"
done

# What differs from the like-for-like baseline: only {objfile} names, of
# code that has no compile unit (static-call trampolines, inline-asm
# functions, linker labels); never a [module].
paste -d '\n' base-builtin ranges.list | gawk -F '\t' '
	NR % 2 { old = $0; split($0, o, "\t"); next }
	old == $0 { next }
	{ gsub(/ ?\{[^}]*\}/, "", o[2]); m = $2; gsub(/ ?\{[^}]*\}/, "", m)
	  if (o[2] != m) print "module differs: " old " -> " $0 }' > module-diffs
[ -s module-diffs ] && { fail "DWARF mode changed modules"; head -20 module-diffs >&2; }

# Every class: data from the units' variables, against the build tree's
# --all-classes tables (modules.builtin's word: DWARF mode has no
# modularity analysis).
"$KMS_BUILD/kallmodsyms-gen" -q --all-classes -f sidecar -o base-all.kms \
	"$vmlinux" || fail "generate --all-classes"
"$KMS_BUILD/kallmodsyms" list -t base-all.kms "$vmlinux" > base-all ||
	fail "list --all-classes"
run_dwarf all --all-classes -B "$kbuild/modules.builtin" \
	--modinfo "$kbuild/modules.builtin.modinfo" \
	--ranges "$kbuild/modules.builtin.ranges"
grep '^dwarf variables' all.stats
kms_gen -q --dwarf --all-classes -f sidecar -o all-again.kms \
	-B "$kbuild/modules.builtin" --modinfo "$kbuild/modules.builtin.modinfo" \
	--ranges "$kbuild/modules.builtin.ranges" "$vmlinux" ||
	fail "generate --all-classes again"
assert_same all.kms all-again.kms "two DWARF runs with every class"

# agree_classes BASELINE LIST: for text (t T w W) and data (the rest), on
# stderr, the lines that are identical, and of the lines the baseline
# annotates those DWARF mode annotates alike; on stdout each line LIST
# annotates otherwise than BASELINE ("BASE -> LIST"), and a line if DWARF
# mode annotates under 97% of the data the baseline does alike, compound
# literals and switch tables (the compiler's objects, no variable's)
# counted apart.  arm64's
# early-boot code links objcopy'd copies of some objects (symbols
# prefixed __pi_, objects arch/arm64/kernel/pi/lib-*.pi.o): their compile
# units name the source they were built from, so DWARF mode names that
# (lib/fdt.o); they are counted, not held to the build tree's names.
agree_classes() {
	gawk '
	NR == FNR { base[FNR] = $0; next }
	{
		b = base[FNR]; kind = $2 ~ /^[tTwW]$/ ? "text" : "data"
		total[kind]++; same[kind] += b == $0
		# The compiler'"'"'s own objects, which no variable describes.
		if (kind == "data" && $3 ~ /^(__compound_literal|CSWTCH)\./) {
			anon++; anon_alike += b == $0
		} else if (index(b, "\t")) {
			annotated[kind]++; alike[kind] += b == $0
		}
		if (index($0, "\t") && b != $0) {
			if ($3 ~ /^__pi_/)
				pi++
			else
				print b " -> " $0
		}
	}
	END {
		if (pi)
			printf "arm64 position-independent copies (__pi_), named by their source file: %d\n", pi > "/dev/stderr"
		printf "compound literals and switch tables: %d, %d alike (not counted below)\n", anon, anon_alike > "/dev/stderr"
		for (k in total)
			printf "every class, %s symbols: agree %d of %d (%.2f%%); the build tree annotates %d, DWARF mode %d of them alike (%.2f%%)\n",
				k, same[k], total[k], 100 * same[k] / total[k],
				annotated[k], alike[k],
				annotated[k] ? 100 * alike[k] / annotated[k] : 0 > "/dev/stderr"
		if (!annotated["data"] || alike["data"] * 100 < annotated["data"] * 97)
			print "data: DWARF mode annotates under 97% of what the build tree does alike"
	}' "$1" "$2"
}
agree_classes base-all all.list 2> all.agree > all-diffs
sort all.agree
[ -s all-diffs ] && { fail "every class: DWARF mode annotates otherwise than the build tree"; head -20 all-diffs >&2; }

# The sidecar serves the inspector like the build tree's.
addr=$(grep -m1 ' ext4_fill_super	' ranges.list | cut -d' ' -f1)
"$KMS_BUILD/kallmodsyms" lookup -t base.kms "$vmlinux" "$addr" > lookup-base ||
	fail "lookup (build tree)"
testrun_compare kms lookup -t ranges.kms "$vmlinux" "$addr" < lookup-base
grep -q '^ext4_fill_super+0x0/0x[0-9a-f]* \[ext4\]' lookup-base ||
	fail "lookup: $(cat lookup-base)"

finish
