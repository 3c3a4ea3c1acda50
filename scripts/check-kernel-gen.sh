#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that kbuild's copy of the generator in each kernel series (the
# scripts/kallmodsyms/ files a patch adds) is exactly what
# scripts/export-kernel-gen.sh writes from sidecar/ now: the project's
# sources are the code's one home, the series' copy is derived.
#
# usage: scripts/check-kernel-gen.sh   (from anywhere; prints each series'
# verdict, exits 1 if a copy differs)

set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0

mkdir -p "$scratch/export/scripts"
scripts/export-kernel-gen.sh "$scratch/export" > /dev/null || exit 1

mapfile -t patches < <(grep -l '^+++ b/scripts/kallmodsyms/' \
	kernel-patches/[0-9]*.[0-9]*/[0-9]*.patch)
if [ "${#patches[@]}" = 0 ]; then
	echo "check-kernel-gen: no series carries scripts/kallmodsyms/ yet"
	exit 0
fi
for p in "${patches[@]}"; do
	rm -rf "$scratch/applied"
	mkdir -p "$scratch/applied"
	# The patch's new files under scripts/kallmodsyms/, alone.
	if ! (cd "$scratch/applied" &&
		git apply --include='scripts/kallmodsyms/*' "$OLDPWD/$p"); then
		echo "check-kernel-gen: $p: its scripts/kallmodsyms/ does not apply to an empty tree" >&2
		status=1
	elif diff -r "$scratch/export/scripts/kallmodsyms" \
		"$scratch/applied/scripts/kallmodsyms" > "$scratch/diff"; then
		echo "check-kernel-gen: $p: scripts/kallmodsyms/ is scripts/export-kernel-gen.sh's copy"
	else
		echo "check-kernel-gen: $p: scripts/kallmodsyms/ differs from scripts/export-kernel-gen.sh's copy (< export, > patch):" >&2
		head -n 20 "$scratch/diff" >&2
		status=1
	fi
done
exit "$status"
