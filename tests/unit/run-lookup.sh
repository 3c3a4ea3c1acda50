#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# lookup: symbol+off/size [modules] {objfile}, in the kernel's %pS notation
# (sizes to the next symbol's address, "0x0" offsets).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fx=$(fixture relocatable)
kms_gen -q -f sidecar -o "$tmp/fx.kms" "$fx/vmlinux" || fail "generate"

# addr_of NAME [N]: the Nth (default 1st) address of NAME, from nm.
addr_of() {
	nm -n "$fx/vmlinux" | gawk -v n="$1" -v k="${2:-1}" \
		'$3 == n && ++seen == k { print $1 }'
}
# size_of NAME [N]: distance to the next higher symbol address.
size_of() {
	local a next
	a=$(addr_of "$@")
	next=$(nm -n "$fx/vmlinux" | gawk -v a="$a" '$1 > a { print $1; exit }')
	printf '0x%x\n' $(( 0x$next - 0x$a ))
}
plus() { printf '%x' $(( 0x$1 + $2 )); }

probe=$(addr_of liquid_probe)
h1=$(addr_of ext9_helper 1)
h2=$(addr_of ext9_helper 2)
ev=$(addr_of event_show 2)
core=$(addr_of event_show 1)

testrun_compare kms lookup -t "$tmp/fx.kms" "$fx/vmlinux" \
	"0x$(plus "$probe" 2)" "$h1" "$(plus "$h2" 1)" "0x$ev" "$core" <<EOF
liquid_probe+0x2/$(size_of liquid_probe) [liquid] [liquid_vf]
ext9_helper+0x0/$(size_of ext9_helper 1) [ext9] {inode.o}
ext9_helper+0x1/$(size_of ext9_helper 2) [ext9] {super.o}
event_show+0x0/$(size_of event_show 2) [mod_a]
event_show+0x0/$(size_of event_show 1) {core.o}
EOF

# Bad addresses: one line each, the good ones still answered, exit 1.
status=0
kms lookup -t "$tmp/fx.kms" "$fx/vmlinux" zzz 0x10 "$probe" \
	> "$tmp/out" 2> "$tmp/err" || status=$?
[ "$status" = 1 ] || fail "lookup with bad addresses exited $status, not 1"
testrun_compare cat "$tmp/err" <<EOF
kallmodsyms: "zzz": no such symbol
kallmodsyms: "0x10": not in any symbol
EOF
testrun_compare cat "$tmp/out" <<EOF
liquid_probe+0x0/$(size_of liquid_probe) [liquid] [liquid_vf]
EOF

# Past the image's end no symbol holds an address: kallsyms resolves
# nothing there and %pS prints it raw.  The last symbol, _end as on a
# kernel, has no size; so neither it nor anything beyond has a symbol.
objcopy --add-symbol _end=.bss:0x4,global "$fx/vmlinux" "$tmp/end" ||
	fail "objcopy"
count=$(addr_of ext9_count)
past=$(plus "$count" 0x1004)
testrun_compare kms lookup -t "$tmp/fx.kms" "$tmp/end" "$(plus "$count" 3)" <<EOF
ext9_count+0x3/0x4
EOF
testrun_error 1 "kallmodsyms: \"$(plus "$count" 4)\": not in any symbol" \
	kms lookup -t "$tmp/fx.kms" "$tmp/end" "$(plus "$count" 4)"
testrun_error 1 "kallmodsyms: \"$past\": not in any symbol" \
	kms lookup -t "$tmp/fx.kms" "$tmp/end" "$past"
testrun_error 1 'kallmodsyms: "_end+0x1000": offset past the end of the symbol' \
	kms lookup -t "$tmp/fx.kms" "$tmp/end" _end+0x1000
printf ' [<%s>] x\n' "$past" > "$tmp/trace"
kms decode -t "$tmp/fx.kms" "$tmp/end" < "$tmp/trace" > "$tmp/decoded" ||
	fail "decode"
testrun_compare cat "$tmp/decoded" <<EOF
 [<$past>] x
EOF

finish
