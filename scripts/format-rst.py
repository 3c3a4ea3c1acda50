#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the kernel's copy of the note format, reStructuredText, on stdout.

sidecar/FORMAT.md is the one home of the format.  Each series carries
Documentation/kbuild/kallmodsyms-format.rst, which is this script's
output from it: the format only.  Blocks of FORMAT.md between
"<!-- project -->" and "<!-- /project -->" (the tools' file names, the
conformance corpus, history) are left out, and so is everything from
"<!-- kernel copy ends -->" on.  scripts/lint holds each series' copy
to this output and has docutils check that it is valid reST.

Only the Markdown FORMAT.md uses is understood: ATX headings (#, ##,
###), paragraphs, "- " lists, pipe tables, indented literal blocks,
`code`, *emphasis* and **strong**.  Anything else is an error, so that
the copy never silently differs from what the Markdown says.

usage: scripts/format-rst.py sidecar/FORMAT.md > kallmodsyms-format.rst
"""
import re
import sys

# reST inline markup must start after white space or one of these, and
# end before white space or one of those (docutils' inline markup
# recognition rules); elsewhere an escaped space joins it to the word.
BEFORE_OK = set(" \n-:/'\"<([{")
AFTER_OK = set(" \n-.,:;!?\\/'\")]}>")
INLINE = re.compile(r'`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*')


def die(path, n, msg):
    sys.exit(f"format-rst: {path}:{n}: {msg}")


def inline(text):
    """Markdown inline markup to reST: `x` becomes ``x``."""
    out, pos = [], 0
    for m in INLINE.finditer(text):
        tok = m.group(0)
        if tok.startswith('`'):
            tok = '`' + tok + '`'
        lead = text[pos:m.start()]
        if lead and lead[-1] not in BEFORE_OK:
            lead += '\\ '
        out.append(lead + tok)
        pos = m.end()
        if pos < len(text) and text[pos] not in AFTER_OK:
            out.append('\\ ')
    out.append(text[pos:])
    return ''.join(out)


def heading(level, title):
    title = inline(title)
    bar = ('=' if level < 3 else '-') * len(title)
    return [bar, title, bar, ''] if level == 1 else [title, bar, '']


def cells(line):
    return [c.strip() for c in line.strip().strip('|').split('|')]


def table(rows):
    out = ['.. list-table::', '   :header-rows: 1', '']
    for row in [rows[0]] + rows[2:]:
        for i, cell in enumerate(cells(row)):
            out.append(('   * - ' if i == 0 else '     - ') + inline(cell))
    return out + ['']


def literal(out, block):
    """An indented block: reST wants "::" before it."""
    while out and out[-1] == '':
        out.pop()
    if out and out[-1].endswith(':') and not out[-1].endswith('::'):
        out[-1] += ':'
    else:
        out += ['', '::']
    return out + [''] + ['   ' + b[4:] if b else '' for b in block] + ['']


def kept_lines(path, lines):
    """FORMAT.md without its project blocks, up to the kernel copy's end."""
    skip = False
    for n, line in enumerate(lines, 1):
        tag = line.strip()
        if tag == '<!-- kernel copy ends -->':
            if skip:
                die(path, n, 'the copy ends inside a project block')
            return
        if tag == '<!-- project -->':
            if skip:
                die(path, n, 'nested project block')
            skip = True
        elif tag == '<!-- /project -->':
            if not skip:
                die(path, n, 'project block end without a start')
            skip = False
        elif tag.startswith('<!--') or '```' in line:
            die(path, n, 'markup this script does not convert')
        elif not skip:
            yield n, line
    die(path, len(lines), 'no "<!-- kernel copy ends -->" line')


def convert(path, lines):
    out = ['.. SPDX-License-Identifier: GPL-2.0', '']
    src = list(kept_lines(path, lines))
    i = 0
    while i < len(src):
        n, line = src[i]
        m = re.match(r'(#{1,3}) (.*)', line)
        if m:
            out += heading(len(m.group(1)), m.group(2))
            i += 1
        elif line.startswith('|'):
            j = i
            while j < len(src) and src[j][1].startswith('|'):
                j += 1
            if j - i < 2 or not re.match(r'\|(-+\|)+$', src[i + 1][1]):
                die(path, n, 'a table needs a header row and a |---| row')
            out += table([r for _, r in src[i:j]])
            i = j
        elif line.startswith('    ') and (not out or out[-1] == ''):
            j = i
            while j < len(src) and (src[j][1].startswith('    ') or
                                    src[j][1] == ''):
                j += 1
            block = [r for _, r in src[i:j]]
            while block and block[-1] == '':
                block.pop()
            out = literal(out, block)
            i = i + len(block)
        elif line == '':
            if out and out[-1] != '':
                out.append('')
            i += 1
        else:
            j = i
            while j < len(src) and src[j][1] != '' and not (
                    src[j][1].startswith(('#', '|'))):
                j += 1
            # A paragraph at once: Markdown's `code` may span lines.
            out += inline('\n'.join(r for _, r in src[i:j])).split('\n')
            i = j
    while out and out[-1] == '':
        out.pop()
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: format-rst.py FORMAT.md')
    path = sys.argv[1]
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.exit(f'format-rst: {path}: {e.strerror}')
    sys.stdout.write(convert(path, lines))


if __name__ == '__main__':
    main()
