#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that README.md's folder table (the table under "## What is here")
# is a map of the tree: every folder git tracks a file in, at the top
# level or one below (from `git ls-files`), has a row, and every path a
# row names exists.
#
# The rule: a row's first cell names one or more paths, each in
# backquotes (`tests/`, `python/`, `python/kallmodsyms/`).  A path ending
# in "/" names folders, any other path tracked files.  A path may hold
# the shell's * and ?, which match within one component
# (`kernel-patches/*-fixture/` names kernel-patches/6.12-fixture/ and
# kernel-patches/6.1-fixture/, not deeper folders).  A folder has a row
# when a folder path of some row matches it; a path that matches no
# tracked folder (or, for a file path, no tracked file) is an error.
# Deeper folders (sidecar/include/kms/) need no row.
#
# usage: scripts/check-folders.sh [README]   (prints one line per
# problem, naming the folder or path, and exits 1; else one line of
# counts)

set -euo pipefail
cd "$(dirname "$0")/.."
readme=${1:-README.md}

# The first cell of each row of the table under "## What is here".
mapfile -t cells < <(awk '
	/^## / { intable = ($0 == "## What is here"); next }
	intable && /^\|/ {
		split($0, c, "|")
		if (c[2] ~ /^ *folder *$/ || c[2] ~ /^-+$/) next
		print c[2]
	}' "$readme")
if [ ${#cells[@]} -eq 0 ]; then
	echo "$readme: no folder table under \"## What is here\""
	exit 1
fi
paths=()
for cell in "${cells[@]}"; do
	while [[ $cell =~ \`([^\`]*)\` ]]; do
		paths+=("${BASH_REMATCH[1]}")
		cell=${cell#*"${BASH_REMATCH[0]}"}
	done
done

mapfile -t files < <(git ls-files)
mapfile -t folders < <(printf '%s\n' "${files[@]}" |
	awk -F/ 'NF > 1 { print $1 "/" } NF > 2 { print $1 "/" $2 "/" }' |
	sort -u)

# Does PATTERN match NAME, component by component?
matches() {
	local pattern=$1 name=$2
	local -a p n
	IFS=/ read -r -a p <<< "$pattern"
	IFS=/ read -r -a n <<< "$name"
	[ ${#p[@]} -eq ${#n[@]} ] || return 1
	local i
	for i in "${!p[@]}"; do
		# shellcheck disable=SC2053
		[[ ${n[$i]} == ${p[$i]} ]] || return 1
	done
}

bad=0
declare -A covered=()
for path in "${paths[@]}"; do
	found=
	if [[ $path == */ ]]; then
		for folder in "${folders[@]}"; do
			if matches "${path%/}" "${folder%/}"; then
				covered[$folder]=1
				found=1
			fi
		done
	else
		for file in "${files[@]}"; do
			matches "$path" "$file" && found=1 && break
		done
	fi
	if [ -z "$found" ]; then
		echo "$readme: folder table names $path, which git does not track"
		bad=1
	fi
done
for folder in "${folders[@]}"; do
	if [ -z "${covered[$folder]:-}" ]; then
		echo "$readme: folder table has no row for $folder"
		bad=1
	fi
done
[ "$bad" = 1 ] ||
	echo "check-folders: ${#folders[@]} folders, each with a row in $readme's table"
exit "$bad"
