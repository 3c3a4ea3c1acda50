#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# The inspector's commands on the synthetic tree: find, ambiguous, modules,
# stats, dump, list filters, lookup by symbol+offset, batch lookups, KASLR,
# and --json.  Addresses and sizes, which the compiler decides, are
# replaced by ADDR and SIZE.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fixture_tables
norm() { sed -E 's/\b(0x)?ffffffff8[0-9a-f]{7}\b/ADDR/g; s#/0x[0-9a-f]+#/SIZE#g'; }
run() { kms "$@" -t fx.kms "$v"; }

testrun_compare sh -c "$(declare -f norm); $KMS_WRAP $KMS_BUILD/kallmodsyms find -t fx.kms $v event_show ext9_helper | norm" <<'EOF'
ADDR t event_show/SIZE	{core.o}	sympos=1
ADDR t event_show/SIZE	[mod_a]	sympos=2
ADDR t event_show/SIZE	[mod_b]	sympos=3
ADDR t event_show/SIZE	{sort.o}	sympos=4
ADDR t ext9_helper/SIZE	[ext9] {inode.o}	sympos=1
ADDR t ext9_helper/SIZE	[ext9] {super.o}	sympos=2
EOF
testrun_error 1 "kallmodsyms: no_such_fn: no such symbol" \
	kms find -t fx.kms "$v" no_such_fn

kms ambiguous -t fx.kms "$v" | norm > ambiguous || fail "ambiguous"
testrun_compare cat ambiguous <<'EOF'
device_show: 2
	ADDR {sched/core.o}
	ADDR {base/core.o}
dup_fn: 2
	ADDR (core kernel)  AMBIGUOUS: same name, modules and object
	ADDR (core kernel)  AMBIGUOUS: same name, modules and object
event_show: 4
	ADDR {core.o}
	ADDR [mod_a]
	ADDR [mod_b]
	ADDR {sort.o}
ext9_helper: 2
	ADDR [ext9] {inode.o}
	ADDR [ext9] {super.o}
show: 2
	ADDR {kernel/smp.o}
	ADDR {x86/kernel/smp.o}
5 duplicated names, 12 instances, 2 still ambiguous
EOF

kms modules -t fx.kms "$v" | norm | sed -E 's/^\[([a-z0-9_]+)\] 0x[0-9a-f]+ bytes/[\1] N bytes/' > modules ||
	fail "modules"
testrun_compare cat modules <<'EOF'
[ext9] N bytes in 4 ranges
	ADDR-ADDR text [ext9] {inode.o}
	ADDR-ADDR text [ext9] {inode.o}
	ADDR-ADDR text [ext9] {super.o}
	ADDR-ADDR init-text [ext9] {inode.o}
[liquid] N bytes in 2 ranges
	ADDR-ADDR text [liquid] [liquid_vf]
	ADDR-ADDR text [liquid]
[liquid_vf] N bytes in 2 ranges
	ADDR-ADDR text [liquid] [liquid_vf]
	ADDR-ADDR text [liquid_vf]
[mod_a] N bytes in 1 ranges
	ADDR-ADDR text [mod_a]
[mod_b] N bytes in 1 ranges
	ADDR-ADDR text [mod_b]
EOF

# With every class, a module's variables too (ext9_count, in .bss), each
# range with its class.
kms_gen -q --all-classes -f sidecar -o all.kms "$v" || fail "generate --all-classes"
kms modules -t all.kms "$v" | norm | sed -E 's/^\[([a-z0-9_]+)\] 0x[0-9a-f]+ bytes/[\1] N bytes/' |
	sed -n '/^\[ext9\]/,/^\[liquid\]/{/^\[liquid\]/!p}' > modules-all ||
	fail "modules (every class)"
testrun_compare cat modules-all <<'EOF'
[ext9] N bytes in 6 ranges
	ADDR-ADDR text [ext9] {inode.o}
	ADDR-ADDR text [ext9] {inode.o}
	ADDR-ADDR text [ext9] {super.o}
	ADDR-ADDR init-text [ext9] {inode.o}
	ADDR-ADDR data [ext9] {super.o}
	ADDR-ADDR bss [ext9] {inode.o}
EOF

# Counts that do not depend on the compiler: the classes' bytes do.
kms stats -t fx.kms "$v" | grep -vE '^(text bytes|note bytes|of which the (init )?paths)' |
	sed -E '/^class /,$ s/ +[0-9]+$/ N/' > stats || fail "stats"
testrun_compare cat stats <<'EOF'
symbols                      40
text symbols                 34
annotated text symbols       24
data symbols                 6
annotated data symbols       0
sections                     2
ranges                       17
object entries               13
object entries with a name   8
multi-module object entries  1
built-in modules             5
of which padding             0
image bytes (uncompressed)   452
pieces of code with paths    17
object paths                 16
paths bytes (uncompressed)   350
pieces of init code with paths 1
object paths of init code    1
init paths bytes (uncompressed) 35
string bytes                 119

