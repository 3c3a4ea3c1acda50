# SPDX-License-Identifier: GPL-2.0
"""gdb helpers for kallmodsyms (see ../kallmodsyms.py).

blob      the note format (sidecar/FORMAT.md): pure Python, no gdb
kallsyms  the kernel's compressed symbol tables, read through a reader
elf       just enough ELF to read a vmlinux file's notes and bytes
target    the stopped kernel: memory, KASLR offset, where the tables are
commands  the gdb commands, convenience function and frame filter
"""
