#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reasons a reader refuses a note are one list,
# sidecar/include/kms/reasons.h (KMS_REASON(NAME, WORD, MEANING) lines,
# FORMAT.md 7's order).  The C library and the Python decoder are made
# from it; what cannot be made from it is held to it here:
#
# - FORMAT.md 7's table (and so its copy in each series'
#   Documentation/kbuild/kallmodsyms-format.rst, scripts/format-rst.py's):
#   its words, in order;
# - the kernel parser's copy, the KALLMODSYMS_REASON() lines of each
#   series' include/linux/kallmodsyms_reasons.h (6.12's patch 0005, 6.1's
#   0003): every entry alike.
#
# A copy that differs fails with one line naming it and its first entry
# that differs.
#
# usage: scripts/check-reasons.sh   (from anywhere; exit 1 on a difference)

set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0

# The KMS_REASON(NAME, "WORD", "MEANING") lines of FILE (the kernel's
# copy's are KALLMODSYMS_REASON(...)), as "NAME WORD MEANING".
entries() {
	sed -n 's/^[[:space:]]*\(KMS_REASON\|KALLMODSYMS_REASON\)(\([A-Z_]*\), "\([^"]*\)", "\([^"]*\)")[[:space:]\\]*$/\2 \3 \4/p' "$1"
}

# same WHAT FILE: FILE's lines are those of the list in $scratch/want?
same() {
	local n
	if cmp -s "$scratch/want" "$2"; then
		return 0
	fi
	# "differ: byte B, line N", or "EOF on F after byte B, line N" (or
	# "EOF on F which is empty"): the entry after the last in common.
	n=$({ cmp "$scratch/want" "$2" 2>&1 || true; } | sed -n \
		-e 's/.* differ: .* line \([0-9]*\)$/\1/p' \
		-e 's/.* EOF on .* line \([0-9]*\)$/\1 + 1/p' \
		-e 's/.* EOF on .* is empty$/1/p')
	n=$((n))
	echo "check-reasons: $1 differs from kms/reasons.h at entry $n:" \
		"'$(sed -n "${n}p" "$2")', not '$(sed -n "${n}p" "$scratch/want")'"
	status=1
}

entries sidecar/include/kms/reasons.h > "$scratch/list"
if [ "$(wc -l < "$scratch/list")" -lt 13 ]; then
	echo "check-reasons: sidecar/include/kms/reasons.h: $(wc -l < "$scratch/list") entries of the form KMS_REASON(NAME, \"WORD\", \"MEANING\")"
	exit 1
fi

cut -d' ' -f2 "$scratch/list" > "$scratch/want"
sed -n '/^| class | the rule broken |$/,/^$/s/^| `\([^`]*\)` |.*/\1/p' \
	sidecar/FORMAT.md > "$scratch/format"
same "sidecar/FORMAT.md 7's table" "$scratch/format"

cp "$scratch/list" "$scratch/want"
for v in 6.12 6.1; do
	tests/fuzz/extract-kernel.sh "kernel-patches/$v" "$scratch/$v"
	entries "$scratch/$v/include/linux/kallmodsyms_reasons.h" > "$scratch/kernel-$v"
	same "kernel-patches/$v: include/linux/kallmodsyms_reasons.h" "$scratch/kernel-$v"
done

[ $status -ne 0 ] ||
	echo "check-reasons: FORMAT.md 7 and the kernel's copies agree with kms/reasons.h ($(wc -l < "$scratch/list") reasons)"
exit $status
