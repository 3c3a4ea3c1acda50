# SPDX-License-Identifier: GPL-2.0
#
# gdb helpers for kernels built with the kallmodsyms tables:
#
#   source gdb-scripts/kallmodsyms-gdb.py
#
# or let gdb load it next to vmlinux (see gdb-scripts/README.md).  Works
# beside the kernel's own scripts/gdb (vmlinux-gdb.py); help lx-kallmodsyms.
# From a checkout, run make first: it writes
# python/kallmodsyms/constants.py.

import importlib
import os
import sys

import gdb


def _load():
    here = os.path.dirname(os.path.realpath(__file__))
    # The decoder the gdb and drgn helpers share, in ../python (in a
    # checkout, and installed by make install); the Debian package puts
    # it where python3 finds it (dist-packages), and ../python is absent.
    shared = os.path.join(os.path.dirname(here), "python")
    paths = [here]
    if os.path.isdir(os.path.join(shared, "kallmodsyms")):
        if not os.path.exists(os.path.join(shared, "kallmodsyms",
                                           "constants.py")):
            gdb.write("kallmodsyms: %s/kallmodsyms/constants.py is "
                      "missing: run make in the kallmodsyms checkout "
                      "first\n" % shared, gdb.STDERR)
            return
        paths.append(shared)
    # Both first on the path, so that these copies are imported and not
    # another installed kallmodsyms.  Their order does not matter: this
    # script is named as gdb's OBJFILE-gdb.py scripts are, a name Python
    # cannot import, so it shadows neither package.
    for d in paths:
        if d in sys.path:
            sys.path.remove(d)
        sys.path.insert(0, d)
    # Imported, or reloaded when the script is sourced again (after
    # editing it), dependencies first.
    for name in ("kallmodsyms.constants", "kallmodsyms.errors",
                 "kallmodsyms.paths", "kallmodsyms.blob",
                 "kallmodsyms.elf", "kallmodsyms.kallsyms",
                 "kallmodsyms.symspec", "kallmodsyms.image",
                 "kallmodsyms_gdb.target", "kallmodsyms_gdb.commands"):
        module = importlib.import_module(name)
        importlib.reload(module)
    module.register()


_load()
