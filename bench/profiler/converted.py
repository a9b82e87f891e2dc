# SPDX-License-Identifier: GPL-2.0
"""The converted system calls' part of bench/report.py (issues 20 and 22):
kbench's instructions per iteration of a success and a typical failure of
each call the series converted, beside bench/profile's per-function
profile of the call itself, and the BENCHMARKS.md section."""
from summary import fmt, signed

# kbench case -> (label, the profile cases its iteration holds, what else it holds)
CASES = {
    "openat2_close": ("openat2(\"/\", O_RDONLY|O_DIRECTORY) + close()",
                      ["openat2", "close_openat2"], None),
    "fail_openat2_flags": ("openat2() fails: open_how.flags bit 40 (EINVAL)",
                           ["fail_openat2"], None),
    "clone3_wait": ("clone3() as fork() + the child's exit_group() + wait4()",
                    ["clone3"], "the child's life and wait4(), not profiled"),
    "fail_clone3_flags": ("clone3() fails: clone_args.flags bit 40 (EINVAL)",
                          ["fail_clone3"], None),
    "sched_setattr": ("sched_setattr(0, SCHED_OTHER nice 0, 0): the policy it has",
                      ["sched_setattr"], None),
    "fail_sched_setattr_flags": ("sched_setattr() fails: sched_attr.sched_flags bit 40 (EINVAL)",
                                 ["fail_sched_setattr"], None),
    "mount_setattr": ("mount_setattr(tmpfs, attr_set=MOUNT_ATTR_NOSUID), which it has",
                      ["mount_setattr"], None),
    "fail_mount_setattr_attr_set": ("mount_setattr() fails: mount_attr.attr_set 0x400 (EINVAL)",
                                    ["fail_mount_setattr"], None),
    "io_uring_setup_close": ("io_uring_setup(1) + close()",
                             ["io_uring_setup", "close_io_uring"],
                             "the ring's teardown in a kworker after close()"),
    "fail_io_uring_setup_flags": ("io_uring_setup() fails: io_uring_params.flags bit 31 (EINVAL)",
                                  ["fail_io_uring_setup"], None),
    "mount_umount": ("mount(\"none\", dir, \"tmpfs\", 0, \"size=1m\") + umount2()",
                     ["mount", "umount"], "RCU callbacks of the unmount"),
    "fail_mount_option": ("mount(2) fails: tmpfs \"size=bogus\" (EINVAL, the filesystem's words)",
                          ["fail_mount"], None),
    "s_fmt": ("VIDIOC_S_FMT on vivid's webcam, the current format: not adjusted",
              ["s_fmt"], None),
    "s_fmt_adjusted": ("VIDIOC_S_FMT, pixelformat 'XXXX': replaced by YUYV (a note)",
                       ["s_fmt_adjusted"], None),
}
# The profile cases' own labels.
PROFILED = {
    "openat2": "openat2()", "close_openat2": "close() of openat2()'s file",
    "fail_openat2": "openat2(), flags bit 40", "clone3": "clone3() (the parent's call)",
    "fail_clone3": "clone3(), flags bit 40", "sched_setattr": "sched_setattr()",
    "fail_sched_setattr": "sched_setattr(), sched_flags bit 40",
    "mount_setattr": "mount_setattr()", "fail_mount_setattr": "mount_setattr(), attr_set 0x400",
    "io_uring_setup": "io_uring_setup()", "close_io_uring": "close() of the ring",
    "fail_io_uring_setup": "io_uring_setup(), flags bit 31", "mount": "mount(2) of a tmpfs",
    "umount": "umount2() of the tmpfs", "fail_mount": "mount(2), size=bogus",
    "s_fmt": "VIDIOC_S_FMT, not adjusted", "s_fmt_adjusted": "VIDIOC_S_FMT, adjusted",
}
# The exit path every call takes: its difference is the same in every case
# (the control, getppid(), shows it) and not the conversion's.
EXIT = "syscall_exit_to_user_mode_prepare"
# Code of the mechanism rather than of a converted call's own function.
MECHANISM = ("__ext_err", "ext_err_", "syscall_exit_work", "task_work_run")


def rows(kp, ku):
    """kbench's rows for results.json."""
    res = []
    for k, (label, prof, extra) in CASES.items():
        if k in kp and k in ku:
            p, u = kp[k]["min"], ku[k]["min"]
            res.append({"case": k, "label": label, "patched": p, "unpatched": u,
                        "added": round(p - u, 1), "ratio": round(p / u, 4),
                        "profiled": prof, "also_in_iteration": extra,
                        "patched_reps": kp[k]["reps"], "unpatched_reps": ku[k]["reps"]})
    return res


