#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# scripts/realign-parens.py, which keeps kbuild's copy of the generator
# aligned as the kernel aligns after its rename (kms_ to kallmod_, four
# columns longer): a line aligned one column past an open parenthesis
# moves with it, to the innermost one; parentheses in strings, character
# literals and comments do not count; other lines stay as they are; a
# rename that changes the lines or the parentheses is refused.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

realign=$top/scripts/realign-parens.py

# The column (from 0, tabs of 8) of line N's first character in FILE.
indent_of() {
	expand "$1" | awk -v n="$2" 'NR == n { match($0, /[^ ]/); print RSTART - 1 }'
}

# The column just past TEXT's last character on line N of FILE.
past() {
	expand "$1" | awk -v n="$2" -v t="$3" 'NR == n { print index($0, t) - 1 + length(t) }'
}

# expect_aligned FILE N TEXT: line N + 1 starts one column past TEXT's
# last character (an open parenthesis) on line N.
expect_aligned() {
	local want got
	want=$(past "$1" "$2" "$3")
	got=$(indent_of "$1" $(($2 + 1)))
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		fail "line $(($2 + 1)) starts at column $got, not $want (past '$3' on line $2)"
}

# The source, aligned as the kernel aligns, and its rename.
tab=$(printf '\t')
cat > "$tmp/src.c" <<EOF
static int kms_f(int a,
${tab}${tab} int b)
{
${tab}x = kms_g(a, ")(", /* ( */ ')',
${tab}${tab}  b);
${tab}y = kms_h(kms_i(a,
${tab}${tab}${tab}b), c,
${tab}${tab}  d);
${tab}z = kms_j(a,
${tab}${tab}${tab}b);
/* kms_k(a,
 *       b) in a comment */
}
EOF
sed 's/\bkms_/kallmod_/g' "$tmp/src.c" > "$tmp/renamed.c"
# The source is aligned where the checks below say so.
expect_aligned "$tmp/src.c" 1 'kms_f('
expect_aligned "$tmp/src.c" 4 'kms_g('
expect_aligned "$tmp/src.c" 6 'kms_i('

"$realign" "$tmp/src.c" < "$tmp/renamed.c" > "$tmp/out.c" ||
	fail "realign-parens.py on the renamed source"
[ "$(wc -l < "$tmp/out.c")" = "$(wc -l < "$tmp/src.c")" ] ||
	fail "the lines are not the source's"
expect_aligned "$tmp/out.c" 1 'kallmod_f('
# ")(" in a string, "(" in a comment, '(' a character: none counts.
expect_aligned "$tmp/out.c" 4 'kallmod_g('
# The innermost open parenthesis, then the outer one again.
expect_aligned "$tmp/out.c" 6 'kallmod_i('
[ "$(indent_of "$tmp/out.c" 8)" = "$(past "$tmp/out.c" 6 'kallmod_h(')" ] ||
	fail "line 8 is not aligned with kallmod_h( once kallmod_i( closes"
# Not aligned in the source (one tab more), a comment's lines: unchanged.
for n in 10 12; do
	[ "$(sed -n "${n}p" "$tmp/out.c")" = "$(sed -n "${n}p" "$tmp/renamed.c")" ] ||
		fail "line $n changed: $(sed -n "${n}p" "$tmp/out.c")"
done
# Only the indentation changes.
diff <(sed 's/^[[:space:]]*//' "$tmp/out.c") \
	<(sed 's/^[[:space:]]*//' "$tmp/renamed.c") > /dev/null ||
	fail "realign-parens.py changed more than indentation"

# A rename must leave the lines and the parentheses as they are.
sed 's/kallmod_g(a,/kallmod_g((a),/' "$tmp/renamed.c" |
	run_failing 1 '' "$realign" "$tmp/src.c" &&
	{ grep -q 'src.c: line 4: the parentheses differ' "$tmp/stderr" ||
		fail "the refusal does not name line 4: $(cat "$tmp/stderr")"; }
head -n 5 "$tmp/renamed.c" | run_failing 1 '' "$realign" "$tmp/src.c" &&
	{ grep -q 'src.c: 5 lines, not 13' "$tmp/stderr" ||
		fail "the refusal does not count the lines: $(cat "$tmp/stderr")"; }
finish