class            sections   ranges        bytes
text                    1       16 N
init-text               1        1 N
EOF
# With every class, the module's variables are annotated too.
kms stats -t all.kms "$v" | sed -E -n '/^(data symbols|annotated data)/p
	/^class /,$ { s/ +[0-9]+$/ N/; p; }' > stats || fail "stats (every class)"
testrun_compare cat stats <<'EOF'
data symbols                 6
annotated data symbols       3
class            sections   ranges        bytes
text                    1       16 N
init-text               1        1 N
data                    1        3 N
bss                     1        1 N
EOF
kms dump -t fx.kms "$v" | sed -n '/^module lists/,$p' > dump || fail "dump"
testrun_compare cat dump <<'EOF'
module lists (word: names):
	0: ext9
	2: mod_a
	4: mod_b
	6: liquid liquid_vf
	9: liquid
	11: liquid_vf
EOF

# list filters.
kms list -t fx.kms "$v" --module liquid_vf | cut -d' ' -f2- > filtered || fail "list --module"
testrun_compare cat filtered <<'EOF'
t liquid_probe	[liquid] [liquid_vf]
T liquid_common_init	[liquid] [liquid_vf]
T liquid_vf_init	[liquid_vf]
EOF
kms list -t fx.kms "$v" --objfile super.o | cut -d' ' -f2- > filtered || fail "list --objfile"
testrun_compare cat filtered <<'EOF'
t ext9_helper	[ext9] {super.o}
W arch_ext9_hook	[ext9] {super.o}
t ext9_fill_super.constprop.0	[ext9] {super.o}
EOF

# lookup by symbol+offset: the qualifiers pick the instance; the answer
# starts with its address.
a_super=$(nm "$v" | awk '$3 == "ext9_helper"' | sort | sed -n 2p | cut -d' ' -f1)
kms lookup -t fx.kms "$v" 'ext9_helper+0x1 [ext9] {super.o}' > out || fail "lookup ext9_helper+0x1"
testrun_compare sh -c "cut -d' ' -f1 out" <<EOF
$(printf '%016x' $((0x$a_super + 1)))
EOF
cut -d' ' -f2- out | norm > out.n
testrun_compare cat out.n <<'EOF'
ext9_helper+0x1/SIZE [ext9] {super.o}
EOF
kms lookup -t fx.kms "$v" event_show+0x2 > out 2> err && fail "ambiguous lookup exited 0"
[ -s out ] && fail "ambiguous lookup wrote to stdout"
norm < err > err.n
testrun_compare cat err.n <<'EOF'
kallmodsyms: "event_show+0x2": 4 instances of event_show; pick one by sympos (event_show,N), [module] {objfile}, mod:, obj.o: or file.c::
	ADDR t event_show	{core.o}	sympos=1
	ADDR t event_show	[mod_a]	sympos=2
	ADDR t event_show	[mod_b]	sympos=3
	ADDR t event_show	{sort.o}	sympos=4
EOF
lookup_error 'event_show+0x2 [ext9]' 'no instance of the symbol has these qualifiers'
lookup_error 'event_show+0x100 [mod_a]' 'offset past the end of the symbol'
lookup_error '0xffffffff81000000 [mod_a]' '[module] {objfile} qualify a symbol name, not an address'

# Batch from stdin: bad lines are reported with their number, the rest
# answered, exit 1.
a_mod_b=$(nm "$v" | awk '$3 == "event_show"' | sort | sed -n 3p | cut -d' ' -f1)
status=0
printf '%s\nzzz\n\nevent_show+0x1 [mod_b]\n' "$a_mod_b" |
	kms lookup -t fx.kms "$v" - > out 2> err || status=$?
[ "$status" = 1 ] || fail "batch lookup with a bad line exited $status"
testrun_compare cat err <<'EOF'
kallmodsyms: stdin:2: "zzz": no such symbol
EOF
norm < out > out.n
testrun_compare cat out.n <<'EOF'
event_show+0x0/SIZE [mod_b]
ADDR event_show+0x1/SIZE [mod_b]
EOF

# KASLR: addresses of a kernel moved by 0x1000000, given or read from a
# copy of its /proc/kallsyms.
moved=$(printf '%x' $((0x$a_mod_b + 0x1000000)))
testrun_compare sh -c "kms() { $KMS_WRAP $KMS_BUILD/kallmodsyms \"\$@\"; }; $(declare -f norm); kms lookup -t fx.kms $v --kaslr-offset 0x1000000 $moved | norm" <<'EOF'
event_show+0x0/SIZE [mod_b]
EOF
text=$(nm "$v" | awk '$3 == "_text" { print $1 }')
printf '%x T _text\n' $((0x$text + 0x1000000)) > kallsyms-copy
testrun_compare sh -c "$KMS_WRAP $KMS_BUILD/kallmodsyms lookup -t fx.kms $v --kallsyms kallsyms-copy $moved | sed -E 's#/0x[0-9a-f]+#/SIZE#'" <<'EOF'
event_show+0x0/SIZE [mod_b]
EOF
echo "0000000000000000 T _text" > kallsyms-user
testrun_error 1 "kallmodsyms: kallsyms-user: _text reads as 0: the copy was made without the right to see addresses" \
	kms lookup -t fx.kms "$v" --kallsyms kallsyms-user "$moved"
