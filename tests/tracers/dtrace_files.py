#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Symbol files for DTrace, and what DTrace must make of them.

  dtrace_files.py make LISTING RANGES OUTDIR
      From a /proc/kallmodsyms listing of core-kernel symbols (what
      "kallmodsyms list" prints) and its modules.builtin.ranges, write the
      files a booted kernel would show, each layout in its own directory:
        x86/    per-CPU "A" lines first (x86-64, CONFIG_KALLSYMS_ALL)
        arm64/  text first (arm64; x86-64 without KALLSYMS_ALL)
        uek/    the older layout, "ADDR SIZE TYPE NAME [MOD]", one module
      each with kallmodsyms, and kallsyms (the same lines, without the
      built-in annotations), and OUTDIR/modpath/modules.builtin.ranges.
      Every layout ends the core kernel with _end and then lists two
      loadable modules and the kernel's BPF and kprobe pseudo-modules.
  dtrace_files.py queries FILE
      The dtrace-lookup queries for every text symbol of FILE: its
      address, and its name in each of its modules.
  dtrace_files.py check FILE ANSWERS
      Hold dtrace-lookup's answers against FILE: each address must be
      filed under one of the modules FILE gives it (vmlinux for the core
      kernel) with one of the names it has there, and each name must be
      found in each of its modules at one of its addresses, a function's
      or a variable's: DTrace files every symbol, and a lookup by name
      may answer a variable of the function's name and module (a real
      kernel has a few: "d set_root {ucount.o}" beside "t set_root
      {namei.o}").  Prints what was checked, and each mismatch; exits 1
      on a mismatch.
  dtrace_files.py fbt FILE FILTERS MODULE MODLIST VMLIST
      Hold "dtrace -l -P fbt -m MODULE" (its output in MODLIST) and
      "dtrace -l -P fbt -m vmlinux" (VMLIST), run on the kernel whose
      /proc/kallmodsyms is FILE and available_filter_functions FILTERS,
      against FILE.  The FBT provider lists each function of FILTERS that
      it does not weed out (names with a dot, __ftrace_invalid_address__,
      __probestub_, __traceiter_) under the module of the first symbol of
      that name libdtrace finds, once per name, with an entry and a
      return probe.  So every function MODLIST lists must be a text
      symbol of MODULE in FILE; every traceable one that no symbol of
      FILE outside MODULE (of any type, in vmlinux or in another module)
      names must be listed, and not in VMLIST.  Prints the counts, and
      each mismatch; exits 1 on a mismatch.

FILE is a /proc/kallmodsyms file in either layout.  A test helper, not an
installed tool.
"""
import re
import sys

HEX = re.compile(r'^[0-9a-fA-F]+$')
TEXT = 'tTwW'
# Symbols DTrace never files (dt_modsym_addsym() skips them).
SKIPPED = ('__crc_', '__ksymtab_', '__kcrctab_', '__kstrtab_', '__param_',
           '__syscall_meta__', '__p_syscall_meta__', '__event_', 'event_',
           'ftrace_event_', 'types__', 'args__', '__tracepoint_',
           '__tpstrtab_', '__initcall_', '__setup_', '__pci_fixup_')
PSEUDO = ('bpf', '__builtin__kprobes', '__builtin__ftrace')
LOADABLE = [
    ('ffffffffc0002000', 't', 'sample_probe', 'sample_mod'),
    ('ffffffffc0002040', 'T', 'sample_init', 'sample_mod'),
    ('ffffffffc0004000', 'd', 'sample_table', 'sample_mod'),
    ('ffffffffc0008000', 't', 'other_read', 'other_mod'),
    ('ffffffffc0008080', 't', 'other_write', 'other_mod'),
    ('ffffffffc000a000', 't', 'bpf_prog_6deef7357e7b4530_sd_fw', 'bpf'),
    ('ffffffffc000c000', 't', 'kprobe_insn_page', '__builtin__kprobes'),
]
PERCPU = ['0000000000000000 A fixed_percpu_data',
          '0000000000001000 A cpu_number',
          '0000000000001008 A ipv6_icmp_sk\t[ipv6]']


def parse(line):
    """(addr, size or None, type, name, [modules]) of one line."""
    head, _, notes = line.rstrip('\n').partition('\t')
    f = head.split()
    if len(f) >= 4 and HEX.match(f[1]) and len(f[2]) == 1:
        addr, size, typ, name, rest = f[0], int(f[1], 16), f[2], f[3], f[4:]
    else:
        addr, size, typ, name, rest = f[0], None, f[1], f[2], f[3:]
    notes = rest + notes.split()
    mods = [n[1:-1] for n in notes if n.startswith('[')]
    return int(addr, 16), size, typ, name, mods


def symbols(path, types=TEXT):
    """Each symbol of one of TYPES DTrace files: (addr, name, modules)."""
    out = []
    with open(path, encoding='latin-1') as f:
        for line in f:
            if not line.strip():
                continue
            addr, _, typ, name, mods = parse(line)
            if (types and typ not in types) or name.startswith(SKIPPED):
                continue
            if any(m in PSEUDO for m in mods):
                continue
            out.append((addr, name, mods or ['vmlinux']))
    return out


def core_lines(listing):
    """The listing's lines, ended by _end after its last address."""
    with open(listing, encoding='latin-1') as f:
        lines = [ln.rstrip('\n') for ln in f if ln.strip()]
    last = max(parse(ln)[0] for ln in lines)
    end = '%016x B _end' % ((last | 0xfff) + 1)
    return lines + [end]


