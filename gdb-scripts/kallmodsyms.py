# SPDX-License-Identifier: GPL-2.0
#
# gdb helpers for kernels built with the kallmodsyms tables:
#
#   source gdb-scripts/kallmodsyms.py
#
# or let gdb load it next to vmlinux (see gdb-scripts/README.md).  Works
# beside the kernel's own scripts/gdb (vmlinux-gdb.py); help lx-kallmodsyms.
# From a checkout, run make first: it writes kallmodsyms_gdb/constants.py.

import importlib
import os
import sys

import gdb


def _load():
    here = os.path.dirname(os.path.realpath(__file__))
    if not os.path.exists(os.path.join(here, "kallmodsyms_gdb",
                                       "constants.py")):
        gdb.write("kallmodsyms: %s/kallmodsyms_gdb/constants.py is missing: "
                  "run make in the kallmodsyms checkout first\n" % here,
                  gdb.STDERR)
        return
    if here not in sys.path:
        sys.path.insert(0, here)
    # Imported, or reloaded when the script is sourced again (after
    # editing it), dependencies first.
    for name in ("constants", "blob", "elf", "kallsyms", "symspec", "target",
                 "commands"):
        module = importlib.import_module("kallmodsyms_gdb." + name)
        importlib.reload(module)
    module.register()


_load()
