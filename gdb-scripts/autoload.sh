#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: gdb-scripts/autoload.sh DIR
#
# Make gdb load the kallmodsyms helpers whenever it reads DIR/vmlinux:
# writes DIR/vmlinux-gdb.gdb, which gdb auto-loads beside the kernel's own
# vmlinux-gdb.py (one script per extension language).  gdb only loads
# scripts from safe paths: add "add-auto-load-safe-path DIR" to ~/.gdbinit,
# as for the kernel's scripts.

set -eu

[ $# = 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$dir" ] || { echo "$0: $dir: no such directory" >&2; exit 1; }

out=$dir/vmlinux-gdb.gdb
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
printf '# Written by kallmodsyms gdb-scripts/autoload.sh\nsource %s/kallmodsyms-gdb.py\n' \
	"$here" > "$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "gdb loads the kallmodsyms helpers with $dir/vmlinux (add-auto-load-safe-path $dir)"
