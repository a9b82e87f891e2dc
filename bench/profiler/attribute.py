#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/profiler/attribute.py OUT.json KIND=SYSTEM_MAP:TRACE_DIR...

Turn the instruction traces of bench/profiler/trace.py into instructions
per function, per case and kernel KIND (patched, unpatched), and compare
the kernels. A PC belongs to the text symbol of System.map at or below
it; user-space PCs (the syscall instruction) count as "user".

Of a case's repetitions the one with the fewest instructions is the
profile (an outlier can only be longer: a stray resched or softirq); the
totals of all are kept to show they agree. Functions of interrupt entry,
softirqs or the scheduler in any repetition are listed as "intruders":
the trace then holds more than the call itself (a page fault too: the
first touch of a page, not the cost of the call).
"""
import bisect
import glob
import json
import os
import re
import sys

USER_TOP = 0x0000800000000000
# What runs in a task's syscall only when something interrupts it.
INTRUDER = re.compile(r"^(asm_(sysvec|common_interrupt|exc_)|_*sysvec_|common_interrupt"
                      r"|irq_(enter|exit)|__irq_exit|handle_softirqs|__do_softirq"
                      r"|_*schedule$|preempt_schedule)")


def load_map(path):
    """Sorted (address, name) of the text symbols of a System.map."""
    syms = {}
    with open(path) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind not in "tTwW":
                continue
            a = int(addr, 16)
            # Several names at one address: keep a function's over a
            # section marker (__foo_start, _stext) that shares it.
            if a not in syms or re.match(r"^_+[a-z_]*(start|text)$", syms[a]):
                syms[a] = name
    addrs = sorted(syms)
    return addrs, [syms[a] for a in addrs]


def owner(addrs, names, pc):
    if pc < USER_TOP:
        return "user"
    i = bisect.bisect_right(addrs, pc) - 1
    return names[i] if i >= 0 else f"?{pc:#x}"


def trace(path, addrs, names):
    funcs = {}
    with open(path) as f:
        for line in f:
            fn = owner(addrs, names, int(line, 16))
            funcs[fn] = funcs.get(fn, 0) + 1
    return funcs


def steps(tdir):
    """(case, rep) -> (return address, expected return address)."""
    res = {}
    with open(os.path.join(tdir, "steps.txt")) as f:
        for line in f:
            m = re.match(r"(\S+) (\d+) \d+ return=(\S+) expected=(\S+)", line)
            if m:
                res[(m[1], int(m[2]))] = (int(m[3], 16), int(m[4], 16))
    return res


def kernel(smap, tdir):
    addrs, names = load_map(smap)
    back = steps(tdir)
    cases = {}
    for p in sorted(glob.glob(os.path.join(tdir, "*.pcs"))):
        case, rep = os.path.basename(p).rsplit(".", 2)[:2]
        funcs = trace(p, addrs, names)
        ret, want = back[(case, int(rep))]
        cases.setdefault(case, []).append({
            "total": sum(funcs.values()), "functions": funcs,
            "returned_to_caller": ret == want})
    res = {}
    for case, runs in cases.items():
        best = min(runs, key=lambda r: r["total"])
        res[case] = {"total": best["total"], "functions": best["functions"],
                     "rep_totals": [r["total"] for r in runs],
                     "returned_to_caller": all(r["returned_to_caller"] for r in runs),
                     "intruders": sorted({fn for r in runs for fn in r["functions"]
                                          if INTRUDER.match(fn)})}
    return res


def compare(kernels):
    """Per case, one row per function: counts in each kernel, difference."""
    p, u = kernels.get("patched", {}), kernels.get("unpatched", {})
    res = {}
    for case in sorted(set(p) | set(u)):
        fp = p.get(case, {}).get("functions", {})
        fu = u.get(case, {}).get("functions", {})
        # A case one kernel does not have (the fetch on the unpatched one)
        # has no counts there, not zeros, and no difference.
        both = case in p and case in u
        rows = [{"function": fn,
                 "unpatched": fu.get(fn, 0) if case in u else None,
                 "patched": fp.get(fn, 0) if case in p else None,
                 "difference": fp.get(fn, 0) - fu.get(fn, 0) if both else None}
                for fn in set(fp) | set(fu)]
        # Largest increase first, then by weight in the patched kernel.
        rows.sort(key=lambda r: (-(r["difference"] or 0), -(r["patched"] or 0),
                                 -(r["unpatched"] or 0), r["function"]))
        tp, tu = p.get(case, {}).get("total"), u.get(case, {}).get("total")
        res[case] = {"rows": rows, "patched_total": tp, "unpatched_total": tu,
                     "difference": None if tp is None or tu is None else tp - tu}
    return res


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    kernels = {}
    for s in specs:
        kind, _, rest = s.partition("=")
        smap, _, tdir = rest.partition(":")
        kernels[kind] = kernel(smap, tdir)
    res = {"unit": "instructions executed from the syscall instruction until "
                   "back in user space (gdb single-step, QEMU TCG)",
           "kernels": kernels, "cases": compare(kernels)}
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")


main()
