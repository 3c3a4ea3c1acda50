#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the relative links of every tracked Markdown file: each inline
# link or image, [text](target) or ![alt](target), and each reference
# definition, [label]: target, whose target has no scheme (http:,
# mailto:, ...) and is not only an #anchor, must name a file or folder
# that git tracks, relative to the Markdown file's folder; an #anchor
# after it is not checked.  Nothing may point outside the repository.
# Text in backquotes and in indented or fenced code blocks is not read.
#
# usage: scripts/check-links.sh   (prints FILE:LINE: target for each
# broken link and exits 1; else one line of counts)

set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t markdown < <(git ls-files -- '*.md')
tracked=$(git ls-files | awk -F/ '{
	path = ""
	for (i = 1; i <= NF; i++) {
		path = path (i > 1 ? "/" : "") $i
		print path
	}
}' | sort -u)

# FILE<TAB>LINE<TAB>TARGET for each relative link.
links() {
	awk '
	/^(```|~~~)/ { fenced = !fenced; next }
	fenced || /^(    |\t)/ { next }
	{
		line = $0
		gsub(/`[^`]*`/, "", line)
		if (match(line, /^ *\[[^]]+\]: */)) {
			target = substr(line, RSTART + RLENGTH)
			sub(/[ \t].*/, "", target)
			print FILENAME "\t" FNR "\t" target
			next
		}
		while (match(line, /\]\([^)]*\)/)) {
			target = substr(line, RSTART + 2, RLENGTH - 3)
			sub(/[ \t].*/, "", target)
			print FILENAME "\t" FNR "\t" target
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$@"
}

bad=0
n=0
while IFS=$'\t' read -r file line target; do
	case $target in
	''|'#'*|*:*) continue ;;
	esac
	n=$((n + 1))
	target=${target%%#*}
	dir=$(dirname "$file")
	# The path from the top of the tree, with . and .. resolved.
	resolved=$(realpath -m --relative-to=. "$dir/$target")
	case $resolved in
	..|../*|/*)
		echo "$file:$line: $target points outside the repository"
		bad=1
		continue ;;
	esac
	if ! grep -qxF -- "$resolved" <<< "$tracked"; then
		echo "$file:$line: $target: no such tracked file"
		bad=1
	fi
done < <(links "${markdown[@]}")
[ "$bad" = 1 ] ||
	echo "check-links: ${#markdown[@]} Markdown files, $n relative links, each to a tracked file"
exit "$bad"