def split(c):
    """A profiled case's difference: (changed, exit, same) where changed
    lists (function, difference, unpatched bytes, patched bytes) of code the
    series changed (its size differs, or one kernel lacks it), exit is the
    common exit path's, same the sum over functions of the same size."""
    changed, exit_, same = [], 0, 0
    for r in c["rows"]:
        d = r["difference"]
        if not d:
            continue
        if r["function"] == EXIT:
            exit_ += d
        elif r.get("patched_bytes") != r.get("unpatched_bytes"):
            changed.append((r["function"], d, r.get("unpatched_bytes"), r.get("patched_bytes")))
        else:
            same += d
    return changed, exit_, same


def annotate(prof):
    """Add the split to each converted case of the profile (results.json)."""
    if not prof.get("measured"):
        return
    for case in PROFILED:
        c = prof["cases"].get(case)
        if not c or c.get("difference") is None:
            continue
        changed, exit_, same = split(c)
        c["split"] = {"changed_code": sum(d for _, d, _, _ in changed),
                      "changed_functions": [{"function": f, "difference": d,
                                             "unpatched_bytes": ub, "patched_bytes": pb}
                                            for f, d, ub, pb in changed],
                      "exit_path": exit_, "same_code": same}


def fn_list(changed):
    out = []
    for f, d, ub, pb in changed:
        if ub is None:
            what = "new"
        elif pb is None:
            what = "gone"
        else:
            what = f"{ub}->{pb} bytes"
        out.append(f"`{f}` {d:+} ({what})")
    return ", ".join(out)


def sentence(case, c, succeeded):
    """One sentence: where a profiled call's difference is."""
    changed, exit_, same = split(c)
    conv = [x for x in changed if not x[0].startswith(MECHANISM)]
    mech = [x for x in changed if x[0].startswith(MECHANISM)]
    parts = []
    if conv:
        parts.append(f"{sum(d for _, d, _, _ in conv):+} in the call's own code the series "
                     f"changed ({fn_list(conv)})")
    elif succeeded:
        parts.append("+0 in the call's own code")
    if mech:
        parts.append(f"{sum(d for _, d, _, _ in mech):+} in the mechanism ({fn_list(mech)})")
    if exit_:
        parts.append(f"{exit_:+} in the exit path every call takes (`{EXIT}`, as in getppid())")
    if same:
        top = sorted(((r["difference"], r["function"]) for r in c["rows"]
                      if r["difference"] and r["function"] != EXIT and
                      r.get("patched_bytes") == r.get("unpatched_bytes")),
                     key=lambda x: -abs(x[0]))[:3]
        parts.append(f"{same:+} in functions whose code is the same in both kernels, run more "
                     "or less often (another path through allocator, page-table or scheduler "
                     "state, or called more by changed code: "
                     + ", ".join(f"`{f}` {d:+}" for d, f in top) + ")")
    return (f"{PROFILED[case]}: {signed(c['difference'])} "
            f"({fmt(c['unpatched_total'])} -> {fmt(c['patched_total'])}): " + "; ".join(parts) + ".")


def table(md, c, limit=30):
    w = md.append
    w("| function | unpatched | patched | difference | bytes unpatched | bytes patched |")
    w("|---|---:|---:|---:|---:|---:|")
    rs = c["rows"]
    shown = rs if len(rs) <= limit else [r for r in rs if r["difference"]]
    for r in shown:
        w(f"| `{r['function']}` | {fmt(r['unpatched'])} | {fmt(r['patched'])} | "
          f"{signed(r['difference'])} | {fmt(r.get('unpatched_bytes'))} | "
          f"{fmt(r.get('patched_bytes'))} |")
    rest = [r for r in rs if r not in shown]
    if rest:
        w(f"| {len(rest)} other functions, the same count in both | "
          f"{fmt(sum(r['unpatched'] for r in rest))} | {fmt(sum(r['patched'] for r in rest))} "
          "| +0 | | |")
    w(f"| **total** | **{fmt(c['unpatched_total'])}** | **{fmt(c['patched_total'])}** | "
      f"**{signed(c['difference'])}** | | |")
    w("")


