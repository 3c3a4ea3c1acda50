#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The gdb helpers' verdict on conformance corpus files (FORMAT.md 7).

usage: judge.py GDB_SCRIPTS_DIR {zstandard|program} [-v] FILE...

Each FILE is read as the helpers read a note section (blob.find_note, then
blob.decode with the decompressor forced, then blob.Tables) and one line is
printed, as kms-judge prints it for the C library.  The class of a refusal
is the reason blob.py gives it, where it refuses.
"""

import os
import sys


def main():
    sys.path.insert(0, sys.argv[1])
    from kallmodsyms import blob

    decompressor = sys.argv[2]
    files = sys.argv[3:]
    verbose = files[:1] == ["-v"]
    if verbose:
        files = files[1:]
    for path in files:
        name = os.path.basename(path)
        if name.endswith(".kms"):
            name = name[:-4]
        with open(path, "rb") as f:
            data = f.read()
        try:
            t = blob.Tables(blob.decode(blob.find_note(data), decompressor))
        except blob.KmsError as e:
            line = "%s refuse %s" % (name, e.reason or "unclassified")
            print(line + ("\t%s" % e if verbose else ""))
            continue
        print("%s accept sections=%u ranges=%u attributions=%u modules=%u "
              "modlist-words=%u strtab=%u image=%u"
              % (name, len(t.sections), len(t.starts), len(t.objects),
                 t.nr_modules, t.nr_modlist_words, t.strtab_size,
                 t.image_size))


main()
