#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a synthetic kernel build tree for kallmodsyms-gen, scaled by F.

    bench/synth-build.py [-s SEED] [-F FACTOR] DIR

F=1 is about an x86-64 defconfig of Linux 6.12: ~2800 object files with
text, ~340 built-in modules (most of one object, some composites of many,
one object shared by two modules), ~63,000 functions of which ~1.4% carry a
static name that other objects use too (type_show, init_once, ...), plus
data symbols.  Everything grows with F; the pool of duplicated static names
does not, so a name like type_show is in ~18*F objects, as in an
allyesconfig-like tree.

What is written (all that kallmodsyms-gen --no-modularity and 6.12's
scripts/generate_builtin_ranges.awk read):

  vmlinux          ELF64 x86-64: NOBITS .text/.init.text/.exit.text (AX),
                   .rodata/.data/.bss, .symtab/.strtab with every symbol
  vmlinux.map      GNU ld map of the final link, whose text comes from
                   vmlinux.o (.head.text, .text, .text.unlikely, ...)
  vmlinux.o.map    GNU ld map of the relocatable link of vmlinux.o from the
                   objects, with wrapped long section names, *fill* lines,
                   global symbol lines, and non-text sections
  modules.builtin  kernel/<path>.ko lines
  <dir>/.<obj>.cmd savedcmd_ line with -DKBUILD_MODFILE, as kbuild writes

