#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate kernel-patches/VERSION-module-license/: the series that
# removes MODULE_LICENSE() from the files of Linux VERSION that can never
# be modules, as kallmodsyms-audit --allmodconfig --patches writes it, then
# check that every patch applies alone (patch -p1 --dry-run -F0) to the
# pristine tree.  The old directory is replaced only when all of that
# worked.
#
# usage: scripts/gen-module-license-series.sh VERSION [OUTDIR]
#   OUTDIR        default kernel-patches/VERSION-module-license
#   KMS_SRCTREE   the pristine sources (default: extracted from
#                 /usr/src/linux-source-VERSION.tar.xz into a scratch dir)
#   KMS_AUTHOR    'Name <email>' (default: kallmodsyms-audit's: git config)
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

args=(--allmodconfig -S "$src" -o "$scratch/build" --patches "$scratch/series")
[ -n "${KMS_AUTHOR:-}" ] && args+=(--author "$KMS_AUTHOR")
"$audit" "${args[@]}"

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