def loadable_lines():
    return ['%s %s %s\t[%s]' % row for row in LOADABLE]


def uek_lines(lines):
    """The UEK layout: a size column (the distance to the next address),
    and at most one module; no object file."""
    out = []
    for i, line in enumerate(lines):
        addr, _, typ, name, mods = parse(line)
        nxt = [parse(ln)[0] for ln in lines[i + 1:i + 8]]
        nxt = [a for a in nxt if a > addr]
        size = nxt[0] - addr if nxt and nxt[0] - addr < 0x100000 else 0x10
        mod = '\t[%s]' % mods[0] if mods else ''
        out.append('%016x %x %s %s%s' % (addr, size, typ, name, mod))
    return out


def write(path, lines):
    with open(path, 'w', encoding='latin-1') as f:
        f.writelines(ln + '\n' for ln in lines)


def make(listing, ranges, outdir):
    import os
    core = core_lines(listing)
    mods = loadable_lines()
    percpu = [ln.split('\t')[0] for ln in PERCPU]
    kallsyms = percpu + [ln.split('\t')[0] for ln in core] + mods
    layouts = {'x86': PERCPU + core + mods,
               'arm64': core + mods,
               'uek': uek_lines(PERCPU + core + mods)}
    for name, lines in layouts.items():
        os.makedirs(os.path.join(outdir, name), exist_ok=True)
        write(os.path.join(outdir, name, 'kallmodsyms'), lines)
        write(os.path.join(outdir, name, 'kallsyms'),
              kallsyms[len(percpu):] if name == 'arm64' else kallsyms)
    os.makedirs(os.path.join(outdir, 'modpath'), exist_ok=True)
    with open(ranges, encoding='latin-1') as f:
        text = f.read()
    with open(os.path.join(outdir, 'modpath', 'modules.builtin.ranges'),
              'w', encoding='latin-1') as f:
        f.write(text)


def queries(path):
    seen = set()
    for addr, name, mods in symbols(path):
        if addr not in seen:
            seen.add(addr)
            print('a %x' % addr)
        for m in mods:
            if (m, name) not in seen:
                seen.add((m, name))
                print('n %s %s' % (m, name))


def expectations(path):
    """By text address: the (module, name) pairs; by (module, name) of a
    function: the addresses of every symbol of that name and module."""
    by_addr, by_name = {}, {}
    for addr, name, mods in symbols(path):
        for m in mods:
            by_addr.setdefault(addr, set()).add((m, name))
            by_name.setdefault((m, name), set()).add(addr)
    for addr, name, mods in symbols(path, None):
        for m in mods:
            if (m, name) in by_name:
                by_name[(m, name)].add(addr)
    return by_addr, by_name


