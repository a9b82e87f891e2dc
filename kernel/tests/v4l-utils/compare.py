#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: compare.py PATCHED.console UNPATCHED.console

The v4l2-compliance results of kernel/tests/v4l-utils/guest-compliance on
the patched and the unpatched kernel. A change in a driver subsystem is
judged by v4l2-compliance: every node must give the same tests, in the
same order, with the same results ("OK", "OK (Not Supported)", "FAIL")
on both kernels, and its "Total for ..." line the same numbers of tests,
successes and failures. Prints the counts per node; exits 1 on any
difference, or when a console holds no node or a node no test or no
total (a crashed run is not "identical").

Warnings are printed for both kernels but not compared: under TCG some
depend on timing. The request test's "vivid_ro_ctrl.value !=
(int)(num_bufs - 1)" (the read-only control a request sets when vivid's
thread takes its buffer) shows once or twice on the same kernel from one
run to the next.
"""
import difflib
import re
import sys

NODE = re.compile(r"^=== node (\S+): (.*)$")
END = re.compile(r"^=== end (\S+): exit (\d+), (\d+)s$")
# The streaming tests' progress ("\tVideo Capture: Frame #000\r") shares
# the console line of the result once vm-run drops the carriage returns:
# the result is the line's last "\ttest NAME: RESULT".
TEST = re.compile(r"(?:^|\t)test ([^\t]*): (OK \(Not Supported\)|OK|FAIL)\s*$")
TOTAL = re.compile(r"^Total for .*: (\d+), Succeeded: (\d+), Failed: (\d+), "
                   r"Warnings: (\d+)\s*$")
# Section headings ("Buffer ioctls (Input 0):") say which input or
# output the tests after them are about: part of each test's name.
SECTION = re.compile(r"^(\S.*):\s*$")


def parse(path):
    """{node: {"tests": [(section, name, result)], "total": (...), ...}}"""
    nodes = {}
    order = []
    cur = None
    section = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = NODE.match(line)
            if m:
                cur = {"cmd": m.group(2), "tests": [], "total": None,
                       "exit": None, "seconds": None}
                nodes[m.group(1)] = cur
                order.append(m.group(1))
                section = ""
                continue
            if cur is None:
                continue
            m = END.match(line)
            if m:
                cur["exit"] = int(m.group(2))
                cur["seconds"] = int(m.group(3))
                cur = None
                continue
            m = TEST.search(line)
            if m:
                cur["tests"].append((section, m.group(1), m.group(2)))
                continue
            m = TOTAL.match(line)
            if m:
                cur["total"] = tuple(int(x) for x in m.groups())
                continue
            m = SECTION.match(line)
            if m:
                section = m.group(1)
    return order, nodes


def counts(node):
    res = [t[2] for t in node["tests"]]
    return (f"{len(res)} tests: {res.count('OK')} OK, "
            f"{res.count('OK (Not Supported)')} not supported, "
            f"{res.count('FAIL')} FAIL")


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    porder, patched = parse(sys.argv[1])
    uorder, unpatched = parse(sys.argv[2])
    bad = 0
    if not porder:
        print("FAIL: no v4l2-compliance node in the patched kernel's console")
        return 1
    if porder != uorder:
        print(f"FAIL: nodes differ: patched {porder}, unpatched {uorder}")
        bad += 1
    for dev in porder:
        p = patched[dev]
        u = unpatched.get(dev)
        if u is None:
            continue
        problems = []
        for name, n in (("patched", p), ("unpatched", u)):
            if not n["tests"]:
                problems.append(f"no test results on the {name} kernel")
            if n["total"] is None:
                problems.append(f"no 'Total for' line on the {name} kernel")
            if n["exit"] is None:
                problems.append(f"v4l2-compliance did not end on the {name} kernel")
        if p["cmd"] != u["cmd"]:
            problems.append(f"different command lines: {p['cmd']!r} {u['cmd']!r}")
        if p["tests"] != u["tests"]:
            problems.append("per-test results differ:")
            fmt = ["%s / %s: %s" % t for t in u["tests"]]
            fmt2 = ["%s / %s: %s" % t for t in p["tests"]]
            problems += ["  " + d for d in difflib.unified_diff(
                fmt, fmt2, "unpatched", "patched", lineterm="", n=1)]
        if p["total"] and u["total"] and p["total"][:3] != u["total"][:3]:
            problems.append(f"totals differ: patched {p['total'][:3]}, "
                            f"unpatched {u['total'][:3]}")
        total = p["total"]
        tot = ("total %d, succeeded %d, failed %d" % total[:3]
               if total else "no total")
        if p["total"] and u["total"]:
            tot += f", warnings {p['total'][3]}/{u['total'][3]}"
        times = f"{p['seconds']}s/{u['seconds']}s"
        if problems:
            bad += 1
            print(f"DIFFERENT {dev}: {counts(p)} ({tot}; {times})")
            for line in problems:
                print("  " + line)
        else:
            print(f"identical {dev}: {counts(p)} ({tot}; "
                  f"patched/unpatched {times})")
    print(f"{len(porder)} nodes, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
