# SPDX-License-Identifier: GPL-2.0
"""The profile part of bench/report.py: read bench/profile's JSON from the
raw directory, set it beside kbench's per-iteration counts, and render the
BENCHMARKS.md section."""
import json
import os

TITLE = "Profile of one getppid(), one failing perf_event_open() and one fetch"
CASES = {
    "getppid": ("getppid() (control: every system call's entry and exit)", "getppid"),
    "fail_size1": ("perf_event_open() fails: attr.size=1 (E2BIG)", "fail_size1"),
    "fail_sigtrap": ("perf_event_open() fails: sigtrap without remove_on_exec (EINVAL)",
                     "fail_sigtrap"),
    "fetch": ("prctl(PR_GET_ERR_DESC, buf, 4096, 0, 0) after the sigtrap failure",
              None),
    "fetch_size1": ("prctl(PR_GET_ERR_DESC, buf, 4096, 0, 0) after the size=1 failure "
                    "(two values)", None),
}
# kbench's pair whose difference is a fetch: (fail and fetch, fail).
FETCHES = {"fetch": ("fail_fetch_sigtrap", "fail_sigtrap"),
           "fetch_size1": ("fail_fetch_size1", "fail_size1")}


def kbench_per_call(case, kb):
    """kbench's instructions per iteration of what the profile traced."""
    if case in FETCHES:
        a, b = (kb.get(k) for k in FETCHES[case])
        return a and b and round(a["min"] - b["min"], 1)
    return kb.get(case, {}).get("min")


def load(raw, kp, ku):
    """The profile for results.json, or why there is none."""
    path = os.path.join(raw, "profile.json")
    if not os.path.exists(path):
        why = "not measured"
        status = os.path.join(raw, "profile.status")
        if os.path.exists(status):
            with open(status) as f:
                why = f.read().strip() or why
        return {"measured": False, "reason": why}
    with open(path) as f:
        prof = json.load(f)
    prof["measured"] = True
    # kbench's iteration holds the profiled call plus the user-space loop
    # and libc's syscall() wrapper: the rest must be the same on both
    # kernels, so the kernel difference must be the profile's.
    for case, c in prof["cases"].items():
        if case not in CASES:
            continue
        check = {}
        for kind, kb in (("patched", kp), ("unpatched", ku)):
            it, tot = kbench_per_call(case, kb), c.get(f"{kind}_total")
            if it is not None and tot is not None:
                check[kind] = {"kbench": it, "profile": tot,
                               "outside": round(it - tot, 1)}
        if "patched" in check and "unpatched" in check:
            check["kbench_difference"] = round(check["patched"]["kbench"] -
                                               check["unpatched"]["kbench"], 1)
        c["kbench"] = check
    return prof


def fmt(x, nd=1):
    """A number with thousands separators; integral floats without decimals."""
    if x is None:
        return "-"
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:,.{nd}f}"


def signed(x):
    return "-" if x is None else f"{x:+,}"


def moved(c):
    """Pairs (unpatched name, patched name, count) of functions found in
    one kernel only, with the same count: code the series moved."""
    pu = [r for r in c["rows"] if r["unpatched"] and r["patched"] == 0]
    res = []
    for r in c["rows"]:
        if r["patched"] and r["unpatched"] == 0:
            m = next((x for x in pu if x["unpatched"] == r["patched"]), None)
            if m:
                pu.remove(m)
                res.append((m["function"], r["function"], r["patched"]))
    return res


def why_line(prof):
    """One sentence for the missed-target paragraph: where the failing
    call's extra instructions go, from the attr.size=1 profile."""
    c = prof.get("cases", {}).get("fail_size1") if prof.get("measured") else None
    if not c or c.get("difference") is None:
        return ""
    mv = moved(c)
    skip = {f for a, b, _ in mv for f in (a, b)}
    parts = [f"`{r['function']}()` {r['difference']:+}" for r in c["rows"]
             if r["difference"] and r["function"] not in skip]
    line = (f" The profile below (attr.size=1) shows it per function, {c['difference']:+} in all: "
            + ", ".join(parts))
    if mv:
        line += "; " + ", ".join(f"`{a}()` became `{b}()` ({n} instructions in both)"
                                 for a, b, n in mv)
    return line + "."


