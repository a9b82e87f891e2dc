#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ctl-compare.py CASES PATCHED.console UNPATCHED.console

Checks the runs of kernel/tests/v4l-utils/guest-ctl (upstream v4l2-ctl as
/v4l2-ctl-upstream, the patched one as /v4l2-ctl-patched) on the patched
and the unpatched kernel:

- unpatched kernel: the patched v4l2-ctl prints exactly what upstream
  prints (standard output, standard error, exit status), every case;
- upstream v4l2-ctl prints the same on both kernels (the series changes
  no result a caller sees);
- patched kernel: the patched v4l2-ctl prints upstream's lines plus only
  lines "IOCTL: ..." of the kernel's, each right after a line of the same
  ioctl (its "failed" line, or for a note wherever the call succeeded
  silently, so anywhere), and as the case's EXPECT says: "error" a line
  "IOCTL: <strerror>: ..." right after "IOCTL: failed: ...", "note" a
  line "IOCTL: note: ..." or "IOCTL: warning: ...", "none" no line,
  "any" whatever the kernel says (still only kernel lines added).

Prints one line per check and the before/after of each described case;
exits 1 on any failure.
"""
import re
import sys

CASE = re.compile(r"^=== case (\S+) (\S+)$")
END = re.compile(r"^=== end (\S+) (\S+): exit (\d+)$")
# The contract's human line, after v4l2-ctl's "IOCTL: " prefix.
KERNEL = re.compile(r"^(VIDIOC_\w+): (note|warning|[^:\[]+): .* \[.*\] "
                    r"\(\S+:\d+\)$")
UPSTREAM = "/v4l2-ctl-upstream"
PATCHED = "/v4l2-ctl-patched"


def parse(path):
    runs = {}
    cur = None
    part = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = CASE.match(line)
            if m:
                cur = {"stdout": [], "stderr": [], "exit": None}
                runs[(m.group(1), m.group(2))] = cur
                part = None
                continue
            if cur is None:
                continue
            m = END.match(line)
            if m:
                cur["exit"] = int(m.group(3))
                cur = None
                continue
            if line in ("--- stdout", "--- stderr"):
                part = line[4:]
                continue
            if part:
                cur[part].append(line)
    return runs


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cases = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, expect = line.split()[:2]
                cases.append((name, expect))
    patched = parse(sys.argv[2])
    unpatched = parse(sys.argv[3])
    bad = 0

    def check(ok, what):
        nonlocal bad
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            bad += 1

    for name, expect in cases:
        runs = [patched.get((name, UPSTREAM)), patched.get((name, PATCHED)),
                unpatched.get((name, UPSTREAM)), unpatched.get((name, PATCHED))]
        if any(r is None or r["exit"] is None for r in runs):
            check(False, f"{name}: a run is missing")
            continue
        up_p, pa_p, up_u, pa_u = runs
        check(pa_u == up_u,
              f"{name}: unpatched kernel: patched v4l2-ctl prints what upstream prints")
        check(up_p == up_u,
              f"{name}: upstream v4l2-ctl prints the same on both kernels")
        # The patched v4l2-ctl on the patched kernel: upstream's lines and
        # the kernel's.
        added = [(i, l) for i, l in enumerate(pa_p["stdout"]) if KERNEL.match(l)]
        rest = [l for l in pa_p["stdout"] if not KERNEL.match(l)]
        check(rest == up_p["stdout"] and pa_p["stderr"] == up_p["stderr"] and
              pa_p["exit"] == up_p["exit"],
              f"{name}: patched kernel: upstream's output and only the kernel's lines added")
        errors = [(i, l) for i, l in added
                  if KERNEL.match(l).group(2) not in ("note", "warning")]
        notes = [(i, l) for i, l in added if (i, l) not in errors]
        if expect == "none":
            check(not added, f"{name}: no kernel line")
        elif expect == "error":
            follows = bool(errors) and all(
                i > 0 and pa_p["stdout"][i - 1].startswith(
                    KERNEL.match(l).group(1) + ": failed: ")
                for i, l in errors)
            check(follows and not notes,
                  f"{name}: the kernel's explanation after v4l2-ctl's 'failed' line")
        elif expect == "note":
            check(bool(notes) and not errors, f"{name}: the kernel's note")
        if added:
            print(f"  before: {' | '.join(up_p['stdout'][-3:])}")
            for _, l in added:
                print(f"  after:  {l}")
    print(f"{len(cases)} cases, {bad} failed checks")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
