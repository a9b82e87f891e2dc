#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/profiler/attribute.py OUT.json KIND=BUILD_DIR:TRACE_DIR...

Turn the instruction traces of bench/profiler/trace.py into instructions
per function, per case and kernel KIND (patched, unpatched), and compare
the kernels. A PC belongs to the text symbol of BUILD_DIR/System.map at
or below it; user-space PCs (the syscall instruction) count as "user". A
PC in a module's text (TRACE_DIR/modules.txt, read from the guest by
trace.py) belongs to the module's function at or below it, "NAME
[MODULE]": the module's .ko in BUILD_DIR laid out as the kernel's
layout_sections() does (its executable sections but .init*, in section
order, each at its alignment). Each function also gets its size in
bytes (vmlinux's symbol table, or the .ko's), so the report can tell code
the series changed from code that only ran differently.

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
import struct
import subprocess
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


def ko_text(path):
    """(offset in the module's text, name, size) of the functions of a .ko,
    sorted, with the text laid out as layout_sections() lays it out."""
    with open(path, "rb") as f:
        elf = f.read()
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
            for i in range(shnum)]
    names = secs[shstrndx][4]

    def cstr(off):
        return elf[off:elf.index(b"\0", off)].decode()

    SHF_ALLOC, SHF_EXECINSTR = 2, 4
    base, size = {}, 0
    for i, (name, _, flags, _, _, ssize, _, _, align, _) in enumerate(secs):
        if (flags & (SHF_ALLOC | SHF_EXECINSTR)) != SHF_ALLOC | SHF_EXECINSTR:
            continue
        if cstr(names + name).startswith(".init"):
            continue
        size = (size + (align or 1) - 1) // (align or 1) * (align or 1)
        base[i] = size
        size += ssize
    syms = []
    for sec in secs:
        if sec[1] != 2:         # SHT_SYMTAB
            continue
        strtab = secs[sec[6]][4]
        for j in range(sec[5] // 24):
            st_name, info, _, shndx, value, ssize = struct.unpack_from(
                "<IBBHQQ", elf, sec[4] + j * 24)
            if info & 0xf == 2 and shndx in base:     # STT_FUNC
                syms.append((base[shndx] + value, cstr(strtab + st_name), ssize))
    return sorted(syms)


class Kernel:
    """A kernel's functions: vmlinux's (System.map, sizes from vmlinux's
    symbol table) and those of the modules the guest had loaded."""

    def __init__(self, build, tdir):
        self.addrs, self.names = load_map(os.path.join(build, "System.map"))
        self.size = {}
        vmlinux = os.path.join(build, "vmlinux")
        if os.path.exists(vmlinux):
            out = subprocess.run(["nm", "-S", "--defined-only", vmlinux],
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                p = line.split()
                if len(p) == 4 and p[2] in "tTwW":
                    self.size[p[3]] = int(p[1], 16)
        self.mods = []
        path = os.path.join(tdir, "modules.txt")
        if not os.path.exists(path):
            return
        kos = {}
        for ko in glob.glob(os.path.join(build, "**", "*.ko"), recursive=True):
            kos[os.path.basename(ko)[:-3].replace("-", "_")] = ko
        with open(path) as f:
            for line in f:
                name, base, size = line.split()
                if base == "?" or name not in kos:
                    continue
                syms = ko_text(kos[name])
                self.mods.append((int(base, 16), int(size, 16), name,
                                  [s[0] for s in syms], syms))
                for _, fn, sz in syms:
                    self.size[f"{fn} [{name}]"] = sz

    def owner(self, pc):
        if pc < USER_TOP:
            return "user"
        for base, size, name, offs, syms in self.mods:
            if base <= pc < base + size:
                i = bisect.bisect_right(offs, pc - base) - 1
                return f"{syms[i][1]} [{name}]" if i >= 0 else f"? [{name}]"
        i = bisect.bisect_right(self.addrs, pc) - 1
        return self.names[i] if i >= 0 else f"?{pc:#x}"


def trace(path, k):
    funcs = {}
    with open(path) as f:
        for line in f:
            fn = k.owner(int(line, 16))
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


def kernel(build, tdir):
    k = Kernel(build, tdir)
    back = steps(tdir)
    cases = {}
    for p in sorted(glob.glob(os.path.join(tdir, "*.pcs"))):
        case, rep = os.path.basename(p).rsplit(".", 2)[:2]
        funcs = trace(p, k)
        ret, want = back[(case, int(rep))]
        cases.setdefault(case, []).append({
            "total": sum(funcs.values()), "functions": funcs,
            # A new task's first return to user space is at the same
            # address as its parent's: a trace through ret_from_fork
            # ended in the child.
            "returned_to_caller": ret == want and "ret_from_fork" not in funcs})
    res = {}
    for case, runs in cases.items():
        best = min(runs, key=lambda r: r["total"])
        res[case] = {"total": best["total"], "functions": best["functions"],
                     "rep_totals": [r["total"] for r in runs],
                     "returned_to_caller": all(r["returned_to_caller"] for r in runs),
                     "intruders": sorted({fn for r in runs for fn in r["functions"]
                                          if INTRUDER.match(fn)})}
    return res, k


def compare(kernels, sizes):
    """Per case, one row per function: counts in each kernel, difference."""
    p, u = kernels.get("patched", {}), kernels.get("unpatched", {})
    res = {}
    for case in sorted(set(p) | set(u)):
        fp = p.get(case, {}).get("functions", {})
        fu = u.get(case, {}).get("functions", {})
        # A case one kernel does not have (the fetch on the unpatched one)
        # has no counts there, not zeros, and no difference.
        both = case in p and case in u
        sp, su = sizes.get("patched"), sizes.get("unpatched")
        # Bytes of the function in each kernel: a function whose size
        # differs (or that one kernel lacks) is code the series changed;
        # one of the same size ran the same code, a different path.
        rows = [{"function": fn,
                 "unpatched": fu.get(fn, 0) if case in u else None,
                 "patched": fp.get(fn, 0) if case in p else None,
                 "difference": fp.get(fn, 0) - fu.get(fn, 0) if both else None,
                 "unpatched_bytes": su.size.get(fn) if su else None,
                 "patched_bytes": sp.size.get(fn) if sp else None}
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
    kernels, syms = {}, {}
    for s in specs:
        kind, _, rest = s.partition("=")
        build, _, tdir = rest.partition(":")
        kernels[kind], syms[kind] = kernel(build, tdir)
    res = {"unit": "instructions executed from the syscall instruction until "
                   "back in user space (gdb single-step, QEMU TCG)",
           "kernels": kernels, "cases": compare(kernels, syms)}
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")


main()
