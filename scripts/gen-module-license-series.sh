#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate kernel-patches/VERSION-module-license/: the series that
# removes MODULE_LICENSE() from the files of Linux VERSION that can never
# be modules on any architecture (kallmodsyms-audit --tree-wide, about
# 25 CPU-minutes; its listing is kept in the series' folder as
# findings.txt), as kallmodsyms-audit --patches writes it, then check that
# every patch applies alone (patch -p1 --dry-run -F0) to the pristine
# tree.  The old directory is replaced only when all of that worked.
#
# usage: scripts/gen-module-license-series.sh VERSION [OUTDIR]
#   OUTDIR        default kernel-patches/VERSION-module-license
#   KMS_SRCTREE   the pristine sources (default: extracted from
#                 /usr/src/linux-source-VERSION.tar.xz into a scratch dir)
#   KMS_AUTHOR    'Name <email>' (default: kallmodsyms-audit's: git config)
#   KMS_FINDINGS  a listing of an earlier --tree-wide run to use instead
#                 of running it again: its files are checked again against
#                 the tree (kallmodsyms-audit --findings), and those that
#                 no longer hold are left out with a note
#   KMS_CHANGES   a file whose text goes into the cover letter as the
#                 changes since the previous version (--changes)
#   TMPDIR        where the scratch directory goes
set -euo pipefail
[ $# = 1 ] || [ $# = 2 ] || { echo "usage: $0 VERSION [OUTDIR]" >&2; exit 2; }
version=$1
top=$(cd "$(dirname "$0")/.." && pwd)
audit=$top/build/kallmodsyms-audit
out=${2:-$top/kernel-patches/$version-module-license}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gen-module-license.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

die() { echo "gen-module-license-series.sh: $*" >&2; exit 1; }

[ -x "$audit" ] || make -C "$top" -s "$audit" > /dev/null ||
	die "cannot build $audit"
src=${KMS_SRCTREE:-}
if [ -z "$src" ]; then
	tarball=/usr/src/linux-source-$version.tar.xz
	[ -f "$tarball" ] || die "$tarball: missing (or set KMS_SRCTREE)"
	tar -C "$scratch" -xf "$tarball"
	src=$scratch/linux-source-$version
fi
[ -f "$src/Makefile" ] || die "$src: not a kernel tree"

if [ -n "${KMS_FINDINGS:-}" ]; then
	"$audit" --findings "$KMS_FINDINGS" -S "$src" > "$scratch/findings.txt"
else
	"$audit" --tree-wide -S "$src" -o "$scratch/build" > "$scratch/findings.txt"
fi
args=(--findings "$scratch/findings.txt" -S "$src" --patches "$scratch/series")
[ -n "${KMS_AUTHOR:-}" ] && args+=(--author "$KMS_AUTHOR")
[ -n "${KMS_CHANGES:-}" ] && args+=(--changes "$KMS_CHANGES")
"$audit" "${args[@]}"
cp "$scratch/findings.txt" "$scratch/series/"

# Each patch alone on the pristine tree.
while read -r patch; do
	patch -p1 --dry-run -F0 -s -f -d "$src" < "$scratch/series/$patch" \
		> /dev/null || die "$patch does not apply alone to $src"
done < "$scratch/series/series"

rm -rf "$out.old"
[ ! -e "$out" ] || mv "$out" "$out.old"
cp -r "$scratch/series" "$out"
rm -rf "$out.old"
echo "$out: $(wc -l < "$out/series") patches"
