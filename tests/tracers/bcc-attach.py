#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Whether bcc attaches a kprobe to MOD:FUNC, and how often it fires.

usage: bcc-attach.py NAME EVENT CMD [NAME EVENT CMD...]
                              (in the guest of run-bpftrace-guest.sh)
       bcc-attach.py --compile (on the host: compile the program only)

Compiles, once, a BPF program that counts its calls.  For each NAME:
attaches it with BPF.attach_kprobe(event=EVENT), which hands EVENT as
it is to perf_event_open()'s kprobe PMU, runs CMD with sh -c, and
prints a section "@@@ NAME": "kprobes" and the lines of
/sys/kernel/debug/kprobes/list while attached, "hits N", then
"detached" or what detach_kprobe() raised.  An attach that fails
prints "refused" and bcc's exception instead.
"""
import os
import sys

from bcc import BPF

PROGRAM = b"""
BPF_ARRAY(hits, u64, 1);
int hit(void *ctx)
{
	int key = 0;
	u64 *n = hits.lookup(&key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}
"""


def attach(b, event, cmd):
    try:
        b.attach_kprobe(event=event, fn_name=b"hit")
    except Exception as e:
        print('refused')
        print(e)
        return
    os.system(cmd)
    print('kprobes')
    with open('/sys/kernel/debug/kprobes/list') as f:
        sys.stdout.write(f.read())
    print('hits', b['hits'][0].value)
    b['hits'].clear()
    try:
        b.detach_kprobe(event=event)
        print('detached')
    except Exception as e:
        print(e)


def main():
    b = BPF(text=PROGRAM)
    args = sys.argv[1:]
    if args == ['--compile']:
        return
    for i in range(0, len(args) - 2, 3):
        print('@@@', args[i])
        sys.stdout.flush()
        attach(b, args[i + 1].encode(), args[i + 2])
        sys.stdout.flush()


main()
