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

# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$bench_top"
top=$bench_top
config=${1:-defconfig}

kbuild=$(tests/kernel/build.sh "$config")
bench_qemu_setup
cd "$tmp"

cat > guest.sh <<'GUEST'
stty -F /dev/kms-ctl raw -echo
cat /proc/kallmodsyms > /dev/null
# busybox date has no %N: time 20 reads with /proc/uptime (10 ms ticks).
start=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt 20 ]; do cat /proc/kallmodsyms > /dev/null; i=$((i + 1)); done
end=$(cut -d' ' -f1 /proc/uptime)
echo "@@@ proc"
echo "$start $end"
echo "@@@ ready"
read -r go < /dev/kms-ctl
GUEST
make_initramfs initrd.gz guest.sh
start_gdbstub "$(boot_image)" initrd.gz run -- kaslr
wait_for_line run/data "@@@ ready" 300
split_sections run
gdb_run() {
	timeout -k 10 600 gdb -batch -nx -iex 'set pagination off' \
		-iex "source $top/gdb-scripts/kallmodsyms-gdb.py" \
		-iex "source $top/tests/gdb/capture.py" "$kbuild/vmlinux" \
		-ex "target remote $gdbstub" "$@" >> gdb.out 2>&1
}
# Fresh sessions: nothing cached in gdb's Python.
gdb_run -ex 'capture lookup lx-kallmodsyms-lookup $pc' \
	-ex 'capture second lx-kallmodsyms' -ex 'detach'
gdb_run -ex 'capture first lx-kallmodsyms' -ex 'kill-guest'
wait_qemu 60 || true

proc=$(gawk '{ printf "%.4f", ($2 - $1) / 20 }' run/proc)
lines=$(wc -l < first)
note "$config: $lines lines; the guest read /proc/kallmodsyms in $proc s"
row_header "gdb over QEMU's gdbstub, $config, KASLR, seconds"
row "lx-kallmodsyms, fresh session vs guest cat" "$(cat first.time)" "$proc" s
row "lx-kallmodsyms, cached vs guest cat" "$(cat second.time)" "$proc" s
row "lx-kallmodsyms-lookup \$pc, fresh vs guest cat" "$(cat lookup.time)" \
	"$proc" s
