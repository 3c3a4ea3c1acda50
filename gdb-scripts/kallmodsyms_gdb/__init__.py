# SPDX-License-Identifier: GPL-2.0
"""gdb helpers for kallmodsyms (see ../kallmodsyms-gdb.py); the decoder they
use is the kallmodsyms package in ../../python, shared with drgn-scripts/.

target    the stopped kernel: memory, KASLR offset, where the tables are
commands  the gdb commands, convenience function and frame filter
"""
