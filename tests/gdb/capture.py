# SPDX-License-Identifier: GPL-2.0
"""capture FILE COMMAND: run a gdb COMMAND for a test; its output goes to
FILE, its error message (if any) to FILE.err, its wall time to FILE.time.
kill-guest: kill the guest behind QEMU's gdbstub, which ends QEMU."""

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


class KillGuest(gdb.Command):
    """QEMU exits as it answers "kill", and may close the gdbstub's socket
    before gdb has read the end of the exchange: gdb then reports the
    connection broken, which here is the guest gone as asked (the test
    checks that QEMU stopped), not an error.  Any other error is one."""

    def __init__(self):
        super().__init__("kill-guest", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        try:
            gdb.execute("kill")
        except gdb.error as e:
            if "Remote communication error" not in str(e):
                raise


Capture()
KillGuest()
