#!/usr/bin/gawk -f
# SPDX-License-Identifier: GPL-2.0
#
# Compare the [module] sets of a `kallmodsyms list` with the kernel's own
# modules.builtin.ranges, symbol by symbol.
#
# usage: gawk [-v all=1] -f compare-builtin-ranges.awk modules.builtin.ranges System.map LIST
#
# Text symbols (t, T, w, W); with all=1, data, read-only data and bss
# symbols too (d, D, b, B, r, R): every section both describe (per-CPU
# data and absolute symbols are in neither file's ranges).
# Prints "agree N of M" and, for each disagreement (at most 20 shown, or
# -v show=N), the symbol with both module sets.  Exits 1 if any symbol
# disagrees.
#
# Addresses are taken modulo 2^32 (the image lies in one 2 GiB window), so
# gawk's doubles hold them exactly.

function low32(hex) {
	sub(/^0x/, "", hex)
	return strtonum("0x" substr(hex, length(hex) - 7))
}

ARGIND == 1 {
	if ($3 == "=") {
		anchor_sym[$1] = $4
		split($2, se, "-")
		anchor_off[$1] = strtonum("0x" se[1])
		next
	}
	split($2, se, "-")
	n_ent++
	ent_sect[n_ent] = $1
	ent_start[n_ent] = strtonum("0x" se[1])
	ent_end[n_ent] = strtonum("0x" se[2])
	mods = $3
	for (i = 4; i <= NF; i++)
		mods = mods " " $i
	ent_mods[n_ent] = mods
	next
}

ARGIND == 2 {
	addr_of[$3] = low32($1)
	next
}

ARGIND == 3 && FNR == 1 {
	# Resolve entries to absolute (low 32-bit) ranges, sorted by start.
	n = 0
	for (i = 1; i <= n_ent; i++) {
		s = ent_sect[i]
		if (!(s in anchor_sym) || !(anchor_sym[s] in addr_of))
			continue
		base = addr_of[anchor_sym[s]] - anchor_off[s]
		n++
		key[n] = sprintf("%012d %d", base + ent_start[i], i)
	}
	asort(key)
	for (j = 1; j <= n; j++) {
		split(key[j], kv, " ")
		i = kv[2]
		base = addr_of[anchor_sym[ent_sect[i]]] - anchor_off[ent_sect[i]]
		rs[j] = base + ent_start[i]
		re[j] = base + ent_end[i]
		rm[j] = ent_mods[i]
	}
	nr = n
}

ARGIND == 3 && ($2 ~ /^[tTwW]$/ || (all && $2 ~ /^[dDbBrR]$/)) && NF >= 3 {
	a = low32($1)
	# The kernel's set: binary search for the last range starting <= a.
	lo = 1; hi = nr; found = 0
	while (lo <= hi) {
		mid = int((lo + hi) / 2)
		if (rs[mid] <= a) { found = mid; lo = mid + 1 } else hi = mid - 1
	}
	theirs = (found && a < re[found]) ? rm[found] : ""
	# Ours: the [..] fields after the tab.
	ours = ""
	tab = index($0, "\t")
	if (tab) {
		rest = substr($0, tab + 1)
		while (match(rest, /\[[^]]+\]/)) {
			m = substr(rest, RSTART + 1, RLENGTH - 2)
			ours = ours == "" ? m : ours " " m
			rest = substr(rest, RSTART + RLENGTH)
		}
	}
	total++
	if (ours == theirs) {
		agree++
	} else if (++bad <= (show ? show : 20)) {
		printf "differ: %s %s: kallmodsyms [%s], modules.builtin.ranges [%s]\n",
			$1, $3, ours, theirs
	}
}

END {
	printf "agree %d of %d\n", agree, total
	exit bad ? 1 : 0
}