Deterministic for a given seed and F.  Prints a one-line summary on stdout:
"objects N text-objects N modules N symbols N text-symbols N map-bytes N".
"""
import argparse
import os
import random
import struct
import sys

TEXT_BASE = 0xFFFFFFFF81000000

TOP_DIRS = [
    ("kernel", 8), ("kernel/sched", 2), ("kernel/time", 2), ("kernel/trace", 3),
    ("kernel/bpf", 2), ("mm", 6), ("fs", 4), ("fs/ext4", 2), ("fs/proc", 2),
    ("fs/nfs", 2), ("net/core", 3), ("net/ipv4", 4), ("net/ipv6", 3),
    ("net/netfilter", 4), ("block", 2), ("lib", 6), ("crypto", 3),
    ("security/selinux", 2), ("arch/x86/kernel", 5), ("arch/x86/kernel/cpu", 2),
    ("arch/x86/mm", 2), ("arch/x86/events", 1), ("init", 1), ("ipc", 1),
    ("drivers/base", 3), ("drivers/pci", 3), ("drivers/acpi", 4),
    ("drivers/tty/serial", 2), ("drivers/gpu/drm", 3), ("drivers/net/ethernet", 4),
    ("drivers/usb/core", 2), ("drivers/usb/host", 2), ("drivers/input", 2),
    ("drivers/scsi", 3), ("drivers/ata", 2), ("drivers/md", 2),
    ("drivers/hid", 2), ("drivers/char", 2), ("drivers/virtio", 1),
    ("sound/core", 2), ("sound/pci/hda", 2),
]
SUBDIRS = ["core", "common", "intel", "amd", "generic", "host", "phy", "hw",
           "v2", "misc", "util", "bus", "ops", "mgmt", "pm", "dbg"]
STEMS = ["core", "main", "init", "dev", "driver", "bus", "sysfs", "debugfs",
         "proc", "ops", "util", "utils", "irq", "dma", "pm", "power", "file",
         "inode", "super", "dir", "namei", "xattr", "acl", "ioctl", "mmap",
         "table", "hash", "list", "tree", "map", "trace", "events", "stats",
         "ctl", "sock", "proto", "route", "filter", "input", "output", "queue",
         "work", "timer", "clock", "cpu", "mem", "page", "alloc", "cache",
         "lock", "sync", "crypto", "cipher", "compress", "parser", "buffer",
         "request", "reset", "phy", "link", "port", "probe", "setup", "quirks"]
WORDS = ["init", "exit", "probe", "remove", "open", "release", "read", "write",
         "ioctl", "poll", "mmap", "show", "store", "get", "put", "alloc",
         "free", "lookup", "insert", "delete", "update", "start", "stop",
         "suspend", "resume", "reset", "enable", "disable", "handler", "irq",
         "work", "timer", "flush", "sync", "map", "unmap", "attach", "detach",
         "register", "unregister", "create", "destroy", "parse", "dump",
         "check", "validate", "commit", "abort", "xmit", "rcv"]
# Static names many objects share (defconfig: 338 names, 872 symbols).
DUP_BASE = ["type_show", "jhash", "init_once", "modalias_show", "name_show",
            "event_show", "version_show", "status_show", "pfn_valid",
            "dst_output", "zero_user_segments", "uni2char", "char2uni",
            "enabled_show", "enabled_store", "size_show", "mode_show",
            "state_show", "id_show", "dev_show", "uevent", "release",
            "__list_del_entry", "_sub_I_65535_1", "_sub_D_65535_0",
            "trace_raw_output_template", "perf_trace_template",
            "trace_event_raw_event_template", "__bpf_trace_template",
            "zero_user_segments.constprop.0", "__xfrm_policy_check2.constprop.0"]
DUP_NAMES = DUP_BASE + ["%s_%s_show" % (w, v) for w in WORDS[:16]
                        for v in ("attr", "dev", "mode", "count", "flags")][:307]
# Zipf-like weights: a few names are very common.
DUP_WEIGHTS = [1.0 / (i + 1) ** 0.9 for i in range(len(DUP_NAMES))]

CFLAGS = (
    "-nostdinc -I{S}/arch/x86/include -I./arch/x86/include/generated "
    "-I{S}/include -I./include -I{S}/arch/x86/include/uapi "
    "-I./arch/x86/include/generated/uapi -I{S}/include/uapi "
    "-I./include/generated/uapi -include {S}/include/linux/compiler-version.h "
    "-include {S}/include/linux/kconfig.h -include "
    "{S}/include/linux/compiler_types.h -D__KERNEL__ -fmacro-prefix-map={S}/= "
    "-Werror -std=gnu11 -fshort-wchar -funsigned-char -fno-common -fno-PIE "
    "-fno-strict-aliasing -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx "
    "-fcf-protection=branch -fno-jump-tables -m64 -falign-jumps=1 "
    "-falign-loops=1 -mno-80387 -mno-fp-ret-in-387 -mpreferred-stack-boundary=3 "
    "-mskip-rax-setup -mtune=generic -mno-red-zone -mcmodel=kernel "
    "-Wno-sign-compare -fno-asynchronous-unwind-tables "
    "-mindirect-branch=thunk-extern -mindirect-branch-register "
    "-mindirect-branch-cs-prefix -mfunction-return=thunk-extern "
    "-fno-jump-tables -fpatchable-function-entry=16,16 "
    "-fno-delete-null-pointer-checks -O2 -fno-allow-store-data-races "
    "-fstack-protector-strong -fno-omit-frame-pointer "
    "-fno-optimize-sibling-calls -ftrivial-auto-var-init=zero "
    "-fno-stack-clash-protection -fzero-call-used-regs=used-gpr -pg "
    "-mrecord-mcount -mfentry -DCC_USING_FENTRY -falign-functions=16 "
    "-fstrict-flex-arrays=3 -fno-strict-overflow -fno-stack-check -fconserve-stack "
    "-fno-builtin-wcslen -Wall -Wextra -Wundef -Werror=implicit-function-declaration "
    "-Werror=implicit-int -Werror=return-type -Werror=strict-prototypes "
    "-Wno-format-security -Wno-trigraphs -Wno-frame-address "
    "-Wno-address-of-packed-member -Wmissing-declarations -Wmissing-prototypes "
    "-Wframe-larger-than=2048 -Wno-main -Wno-dangling-pointer -Wvla "
    "-Wno-pointer-sign -Wcast-function-type -Wno-array-bounds "
    "-Wno-alloc-size-larger-than -Wimplicit-fallthrough=5 -Werror=date-time "
    "-Werror=incompatible-pointer-types -Werror=designated-init "
    "-Wenum-conversion -Wunused -Wno-unused-but-set-variable "
    "-Wno-unused-const-variable -Wno-packed-not-aligned "
    "-Wno-format-overflow -Wno-format-truncation -Wno-stringop-overflow "
    "-Wno-stringop-truncation -Wno-override-init -Wno-missing-field-initializers "
    "-Wno-type-limits -Wno-shift-negative-value -Wno-maybe-uninitialized "
    "-Wno-sign-compare -Wno-unused-parameter -g -gdwarf-5")

# Text input sections of vmlinux.o inside the final .text, in link order,
# and the share of objects that have each.
TEXT_INPUTS = [(".head.text", 0.0), (".text", 1.0), (".text.unlikely", 0.25),
               (".noinstr.text", 0.01), (".sched.text", 0.005),
               (".spinlock.text", 0.003), (".entry.text", 0.002)]
# Output sections of their own.
OTHER_TEXT = [".init.text", ".exit.text"]


class Obj:
    __slots__ = ("path", "stem", "modfile", "modules", "secs", "funcs",
                 "datas", "idx")


def hexw(v):
    return "0x%x" % v


def in_line(name, addr, size, path):
    """An input-section line of an ld map, wrapped like ld wraps it."""
    if len(name) + 1 >= 15:
        return " %s\n                0x%016x %10s %s\n" % (name, addr, hexw(size), path)
    return " %-14s 0x%016x %10s %s\n" % (name, addr, hexw(size), path)


def out_line(name, addr, size, extra=""):
    if len(name) >= 15:
        return "%s\n                0x%016x %10s%s\n" % (name, addr, hexw(size), extra)
    return "%-15s 0x%016x %10s%s\n" % (name, addr, hexw(size), extra)


def sym_line(addr, name):
    return "                0x%016x                %s\n" % (addr, name)


def fill_line(addr, size, pattern=""):
    return " *fill*         0x%016x %10s %s\n" % (addr, hexw(size), pattern)


def make_objects(rng, F):
    n_text_objs = int(2807 * F)
    n_modules = int(340 * F)
    objs = []
    modules = []          # (modpath, [objs])
    used_paths = set()
    used_mods = set()
    dir_weights = [w for _, w in TOP_DIRS]

    def new_path(topdir, stem=None):
        while True:
            d = topdir
            if rng.random() < 0.6:
                d += "/" + rng.choice(SUBDIRS)
                if F > 1:
                    d += "%d" % rng.randrange(int(F * 4))
            s = stem or (rng.choice(STEMS) if rng.random() < 0.5
                         else "%s_%s" % (rng.choice(STEMS), rng.choice(WORDS)))
            p = "%s/%s.o" % (d, s)
            if p not in used_paths:
                used_paths.add(p)
                return p, s
            stem = None

    def new_obj(path, stem):
        o = Obj()
        o.path, o.stem, o.modules, o.idx = path, stem, [], len(objs)
        objs.append(o)
        return o

    head = new_obj("arch/x86/kernel/head_64.o", "head_64")
    used_paths.add(head.path)
    head.modfile = "arch/x86/kernel/head_64"
    modular = 0
    for m in range(n_modules):
        top = rng.choices(TOP_DIRS, dir_weights)[0][0]
        if not top.startswith(("drivers", "sound", "net", "fs", "crypto")):
            top = "drivers/misc"
        name = "%s%s" % (rng.choice(STEMS), "" if m < 60 else "_%x" % m)
        moddir = "%s/%s" % (top, name) if rng.random() < 0.5 else top
        modpath = "%s/%s" % (moddir, name)
        while name in used_mods:
            name += "x"
        modpath = "%s/%s" % (moddir, name)
        used_mods.add(name)
        k = 1 if rng.random() < 0.7 else rng.randint(2, 18)
        members = []
        for i in range(k):
            if k == 1:
                path, stem = new_path(moddir, name)
            else:
                path, stem = new_path(moddir)
            o = new_obj(path, stem)
            o.modfile = modpath
            o.modules = [modpath]
            members.append(o)
        modules.append((modpath, members))
        modular += k
    # The object two modules share (samples/kallmodsyms/shared.o), F of them.
    for i in range(max(1, int(F))):
        sfx = "" if not i else str(i)
        a = "samples/kallmodsyms%s/kms_sample_a%s" % (sfx, sfx)
        b = "samples/kallmodsyms%s/kms_sample_b%s" % (sfx, sfx)
        o = new_obj(a.rsplit("/", 1)[0] + "/shared.o", "shared")
        o.modfile = "%s %s" % (a, b)
        o.modules = [a, b]
        for mp in (a, b):
            mo = new_obj(mp + ".o", mp.rsplit("/", 1)[1])
            mo.modfile = mp
            mo.modules = [mp]
            modules.append((mp, [mo, o]))
    while len(objs) < n_text_objs:
        top = rng.choices(TOP_DIRS, dir_weights)[0][0]
        path, stem = new_path(top)
        o = new_obj(path, stem)
        o.modfile = path[:-2]
    # Link order: kbuild links by directory; shuffle by directory groups.
    rest = objs[1:]
    rest.sort(key=lambda o: (o.path.split("/")[0], rng.random()))
    objs = [head] + rest
    for i, o in enumerate(objs):
        o.idx = i
    return objs, modules


def base36(n):
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + s
        if not n:
            return s


def plan_symbols(rng, objs):
    """Give every object its functions, per section, and its data symbols."""
    for o in objs:
        modular = bool(o.modules)
        secs = [".text"]
        if o.idx == 0:
            secs = [".head.text", ".text"]
        for name, share in TEXT_INPUTS[2:]:
            if rng.random() < share:
                secs.append(name)
        if rng.random() < (0.25 if modular else 0.36):
            secs.append(".init.text")
        if modular and rng.random() < 0.2:
            secs.append(".exit.text")
        o.secs = secs
        n = int(rng.expovariate(1 / 21.5)) + 1
        tag = base36(o.idx)
        funcs = {s: [] for s in secs}
        dups = set()
        for k in range(n):
            if len(secs) == 1 or rng.random() < 0.75:
                sec = ".text" if ".text" in funcs else secs[0]
            else:
                sec = rng.choice(secs)
            if rng.random() < 0.014:
                name = rng.choices(DUP_NAMES, DUP_WEIGHTS)[0]
                if name in dups:
                    name += ".isra.%d" % k
                dups.add(name)
                glob = False
            else:
                name = "%s_%s_%s%d" % (o.stem, tag, rng.choice(WORDS), k)
                glob = rng.random() < 0.5
            size = 16 * rng.randint(1, 32) - (rng.randrange(16) if rng.random() < 0.3 else 0)
            funcs[sec].append((name, glob, size))
        if o.idx == 0:
            funcs[".head.text"] = [("startup_64", True, 0x60), ("__startup_64", True, 0x330)]
        o.funcs = funcs
        o.datas = ["%s_%s_var%d" % (o.stem, tag, k) for k in range(n // 2)]


class Symtab:
    """Locals first, then globals, as ELF wants."""

    def __init__(self):
        self.strtab = bytearray(b"\0")
        self.locals = bytearray(bytes(24))   # the null symbol
        self.globals = bytearray()
        self.n_local = 1
        self.n_global = 0

    def add(self, name, value, size, shndx, stype, glob):
        off = len(self.strtab)
        self.strtab += name.encode() + b"\0"
        info = ((1 if glob else 0) << 4) | stype
        ent = struct.pack("<IBBHQQ", off, info, 0, shndx, value, size)
        if glob:
            self.globals += ent
            self.n_global += 1
        else:
            self.locals += ent
            self.n_local += 1


def write_tree(out, F, seed):
    rng = random.Random(seed)
    objs, modules = make_objects(rng, F)
    plan_symbols(rng, objs)

    # --- vmlinux.o: lay out each output section, objects in link order ---
    o_sections = [s for s, _ in TEXT_INPUTS] + OTHER_TEXT
    layout = {}        # section -> [(obj, offset, size, [(name, glob, off, size)])]
    o_size = {}
    for sec in o_sections:
        off = 0
        entries = []
        for o in objs:
            if sec not in o.funcs:
                continue
            off = (off + 15) & ~15
            start = off
            fl = []
            for name, glob, size in o.funcs[sec]:
                off = (off + 15) & ~15
                fl.append((name, glob, off - start, size))
                off += size
            entries.append((o, start, off - start, fl))
        layout[sec] = entries
        o_size[sec] = off

    # --- the final link: where vmlinux.o's sections go ---
    final = {}
    addr = TEXT_BASE
    for sec, _ in TEXT_INPUTS:
        if not o_size[sec]:
            continue
        align = 0x1000 if sec in (".text", ".entry.text") else 16
        addr = (addr + align - 1) & ~(align - 1)
        final[sec] = addr
        addr += o_size[sec]
    text_end = (addr + 0xFFF) & ~0xFFF
    rodata = (text_end + 0x1FFFFF) & ~0x1FFFFF
    rodata_size = 0x80 * len(objs) + 0x1000
    data = (rodata + rodata_size + 0x1FFFFF) & ~0x1FFFFF
    data_size = 0x100 * len(objs) + 0x1000
    addr = (data + data_size + 0xFFF) & ~0xFFF
    final[".init.text"] = addr
    init_end = addr + o_size[".init.text"]
    addr = (init_end + 0xFFF) & ~0xFFF
    final[".exit.text"] = addr
    exit_end = addr + o_size[".exit.text"]
    bss = (exit_end + 0xFFF) & ~0xFFF
    bss_size = 0x40 * len(objs) + 0x1000

    # ELF sections: index, name, type, flags, addr, size
    SHT_NOBITS, AX, A, WA = 8, 0x6, 0x2, 0x3
    shdrs = [(".text", SHT_NOBITS, AX, TEXT_BASE, text_end - TEXT_BASE),
             (".rodata", SHT_NOBITS, A, rodata, rodata_size),
             (".data", SHT_NOBITS, WA, data, data_size),
             (".init.text", SHT_NOBITS, AX, final[".init.text"],
              max(16, o_size[".init.text"])),
             (".exit.text", SHT_NOBITS, AX, final[".exit.text"],
              max(16, o_size[".exit.text"])),
             (".bss", SHT_NOBITS, WA, bss, bss_size)]
    shndx = {s[0]: i + 1 for i, s in enumerate(shdrs)}

    # --- symbols ---
    st = Symtab()
    STT_OBJECT, STT_FUNC, STT_FILE, STT_NOTYPE = 1, 2, 4, 0
    n_text_syms = 0
    for sec, entries in layout.items():
        secbase = final[sec]
        idx = shndx[".text"] if sec in dict(TEXT_INPUTS) else shndx[sec]
        for o, start, size, fl in entries:
            for name, glob, off, fsize in fl:
                st.add(name, secbase + start + off, fsize, idx, STT_FUNC, glob)
                n_text_syms += 1
    dsec = [(".data", data, 0x100), (".rodata", rodata, 0x80), (".bss", bss, 0x40)]
    for o in objs:
        st.add(o.stem + ".c", 0, 0, 0xFFF1, STT_FILE, False)
        for k, name in enumerate(o.datas):
            s, base, per = dsec[k % 3]
            st.add(name, base + per * o.idx + 8 * (k // 3 % (per // 8)), 8,
                   shndx[s], STT_OBJECT, False)
    for name, value, sec in (("_text", TEXT_BASE, ".text"),
                             ("_stext", TEXT_BASE, ".text"),
                             ("_etext", text_end, ".text"),
                             ("__init_begin", final[".init.text"], ".init.text"),
                             ("_sinittext", final[".init.text"], ".init.text"),
                             ("_einittext", init_end, ".init.text")):
        st.add(name, value, 0, shndx[sec], STT_NOTYPE, True)
    n_symbols = st.n_local - 1 + st.n_global

    # --- write vmlinux ---
    shstr = bytearray(b"\0")
    names = {}
    for n in [s[0] for s in shdrs] + [".symtab", ".strtab", ".shstrtab"]:
        names[n] = len(shstr)
        shstr += n.encode() + b"\0"
    symtab_off = 0x1000
    symtab_size = len(st.locals) + len(st.globals)
    strtab_off = symtab_off + symtab_size
    shstr_off = strtab_off + len(st.strtab)
    sh_off = (shstr_off + len(shstr) + 7) & ~7
    nsec = 1 + len(shdrs) + 3
    with open(os.path.join(out, "vmlinux"), "wb") as f:
        ehdr = struct.pack("<16sHHIQQQIHHHHHH",
                           b"\x7fELF\x02\x01\x01" + bytes(9), 2, 62, 1,
                           0xFFFFFFFF81000000, 0, sh_off, 0, 64, 56, 0, 64,
                           nsec, nsec - 1)
        f.write(ehdr)
        f.write(bytes(symtab_off - len(ehdr)))
        f.write(st.locals)
        f.write(st.globals)
        f.write(st.strtab)
        f.write(shstr)
        f.write(bytes(sh_off - (shstr_off + len(shstr))))
        f.write(bytes(64))
        for name, typ, flags, a, size in shdrs:
            f.write(struct.pack("<IIQQQQIIQQ", names[name], typ, flags, a,
                                0x200000, size, 0, 0, 4096 if flags & 4 else 32, 0))
        f.write(struct.pack("<IIQQQQIIQQ", names[".symtab"], 2, 0, 0, symtab_off,
                            symtab_size, nsec - 2, st.n_local, 8, 24))
        f.write(struct.pack("<IIQQQQIIQQ", names[".strtab"], 3, 0, 0, strtab_off,
                            len(st.strtab), 0, 0, 1, 0))
        f.write(struct.pack("<IIQQQQIIQQ", names[".shstrtab"], 3, 0, 0, shstr_off,
                            len(shstr), 0, 0, 1, 0))

    # --- vmlinux.o.map ---
    map_bytes = 0
    with open(os.path.join(out, "vmlinux.o.map"), "w") as f:
        w = f.write
        w("\nMemory Configuration\n\nName             Origin             Length"
          "             Attributes\n*default*        0x0000000000000000 "
          "0xffffffffffffffff\n\nLinker script and memory map\n\n"
          "LOAD vmlinux.a\nSTART GROUP\nEND GROUP\n\n.interp\n *(.interp)\n\n")
        for sec in o_sections:
            if not o_size[sec]:
                continue
            w(out_line(sec, 0, o_size[sec]) + " *(%s)\n" % sec)
            pos = 0
            for o, start, size, fl in layout[sec]:
                if start > pos:
                    w(fill_line(pos, start - pos))
                w(in_line(sec, start, size, o.path))
                for name, glob, off, fsize in fl:
                    if glob:
                        w(sym_line(start + off, name))
                pos = start + size
            w("\n")
        # Non-text sections, which both readers must skip.
        for sec, per, pfx in ((".rodata", 0x80, "r"), (".data", 0x100, "d"),
                              (".bss", 0x40, "b")):
            w(out_line(sec, 0, per * len(objs)) + " *(%s)\n" % sec)
            for o in objs:
                w(in_line(sec, per * o.idx, per, o.path))
                if o.datas and sec == ".data":
                    w(sym_line(per * o.idx, o.datas[0]))
            w("\n")
        w(out_line(".rodata.str1.1", 0, 0x10 * len(objs)))
        for o in objs:
            w(in_line(".rodata.str1.1", 0x10 * o.idx, 0x10, o.path))
        w("\n.comment        0x0000000000000000       0x27\n"
          " .comment       0x0000000000000000       0x27 init/main.o\n"
          "OUTPUT(vmlinux.o elf64-x86-64)\n")
        map_bytes += f.tell()

    # --- vmlinux.map ---
    with open(os.path.join(out, "vmlinux.map"), "w") as f:
        w = f.write
        w("\nDiscarded input sections\n\n")
        w(in_line(".modinfo", 0, 0x1c987 * max(1, int(F)), "vmlinux.o"))
        w(in_line("__patchable_function_entries", 0, 0x77ca8, "vmlinux.o"))
        w("\nMemory Configuration\n\nName             Origin             Length"
          "             Attributes\n*default*        0x0000000000000000 "
          "0xffffffffffffffff\n\nLinker script and memory map\n\n")
        w("                0x%016x                . = 0x%016x\n" % (TEXT_BASE, TEXT_BASE))
        w(out_line(".text", TEXT_BASE, text_end - TEXT_BASE,
                   " load address 0x%016x" % (TEXT_BASE - 0xFFFFFFFF80000000)))
        w("                0x%016x                _text = .\n" % TEXT_BASE)
        w("                0x%016x                _stext = .\n" % TEXT_BASE)
        pos = TEXT_BASE
        for sec, _ in TEXT_INPUTS:
            w(" *(%s)\n" % sec)
            if not o_size[sec]:
                continue
            if final[sec] > pos:
                w(fill_line(pos, final[sec] - pos, "cccccccc"))
            w(in_line(sec, final[sec], o_size[sec], "vmlinux.o"))
            for o, start, size, fl in layout[sec]:
                for name, glob, off, fsize in fl:
                    if glob:
                        w(sym_line(final[sec] + start + off, name))
            pos = final[sec] + o_size[sec]
            if sec == ".text":
                w(in_line(".text", pos, 0, ".vmlinux.export.o"))
                w(in_line(".text", pos, 0, "init/version-timestamp.o"))
                w(in_line(".text", pos, 0, ".tmp_vmlinux2.kallsyms.o"))
        w("                0x%016x                _etext = .\n\n" % text_end)
        for sec, a, size in ((".rodata", rodata, rodata_size),
                             (".data", data, data_size)):
            w(out_line(sec, a, size, " load address 0x%016x" % (a - 0xFFFFFFFF80000000)))
            w(in_line(sec, a, size - 0x1000, "vmlinux.o"))
            w("\n")
        for sec, end in ((".init.text", init_end), (".exit.text", exit_end)):
            if not o_size[sec]:
                continue
            a = final[sec]
            w(out_line(sec, a, o_size[sec], " load address 0x%016x" % (a - 0xFFFFFFFF80000000)))
            if sec == ".init.text":
                w("                0x%016x                _sinittext = .\n" % a)
            w(" *(%s)\n" % sec)
            w(in_line(sec, a, o_size[sec], "vmlinux.o"))
            for o, start, size, fl in layout[sec]:
                for name, glob, off, fsize in fl:
                    if glob:
                        w(sym_line(a + start + off, name))
            w("\n")
        w(out_line(".bss", bss, bss_size, " load address 0x%016x" % (bss - 0xFFFFFFFF80000000)))
        w(in_line(".bss", bss, bss_size - 0x1000, "vmlinux.o"))
        w("\n.comment        0x0000000000000000       0x27\n"
          " .comment       0x0000000000000000       0x27 vmlinux.o\n"
          "OUTPUT(vmlinux elf64-x86-64)\n")
        map_bytes += f.tell()

    # --- modules.builtin (modules.order's order) ---
    with open(os.path.join(out, "modules.builtin"), "w") as f:
        for modpath, members in sorted(modules, key=lambda m: m[1][0].idx):
            f.write("kernel/%s.ko\n" % modpath)

    # --- .cmd files ---
    src = os.path.abspath(os.path.join(out, "source"))
    flags = CFLAGS.format(S=src)
    made = set()
    for o in objs:
        d, base = os.path.split(o.path)
        if d not in made:
            os.makedirs(os.path.join(out, d), exist_ok=True)
            made.add(d)
        stem = base[:-2]
        modname = ":".join(m.rsplit("/", 1)[1].replace("-", "_") for m in o.modules) \
            if o.modules else stem
        line = ("savedcmd_%s := gcc -Wp,-MMD,%s/.%s.d %s "
                "-DKBUILD_MODFILE='\"%s\"' -DKBUILD_BASENAME='\"%s\"' "
                "-DKBUILD_MODNAME='\"%s\"' -D__KBUILD_MODNAME=kmod_%s -c -o %s %s/%s.c\n"
                % (o.path, d, base, flags, o.modfile, stem, modname, modname,
                   o.path, src, o.path[:-2]))
        with open(os.path.join(out, d, ".%s.cmd" % base), "w") as f:
            f.write(line)
            f.write("\nsource_%s := %s/%s.c\n\ndeps_%s := \\\n"
                    "  include/linux/compiler-version.h \\\n"
                    "  include/linux/kconfig.h \\\n  include/generated/autoconf.h \\\n"
                    "  include/linux/compiler_types.h \\\n\n%s: $(deps_%s)\n\n$(deps_%s):\n"
                    % (o.path, src, o.path[:-2], o.path, o.path, o.path, o.path))

    n_text_objs = sum(1 for o in objs
                      if any(fl and any(fs for _, _, fs in fl) for fl in o.funcs.values()))
    print("objects %d text-objects %d modules %d symbols %d text-symbols %d map-bytes %d"
          % (len(objs), n_text_objs, len(modules), n_symbols, n_text_syms, map_bytes))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-F", "--factor", type=float, default=1.0)
    ap.add_argument("-s", "--seed", type=int, default=8)
    ap.add_argument("dir")
    a = ap.parse_args()
    if a.factor <= 0:
        sys.exit("synth-build.py: the factor must be positive")
    os.makedirs(a.dir, exist_ok=True)
    write_tree(a.dir, a.factor, a.seed)


if __name__ == "__main__":
    main()
