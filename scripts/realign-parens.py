#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep continuation lines aligned with their open parenthesis across a
rename that lengthens names.

usage: realign-parens.py ORIGINAL < RENAMED > OUTPUT

RENAMED is ORIGINAL with some names replaced, line for line (what
scripts/export-kernel-gen.sh's sed makes of a C file).  A line inside an
unclosed parenthesis that ORIGINAL indents to one column past that
parenthesis (the kernel's alignment) is indented in OUTPUT to one column
past where the parenthesis is in RENAMED, with tabs of 8 columns, then
spaces.  Other lines are copied as they are.  Parentheses in strings,
character literals and comments are not counted.  A RENAMED whose lines or
parentheses are not ORIGINAL's is refused (exit 1): the rename must only
change names.
"""

import sys

TAB = 8


def advance(col, ch):
    """The column after CH at COL, a tab to the next multiple of TAB."""
    return (col // TAB + 1) * TAB if ch == '\t' else col + 1


def width(text):
    """The column after TEXT."""
    col = 0
    for ch in text:
        col = advance(col, ch)
    return col


def parens(line, in_comment):
    """The parentheses of LINE outside strings, character literals and
    comments, as (char, column), and whether a comment is still open at
    its end (IN_COMMENT: one was open at its start)."""
    found, col, i, quote = [], 0, 0, None
    while i < len(line):
        ch, two = line[i], line[i:i + 2]
        step = 1
        if in_comment:
            if two == '*/':
                in_comment, step = False, 2
        elif quote:
            if ch == '\\':
                step = 2
            elif ch == quote:
                quote = None
        elif two == '//':
            break
        elif two == '/*':
            in_comment, step = True, 2
        elif ch in '"\'':
            quote = ch
        elif ch in '()':
            found.append((ch, col))
        for c in line[i:i + step]:
            col = advance(col, c)
        i += step
    return found, in_comment


def realign(original, renamed):
    """RENAMED's lines, realigned as ORIGINAL's are."""
    if len(original) != len(renamed):
        # Lines split at '\n': the last is what follows the last newline.
        raise ValueError('%d lines, not %d' % (len(renamed) - 1,
                                                len(original) - 1))
    out, stack, o_comment, n_comment = [], [], False, False
    for lineno, (old, new) in enumerate(zip(original, renamed), 1):
        body = new.lstrip(' \t')
        if stack and not o_comment and body:
            o_col, n_col = stack[-1]
            indent = width(old[:len(old) - len(old.lstrip(' \t'))])
            if indent == o_col + 1 and n_col != o_col:
                new = '\t' * ((n_col + 1) // TAB) + \
                    ' ' * ((n_col + 1) % TAB) + body
        o_parens, o_comment = parens(old, o_comment)
        n_parens, n_comment = parens(new, n_comment)
        if [p for p, _ in o_parens] != [p for p, _ in n_parens]:
            raise ValueError('line %d: the parentheses differ' % lineno)
        for (p, o_col), (_, n_col) in zip(o_parens, n_parens):
            if p == '(':
                stack.append((o_col, n_col))
            elif stack:
                stack.pop()
        out.append(new)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: realign-parens.py ORIGINAL < RENAMED > OUTPUT')
    with open(sys.argv[1]) as f:
        original = f.read().split('\n')
    try:
        sys.stdout.write('\n'.join(realign(original,
                                           sys.stdin.read().split('\n'))))
    except ValueError as e:
        sys.exit('realign-parens.py: %s: %s' % (sys.argv[1], e))


if __name__ == '__main__':
    main()
