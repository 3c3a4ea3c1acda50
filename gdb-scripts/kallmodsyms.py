# SPDX-License-Identifier: GPL-2.0
#
# gdb helpers for kernels built with the kallmodsyms tables:
#
#   source gdb-scripts/kallmodsyms.py
#
# or let gdb load it next to vmlinux (see gdb-scripts/README.md).  Works
# beside the kernel's own scripts/gdb (vmlinux-gdb.py); help lx-kallmodsyms.

import os
import sys

_here = os.path.dirname(os.path.realpath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

import importlib  # noqa: E402

import kallmodsyms_gdb  # noqa: E402
from kallmodsyms_gdb import (blob, commands, elf, kallsyms,  # noqa: E402
                             target)

# Sourcing the script again (after editing it) picks up the changes.
for _module in (blob, elf, kallsyms, target, commands):
    importlib.reload(_module)

commands.register()
