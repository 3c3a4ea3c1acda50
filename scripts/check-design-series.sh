#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that docs/DESIGN.md lists each kernel series as its series file
# has it, so that the list cannot drift from the patches again.
#
# For every series of the kernel's own patches, kernel-patches/VERSION/
# (not the generated *-module-license/ nor the *-fixture/ series),
# DESIGN.md holds a line naming `kernel-patches/VERSION/series`, and
# after it a list with one item per patch, in order, each item's first
# line
#
#   - NNNN *subject*: what it does ...
#
# with NNNN the number the patch's file name starts with (and a letter,
# for a patch put between two numbered ones) and subject its
# Subject: line as git mailinfo reads it ("[PATCH v3 01/13]" dropped).
# The list ends at the next line naming a series file or at a heading;
# an item's further lines are free text.
#
# usage: scripts/check-design-series.sh   (prints one line per
# difference; exits 1 if there is any)

set -euo pipefail
cd "$(dirname "$0")/.."
design=docs/DESIGN.md
bad=0

for series in kernel-patches/*/series; do
	dir=${series%/series}
	case $dir in *-module-license|*-fixture) continue ;; esac
	want=$(while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		printf '%s %s\n' "${p%%-*}" "$(git mailinfo /dev/null /dev/null \
			< "$dir/$p" | sed -n 's/^Subject: //p')"
	done < "$series")
	# The items after the line naming this series file.
	have=$(awk -v marker="\`$series\`" '
		index($0, marker) { on = 1; next }
		on && (/^#/ || /`kernel-patches\/[^`]*\/series`/) { exit }
		on && /^- [0-9][0-9][0-9][0-9][a-z]? \*/ {
			n = $2
			s = substr($0, length(n) + 5)
			end = index(s, "*:")
			if (!end && substr(s, length(s)) == "*")
				end = length(s)
			print n " " (end ? substr(s, 1, end - 1) : s)
		}' "$design")
	if [ -z "$have" ]; then
		echo "$design: no list of \`$series\`"
		bad=1
	elif [ "$have" != "$want" ]; then
		echo "$design: the list of \`$series\` is not the series (< DESIGN.md, > $series):"
		diff <(echo "$have") <(echo "$want") | grep '^[<>]' || true
		bad=1
	else
		echo "$design: \`$series\`: $(wc -l <<< "$want") patches, as listed"
	fi
done
exit "$bad"
