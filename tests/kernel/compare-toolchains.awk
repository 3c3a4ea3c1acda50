# SPDX-License-Identifier: GPL-2.0
#
# Compare the annotations of two builds of one config (GCC and clang):
#   gawk -f compare-toolchains.awk A.explain B.explain A.list B.list
# where X.explain is "kallmodsyms-gen -ee" (objects, then text ranges) and
# X.list "kallmodsyms list" of build X.  Text symbols of a name both builds
# have are paired when they come from the same object; each pair whose
# annotations differ falls in a class that explains it, or is unexplained:
#   named-in-one  one build prints the object's name, the other not: the
#                 object holds a name that another object of its modules
#                 has in that build only (checked)
#   renamed       both print it, by a longer or shorter path suffix: the
#                 objects it shares names with differ
#   module        the [module]s differ: a real disagreement
# An instance with no partner in the other build's same object is
# "moved": that compiler emitted the function in other units (inlined it
# here, kept an out-of-line copy there).  Symbols outside every range
# (assembler and linker labels) pair by annotation.
# Prints "CLASS NAME OBJECT A-ANNOTATION | B-ANNOTATION" per difference,
# then the summary, ending with "unexplained N".

function annotation(line,    i) {
	i = index(line, "\t")
	return i ? substr(line, i + 1) : ""
}
function modules_of(ann) {
	gsub(/ ?\{[^}]*\}/, "", ann)
	return ann
}
function has_name(ann) {
	return ann ~ /\{[^}]*\}/
}
# Kernel text lies in one 4 GiB window: its low 32 bits order it, and fit
# awk's doubles exactly (whole addresses do not).
function low32(hex) {
	sub(/^0x/, "", hex)
	return strtonum("0x" substr(hex, length(hex) > 8 ? length(hex) - 7 : 1))
}

# The object build @b's ranges put address @addr (hex) in, or "".
function object_at(b, addr,    lo, hi, mid, a) {
	a = low32(addr)
	lo = 1; hi = nr[b]
	while (lo <= hi) {
		mid = int((lo + hi) / 2)
		if (a < rstart[b, mid])
			hi = mid - 1
		else if (a >= rend[b, mid])
			lo = mid + 1
		else
			return robj[b, mid]
	}
	return ""
}

FNR == 1 { file++ }

file <= 2 && /^range 0x/ {
	split($2, r, "-")
	nr[file]++
	rstart[file, nr[file]] = low32(r[1])
	rend[file, nr[file]] = low32(r[2])
	robj[file, nr[file]] = $3
	next
}
file <= 2 {
	# "path\t[mods] {name}\tnot a module: ...": the modules it prints.
	split($0, f, "\t")
	objmods[file, f[1]] = f[2] ~ /^\[/ ? modules_of(f[2]) : ""
	next
}
$2 ~ /^[tTwW]$/ {
	b = file - 2
	rest = $0
	sub(/^[0-9a-f]+ [a-zA-Z] /, "", rest)
	i = index(rest, "\t")
	sym = i ? substr(rest, 1, i - 1) : rest
	k = ++nsym[b, sym]
	ann[b, sym, k] = annotation(rest)
	obj[b, sym, k] = object_at(b, $1)
	total[b]++
	names[sym] = 1
	if (obj[b, sym, k] != "")
		objects_of[b, sym] = objects_of[b, sym] SUBSEP obj[b, sym, k]
}

# shares[b, o]: object o holds, in build b, a name that another object of
# the same [module]s has too (which is when docs/DESIGN.md names objects).
function find_sharing(b,    key, s, list, n, i, j) {
	for (key in objects_of) {
		split(key, s, SUBSEP)
		if (s[1] != b)
			continue
		n = split(objects_of[key], list, SUBSEP)
		for (i = 2; i <= n; i++)
			for (j = 2; j <= n; j++)
				if (list[i] != list[j] &&
				    objmods[b, list[i]] == objmods[b, list[j]])
					shares[b, list[i]] = 1
	}
}

function classify(o, ga, ca,    key) {
	if (modules_of(ga) != modules_of(ca))
		return "module"
	if (has_name(ga) && has_name(ca))
		return "renamed"
	key = has_name(ga) ? 1 : 2
	return (key, o) in shares && !((3 - key, o) in shares) ?
		"named-in-one" : "unexplained"
}

function pair(sym, i, j,    c) {
	gused[i] = cused[j] = 1
	if (ann[1, sym, i] == ann[2, sym, j]) {
		same++
		return
	}
	c = classify(obj[1, sym, i], ann[1, sym, i], ann[2, sym, j])
	count[c]++
	printf "%s %s %s %s | %s\n", c, sym, obj[1, sym, i], ann[1, sym, i],
		ann[2, sym, j]
}

END {
	find_sharing(1)
	find_sharing(2)
	for (sym in names) {
		ng = nsym[1, sym] + 0; nc = nsym[2, sym] + 0
		if (!ng || !nc) {
			only[ng ? 1 : 2] += ng + nc
			continue
		}
		delete gused; delete cused
		for (i = 1; i <= ng; i++)
			for (j = 1; j <= nc; j++)
				if (!(j in cused) && obj[1, sym, i] == obj[2, sym, j] &&
				    (obj[1, sym, i] != "" || ann[1, sym, i] == ann[2, sym, j])) {
					pair(sym, i, j)
					break
				}
		for (i = 1; i <= ng; i++)
			moved[1] += !(i in gused)
		for (j = 1; j <= nc; j++)
			moved[2] += !(j in cused)
	}
	paired = same + count["named-in-one"] + count["renamed"] + \
		 count["module"] + count["unexplained"]
	printf "text symbols %d and %d\n", total[1], total[2]
	printf "paired (same name, same object) %d: same annotation %d (%.2f%%), same [module]s %d (%.2f%%)\n",
		paired, same, 100 * same / paired, paired - count["module"],
		100 * (paired - count["module"]) / paired
	printf "named-in-one %d\nrenamed %d\nmodule %d\n", count["named-in-one"],
		count["renamed"], count["module"]
	printf "moved (a name's instance in other objects) %d and %d\n", moved[1], moved[2]
	printf "names in one build only: %d and %d symbols\n", only[1], only[2]
	printf "unexplained %d\n", count["unexplained"] + count["module"]
}