def markdown(prof):
    md = [f"### {TITLE}\n"]
    w = md.append
    if not prof.get("measured"):
        w(f"{prof.get('reason', 'not measured')}.\n")
        return md
    reps = {k: v.get("rep_totals") for c in prof["kernels"].values() for k, v in c.items()
            if k in CASES}
    w("Instructions executed by one call, from its `syscall` instruction (the one \"user\" "
      "instruction) until the CPU is back in user space, per kernel function "
      "(`System.map`): `bench/profile` boots `bench/guest/kprofile` under "
      "`kernel/vm-run --icount --gdb`, and gdb single-steps the call through QEMU's "
      "gdbstub with interrupts and timers held off, after 100 warm-up calls of each kind. "
      f"Each case ran {max(len(r) for r in reps.values())} times; the table is the shortest "
      "(the totals of all are in `results.json`). Sorted by difference. A `rep`-prefixed "
      "string instruction (the kernel's memcpy/memset, `rep_movs_alternative`) counts once "
      "per iteration, as under `--icount`; inlined code counts in its caller.\n")
    for case, (label, _) in CASES.items():
        c = prof["cases"].get(case)
        if not c:
            continue
        w(f"**{label}**\n")
        notes = []
        if c["difference"] is not None:
            w("| function | unpatched | patched | difference |")
            w("|---|---:|---:|---:|")
            for r in c["rows"]:
                w(f"| `{r['function']}` | {fmt(r['unpatched'])} | {fmt(r['patched'])} | "
                  f"{signed(r['difference'])} |")
            w(f"| **total** | **{fmt(c['unpatched_total'])}** | **{fmt(c['patched_total'])}** | "
              f"**{signed(c['difference'])}** |")
            for a, b, n in moved(c):
                notes.append(f"`{a}` (unpatched) and `{b}` (patched) run the same {n} "
                             "instructions: code the series moved (the same count in both), not new work")
        else:
            # One kernel only (the fetch): no difference, the share instead.
            kind = "patched" if c["patched_total"] is not None else "unpatched"
            total = c[f"{kind}_total"]
            w(f"| function | {kind} | share |")
            w("|---|---:|---:|")
            for r in c["rows"]:
                w(f"| `{r['function']}` | {fmt(r[kind])} | {100 * r[kind] / total:.1f}% |")
            w(f"| **total** | **{fmt(total)}** | 100% |")
        w("")
        k = c.get("kbench", {})
        outside = ("libc's `syscall()` wrapper and the result check" if case in FETCHES else
                   "the user-space loop, libc's `syscall()` wrapper, the errno check")
        for kind in ("unpatched", "patched"):
            if kind in k:
                notes.append(f"{kind}: kbench {fmt(k[kind]['kbench'])} per iteration, "
                             f"profiled call {fmt(k[kind]['profile'])}: "
                             f"{fmt(k[kind]['outside'])} outside it ({outside})")
        if "kbench_difference" in k:
            # kbench's counts are means over many iterations, in tenths.
            ok = abs(k["kbench_difference"] - c["difference"]) <= 0.5
            notes.append(f"difference: kbench {signed(k['kbench_difference'])}, profile "
                         f"{signed(c['difference'])}: the profile "
                         f"{'agrees' if ok else '**does not agree**'}")
        for kind in ("unpatched", "patched"):
            kc = prof["kernels"].get(kind, {}).get(case)
            if not kc:
                continue
            if len(set(kc["rep_totals"])) > 1:
                notes.append(f"{kind}: the repetitions differ: {kc['rep_totals']}")
            if kc["intruders"]:
                notes.append(f"**{kind}: interrupt, exception or scheduler code in a trace**: "
                             + ", ".join(f"`{f}`" for f in kc["intruders"]))
            if not kc["returned_to_caller"]:
                notes.append(f"**{kind}: a trace returned elsewhere than to its caller** "
                             "(another task ran)")
        for n in notes:
            w(f"- {n}")
        w("")
    clean = all(not v["intruders"] and v["returned_to_caller"]
                for kc in prof["kernels"].values() for k, v in kc.items() if k in CASES)
    if clean:
        w("No trace holds interrupt, exception, softirq or scheduler code, and every one returned to "
          "the instruction after its `syscall`.\n")
    return md