testrun_error 1 "kallmodsyms: \"$a_mod_b\": below the KASLR offset" \
	kms lookup -t fx.kms "$v" --kaslr-offset 0xffffffffff000000 "$a_mod_b"

# JSON: valid, addresses as hex strings.
for cmd in list ambiguous modules stats dump "find event_show" "lookup $a_mod_b"; do
	args=
	[ "${cmd#* }" = "$cmd" ] || args=${cmd#* }
	# shellcheck disable=SC2086
	kms ${cmd%% *} --json -t fx.kms "$v" $args > out.json ||
		fail "$cmd --json"
	python3 -m json.tool out.json > /dev/null || fail "$cmd --json is not JSON"
done
kms lookup --json -t fx.kms "$v" "$a_mod_b" > out.json
testrun_compare python3 -c '
import json, sys
r = json.load(open("out.json"))["results"][0]
print(r["symbol"], r["offset"], r["modules"], r["objfile"], r["address"] == "0x'"$a_mod_b"'")' <<'EOF'
event_show 0x0 ['mod_b'] None True
EOF

# decode: call traces get [module] {objfile} where the name and size pick
# one instance, and file:line from the fixture's DWARF; a loadable
# module's symbol and an instance that the size cannot pick are left alone;
# raw addresses are named.
s_inode=$(nm -S "$v" | awk '$4 == "ext9_helper"' | sort | sed -n 1p)
a_inode=${s_inode%% *}
size_inode=$(kms find -t fx.kms "$v" ext9_helper | sed -n 1p | sed -E 's#.*/(0x[0-9a-f]+).*#\1#')
size_probe=$(kms find -t fx.kms "$v" liquid_probe | sed -E 's#.*/(0x[0-9a-f]+).*#\1#')
size_event=$(kms find -t fx.kms "$v" event_show | sed -n 1p | sed -E 's#.*/(0x[0-9a-f]+).*#\1#')
cat > oops <<EOF
WARNING: CPU: 0 PID: 1 at fs/ext9/inode.c:12 ext9_helper+0x2/$size_inode
RIP: 0010:ext9_helper+0x2/$size_inode
Call Trace:
 <TASK>
 liquid_probe+0x1/$size_probe
 event_show+0x1/$size_event
 foo+0x1/0x2 [ext4]
 [<$a_inode>] x
 </TASK>
EOF
kms decode -t fx.kms "$v" < oops > decoded 2>&1 || fail "decode"
testrun_compare cat decoded <<EOF
WARNING: CPU: 0 PID: 1 at fs/ext9/inode.c:12 ext9_helper+0x2/$size_inode [ext9] {inode.o} fs/ext9/inode.c:6
RIP: 0010:ext9_helper+0x2/$size_inode [ext9] {inode.o} fs/ext9/inode.c:6
Call Trace:
 <TASK>
 liquid_probe+0x1/$size_probe [liquid] [liquid_vf] drivers/net/liquid/common.c:4
 event_show+0x1/$size_event
 foo+0x1/0x2 [ext4]
 [<$a_inode>] ext9_helper+0x0/$size_inode [ext9] {inode.o} fs/ext9/inode.c:6 x
 </TASK>
EOF

# verify: the tables agree with the image, and with the build; tables
# made from other inputs do not.
testrun_compare kms verify -t fx.kms "$v" <<'EOF'
agree: 17 ranges; 0 symbols compared with the build
EOF
testrun_compare kms verify -t fx.kms -b "$fx" "$v" <<'EOF'
agree: 17 ranges, 40 symbols compared with the build
EOF
grep -v liquid_vf "$fx/modules.builtin" > other.builtin
kms verify -t fx.kms -b "$fx" --builtin other.builtin "$v" > out
[ $? = 1 ] || fail "verify against other inputs must exit 1"
testrun_compare sh -c "cut -d' ' -f2- out" <<'EOF'
liquid_probe: the tables say [liquid] [liquid_vf], the build says [liquid]
liquid_common_init: the tables say [liquid] [liquid_vf], the build says [liquid]
liquid_vf_init: the tables say [liquid_vf], the build says (core)
EOF

# Each command has its own --help.
for c in list lookup find ambiguous modules stats dump verify decode export probe; do
	kms "$c" --help > help || fail "$c --help"
	head -n 1 help | grep -q "^usage: kallmodsyms $c " || fail "$c --help: $(head -n 1 help)"
done

# Usage errors exit 2.
testrun_error 2 'kallmodsyms: unknown command "frob"; see kallmodsyms --help' kms frob "$v"
testrun_error 2 "kallmodsyms: stats does not take some of these options; see kallmodsyms --help" \
	kms stats --module ext9 "$v"
testrun_error 2 "kallmodsyms: --kaslr-offset: \"zz\" is not a number" \
	kms lookup --kaslr-offset zz "$v" 0
testrun_error 2 "usage: kallmodsyms find [options] VMLINUX SPEC..." kms find "$v"

finish