def markdown(krows, prof, quick, left):
    md = ["### The converted calls: a success and a typical failure of each (issues 20, 22)\n"]
    w = md.append
    w("openat2(), clone3(), sched_setattr(), mount_setattr(), io_uring_setup() (the uapi "
      "domain, patches 0033-0039), mount(2) with the filesystem's words (0055-0057) and "
      "VIDIOC_S_FMT on vivid's capture node (0049): `bench/guest/kbench`, as above, "
      "instructions per iteration on both kernels; each success repeats without anything "
      "accumulating, so some are timed with their undoing (`+`), and each runs with nothing "
      "pending (a kept description keeps the exit work armed). The failures are the "
      "selftests' unknown-bits cases. The requests are in `bench/guest/kreq.h`.\n")
    w("| case | patched | unpatched | added | patched/unpatched | repetitions spread |")
    w("|---|---:|---:|---:|---:|---:|")
    for r in krows:
        w(f"| {r['label']} | {fmt(r['patched'])} | {fmt(r['unpatched'])} | {r['added']:+.1f} | "
          f"{r['ratio']:.4f} | {spread(r):.1f}% |")
    w("")
    w("The spread is the largest (max - min) / min of one kernel's repetitions: where it is "
      "above the added instructions, the difference is within what varies from run to run, "
      "and the profile below is the measure.\n")
    for k, what in (("desc_fail_mount_option", "the refused mount's description"),
                    ("left_s_fmt_adjusted", "the adjusted S_FMT's note (`PR_ERR_DESC_NOTES`)")):
        if left.get(k):
            w(f"- {what}: `{left[k]}`")
    # A success must leave nothing, not even a note: kbench prints what one
    # more call left on the patched kernel.
    bad = [k for k in CASES if not k.startswith("fail_") and k != "s_fmt_adjusted"
           and left.get(f"left_{k}", "none") != "none"]
    if any(f"left_{k}" in left for k in CASES):
        w("- " + ("every other success left nothing to fetch (`PR_ERR_DESC_NOTES`)" if not bad else
                  "**a success left a description or note**: " + ", ".join(
                      f"{k}: `{left[f'left_{k}']}`" for k in bad)))
    w("")
    if not prof.get("measured"):
        w(f"Profile: {prof.get('reason', 'not measured')}.\n")
        return md
    w("**Where the difference is** (`bench/profile`, one call single-stepped as above; "
      "a function's size in bytes tells code the series changed from code that is the same "
      "in both kernels). A success's iteration in kbench also holds what the profile of the "
      "call alone does not: the user-space loop, the undoing call (profiled too where it is "
      "cheap), and work the kernel defers to another task or to RCU, whose amount varies "
      "from run to run (the repetitions are in `results.json`).\n")
    w("| call, profiled alone | unpatched | patched | difference | the call's own changed code "
      "| mechanism | exit path | same-size code |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|")
    for p, label in PROFILED.items():
        c = prof["cases"].get(p)
        if not c or c.get("difference") is None:
            continue
        changed, exit_, same = split(c)
        own = sum(d for f, d, _, _ in changed if not f.startswith(MECHANISM))
        mech = sum(d for f, d, _, _ in changed if f.startswith(MECHANISM))
        w(f"| {label} | {fmt(c['unpatched_total'])} | {fmt(c['patched_total'])} | "
          f"{signed(c['difference'])} | {signed(own)} | {signed(mech)} | {signed(exit_)} | "
          f"{signed(same)} |")
    w("")
    for k, (label, profs, extra) in CASES.items():
        have = [p for p in profs if p in prof["cases"] and
                prof["cases"][p].get("difference") is not None]
        kb = next((r for r in krows if r["case"] == k), None)
        head = f"- **{label}**: kbench {r_added(kb)}"
        if extra:
            head += f" (with {extra})"
        if not have:
            why = " in `--quick` (it single-steps for minutes)" if quick else ""
            w(head + f"; not profiled{why}.")
            continue
        w(head + ". " + " ".join(sentence(p, prof["cases"][p], not k.startswith("fail_"))
                                 for p in have))
    w("")
    for p, label in PROFILED.items():
        c = prof["cases"].get(p)
        if not c or c.get("difference") is None:
            continue
        w(f"**Profile: {label}**\n")
        table(md, c)
        notes = []
        for kind in ("unpatched", "patched"):
            kc = prof["kernels"].get(kind, {}).get(p)
            if not kc:
                continue
            if len(set(kc["rep_totals"])) > 1:
                notes.append(f"{kind}: the repetitions differ: {kc['rep_totals']}")
            if kc["intruders"]:
                sched = all("schedule" in f for f in kc["intruders"])
                notes.append(f"{kind}: " + (
                    "the call sleeps (`schedule()`): the trace holds what this CPU ran "
                    "meanwhile" if sched else "**interrupt or exception code in a trace**: "
                    + ", ".join(f"`{f}`" for f in kc["intruders"])))
            if not kc["returned_to_caller"]:
                notes.append(f"**{kind}: a trace returned elsewhere than to its caller**")
        for n in notes:
            w(f"- {n}")
        if notes:
            w("")
    return md


def spread(r):
    return 100 * max((max(x) - min(x)) / min(x) for x in (r["patched_reps"], r["unpatched_reps"]))


def r_added(r):
    if not r:
        return "not measured"
    return (f"{fmt(r['unpatched'])} -> {fmt(r['patched'])} per iteration "
            f"({r['added']:+.1f})")
