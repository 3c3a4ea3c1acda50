#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What bcc's Python makes of a built-in module's function.

usage: bcc-ksym.py FUNC        (in the guest of run-bpftrace-guest.sh)
       bcc-ksym.py --modules   (on the host: the files the first needs)

For each address of FUNC in /proc/kallsyms, "ADDR KSYM" (KSYM:
BPF.ksym(ADDR + 4, show_module=True, show_offset=True), the address of
a kprobe on its ftrace site), then "get_kprobe_functions" and what
BPF.get_kprobe_functions(b"^FUNC$") returns.  --modules prints the
Python files and extension modules that importing bcc loads, which the
guest gets and nothing else of Python.
"""
import sys

from bcc import BPF


def main():
    if sys.argv[1:] == ['--modules']:
        for m in list(sys.modules.values()):
            f = getattr(m, '__file__', None)
            if f:
                print(f)
        return
    func = sys.argv[1]
    with open('/proc/kallsyms') as f:
        addrs = [int(a, 16) for a, _, name in
                 (line.split()[:3] for line in f) if name == func]
    for addr in addrs:
        ksym = BPF.ksym(addr + 4, show_module=True, show_offset=True)
        print('%x %s' % (addr, ksym.decode()))
    found = BPF.get_kprobe_functions(('^%s$' % func).encode())
    print('get_kprobe_functions', *sorted(f.decode() for f in found))


main()
