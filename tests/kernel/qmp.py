#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""qmp.py SOCKET dump FILE [paging|kdump-zlib]: QEMU's dump-guest-memory,
through the QMP socket of a running QEMU, of the whole guest: physical
memory as kdump writes it (ELF), the guest's virtual mappings too
(paging), or makedumpfile's flattened compressed format (kdump-zlib).  The
guest's CPUs stay as they were.  Exits 1 with QEMU's error on stderr."""

import json
import socket
import sys


def command(f, execute, **arguments):
    msg = {"execute": execute}
    if arguments:
        msg["arguments"] = arguments
    f.write(json.dumps(msg) + "\n")
    f.flush()
    while True:
        reply = json.loads(f.readline())
        if "return" in reply:
            return reply["return"]
        if "error" in reply:
            raise RuntimeError(reply["error"].get("desc", str(reply)))
        # An event (STOP, RESUME, DUMP_COMPLETED...): not the reply.


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[2] != "dump":
        sys.exit("usage: qmp.py SOCKET dump FILE [paging|kdump-zlib]")
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(240)
    sock.connect(sys.argv[1])
    f = sock.makefile("rw")
    json.loads(f.readline())  # the greeting
    command(f, "qmp_capabilities")
    args = {"paging": False, "protocol": "file:" + sys.argv[3]}
    if len(sys.argv) == 5 and sys.argv[4] == "paging":
        args["paging"] = True
    elif len(sys.argv) == 5:
        args["format"] = sys.argv[4]
    try:
        command(f, "dump-guest-memory", **args)
    except RuntimeError as e:
        sys.exit("qmp.py: dump-guest-memory: %s" % e)


main()
