# SPDX-License-Identifier: GPL-2.0
"""capture FILE COMMAND: run a gdb COMMAND for a test; its output goes to
FILE, its error message (if any) to FILE.err, its wall time to FILE.time."""

import time

import gdb


class Capture(gdb.Command):
    def __init__(self):
        super().__init__("capture", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        path, _, command = arg.strip().partition(" ")
        start = time.monotonic()
        out, err = "", ""
        try:
            out = gdb.execute(command, to_string=True)
        except gdb.error as e:
            err = "%s\n" % e
        elapsed = time.monotonic() - start
        for suffix, text in (("", out), (".err", err),
                             (".time", "%.3f\n" % elapsed)):
            with open(path + suffix, "w") as f:
                f.write(text)


Capture()