def check(path, answers):
    by_addr, by_name = expectations(path)
    bad, naddr, nname = [], 0, 0
    with open(answers, encoding='latin-1') as f:
        for line in f:
            f4 = line.split()
            if f4[0] == 'n':
                nname += 1
                want = by_name.get((f4[1], f4[2]), set())
                if f4[3] == '-' or int(f4[3], 16) not in want:
                    bad.append('%s`%s at %s, expected %s' % (
                        f4[1], f4[2], f4[3],
                        ' or '.join('%x' % a for a in sorted(want))))
                continue
            naddr += 1
            addr = int(f4[1], 16)
            want = by_addr.get(addr, set())
            got = tuple(f4[2:4]) if len(f4) == 4 else ('-', '-')
            if got not in want:
                bad.append('%x filed as %s, expected %s' % (
                    addr, '`'.join(got),
                    ' or '.join('`'.join(w) for w in sorted(want))))
    mods = sorted({m for m, _ in by_name})
    print('%s: %d addresses, %d names in %d modules (%s)' % (
        path, naddr, nname, len(mods), ' '.join(mods)))
    for b in bad:
        print('mismatch: ' + b)
    if naddr != len(by_addr) or nname != len(by_name):
        bad.append('answers for %d of %d addresses, %d of %d names' % (
            naddr, len(by_addr), nname, len(by_name)))
        print('mismatch: ' + bad[-1])
    return 1 if bad else 0


def traceable(filters):
    """The function names of available_filter_functions FBT lists."""
    weeded = ('__ftrace_invalid_address__', '__probestub_', '__traceiter_')
    with open(filters, encoding='latin-1') as f:
        names = {ln.split()[0] for ln in f if ln.strip()}
    return {n for n in names if '.' not in n and not n.startswith(weeded)}


def listed(path, module):
    """{function: {probe names}} of the fbt rows of a "dtrace -l" output,
    and the rows of another provider or module."""
    funcs, others = {}, []
    with open(path, encoding='latin-1') as f:
        for line in f:
            f5 = line.split()
            if len(f5) != 5 or f5[0] == 'ID':
                continue
            if f5[1] != 'fbt' or f5[2] != module:
                others.append(line.rstrip('\n'))
                continue
            funcs.setdefault(f5[3], set()).add(f5[4])
    return funcs, others


def fbt(path, filters, module, modlist, vmlist):
    text = [(n, m) for _, n, m in symbols(path)]
    mine = {n for n, m in text if module in m}
    trace = mine & traceable(filters)
    shared = {n for _, n, m in symbols(path, None) if m != [module]} & trace
    alone = trace - shared
    got, others = listed(modlist, module)
    vm, vm_others = listed(vmlist, 'vmlinux')
    bad = ['%s: listed under %s, not its text in %s' % (n, module, path)
           for n in sorted(set(got) - mine)]
    bad += ['%s: %s\'s alone, traceable, not listed' % (n, module)
            for n in sorted(alone - set(got))]
    bad += ['%s: %s\'s alone, listed under vmlinux' % (n, module)
            for n in sorted(alone & set(vm))]
    bad += ['%s: probes %s, not entry and return' % (n, ' '.join(sorted(p)))
            for n, p in sorted(got.items()) if p != {'entry', 'return'}]
    bad += ['not fbt:%s: %s' % (module, r) for r in others]
    bad += ['not fbt:vmlinux: %s' % r for r in vm_others]
    print('%s: %d functions in /proc/kallmodsyms, %d traceable, %d of them '
          'also named outside %s; fbt lists %d under %s (%d of the %d), '
          '%d under vmlinux (%d of the %d)' % (
              module, len(mine), len(trace), len(shared), module, len(got),
              module, len(shared & set(got)), len(shared), len(vm),
              len(shared & set(vm)), len(shared)))
    for b in bad:
        print('mismatch: ' + b)
    return 1 if bad else 0


def main(argv):
    if len(argv) == 5 and argv[1] == 'make':
        return make(argv[2], argv[3], argv[4]) or 0
    if len(argv) == 3 and argv[1] == 'queries':
        return queries(argv[2]) or 0
    if len(argv) == 4 and argv[1] == 'check':
        return check(argv[2], argv[3])
    if len(argv) == 7 and argv[1] == 'fbt':
        return fbt(*argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
