#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kernel's note parser (kernel/kallmodsyms.c and its header) as
# the patch series creates them, into OUTDIR, for the userspace fuzz target:
# the hunks of those files from the patch that creates them and each
# following patch that touches them, up to the first that does not (the
# check at boot and the kept tables: 6.12's 0005-0006, 6.1's 0003-0004),
# applied to an empty tree.  Given a patch number and files,
# those files' hunks from that patch instead; NUMBER may be a glob
# ('000[5-8]'): the hunks of each patch it matches, in order, the first
# creating the files (scripts/sync-check.sh).
#
# usage: extract-kernel.sh PATCHDIR OUTDIR [NUMBER FILE...]

set -euo pipefail

patches=$1
out=$2
# Does patch $1 touch the parser's files?
touches() {
	grep -qE '^\+\+\+ b/(kernel/kallmodsyms\.c|include/linux/kallmodsyms(_reasons)?\.h)$' "$1"
}
# The patch that creates kernel/kallmodsyms.c and each one after it that
# touches the parser's files, up to the first that does not.
parser_patches() {
	local p found=
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		if [ -z "$found" ]; then
			grep -q '^+++ b/kernel/kallmodsyms\.c$' "$p" || continue
			found=1
		elif ! touches "$p"; then
			return
		fi
		echo "$p"
	done
}
if [ $# -gt 2 ]; then
	# shellcheck disable=SC2206 # the glob is the point
	list=("$patches"/$3-*.patch)
else
	mapfile -t list < <(parser_patches "$patches")
	[ ${#list[@]} -gt 0 ] ||
		{ echo "extract-kernel.sh: $patches: no patch creates kernel/kallmodsyms.c" >&2; exit 1; }
fi
files="kernel/kallmodsyms.c include/linux/kallmodsyms.h include/linux/kallmodsyms_reasons.h"
if [ $# -gt 3 ]; then files="${*:4}"; fi

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
for p in "${list[@]}"; do
	# Keep only the diff sections of our files; stop at the mail trailer.
	awk -v files="$files" '
		BEGIN { n = split(files, f, " "); for (i = 1; i <= n; i++) want["a/" f[i]] = 1 }
		/^diff --git / { keep = ($3 in want); }
		/^-- $/ { keep = 0 }
		keep { print }
	' "$p" > "$out.tmp/part.diff"
	# (A patch of the glob may touch none of the files.)
	if [ -s "$out.tmp/part.diff" ]; then
		patch -s -p1 -d "$out.tmp" < "$out.tmp/part.diff"
	fi
done
rm -f "$out.tmp/part.diff"
rm -rf "$out"
mv "$out.tmp" "$out"
