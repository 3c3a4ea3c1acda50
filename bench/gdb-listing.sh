#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel (default: defconfig) with KASLR under QEMU's gdbstub
# and time, over the gdbstub, gdb-scripts' full lx-kallmodsyms listing, the
# one lookup in a fresh session, the listing after it (cached); beside
# them, the guest reading its own /proc/kallmodsyms (the peer: what the
# listing reproduces).  Prints seconds and the ratio of each to the peer.
#
# usage: bench/gdb-listing.sh [CONFIG]

set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
config=${1:-defconfig}

kbuild=$(tests/kernel/build.sh "$config")
tmp=$(mktemp -d)
failures=0
at_exit_commands=
at_exit() { at_exit_commands="$*; $at_exit_commands"; }
trap 'eval "$at_exit_commands"; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. tests/kernel/qemu.sh
cd "$tmp"

cat > guest.sh <<'GUEST'
stty -F /dev/ttyS2 raw -echo
cat /proc/kallmodsyms > /dev/null
# busybox date has no %N: time 20 reads with /proc/uptime (10 ms ticks).
start=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt 20 ]; do cat /proc/kallmodsyms > /dev/null; i=$((i + 1)); done
end=$(cut -d' ' -f1 /proc/uptime)
echo "@@@ proc"
echo "$start $end"
echo "@@@ ready"
read -r go < /dev/ttyS2
GUEST
make_initramfs initrd.gz guest.sh
port=$(free_port)
start_gdbstub "$kbuild/arch/x86/boot/bzImage" initrd.gz run "$port" -- kaslr
wait_for_line run/data "@@@ ready" 300
split_sections run
gdb_run() {
	timeout 600 gdb -batch -nx -iex 'set pagination off' \
		-iex "source $top/gdb-scripts/kallmodsyms.py" \
		-iex "source $top/tests/gdb/capture.py" "$kbuild/vmlinux" \
		-ex "target remote 127.0.0.1:$port" "$@" >> gdb.out 2>&1
}
# Fresh sessions: nothing cached in gdb's Python.
gdb_run -ex 'capture lookup lx-kallmodsyms-lookup $pc' \
	-ex 'capture second lx-kallmodsyms' -ex 'detach'
gdb_run -ex 'capture first lx-kallmodsyms' -ex 'kill'
wait_qemu 60 || true

proc=$(awk '{ printf "%.4f", ($2 - $1) / 20 }' run/proc)
lines=$(wc -l < first)
printf '%-44s %10s %8s\n' "$config, KASLR, QEMU TCG gdbstub" seconds "x peer"
printf '%-44s %10s %8s\n' "guest: cat /proc/kallmodsyms ($lines lines)" "$proc" 1
for what in first second lookup; do
	t=$(cat "$what.time")
	case $what in
	first) label="lx-kallmodsyms, fresh gdb session" ;;
	second) label="lx-kallmodsyms, after a lookup (cached)" ;;
	lookup) label="lx-kallmodsyms-lookup \$pc, fresh session" ;;
	esac
	printf '%-44s %10s %8s\n' "$label" "$t" \
		"$(awk -v a="$t" -v b="$proc" 'BEGIN { printf "%.1f", a / b }')"
done
