# SPDX-License-Identifier: LGPL-2.1-or-later
"""What every runner shares: find the cases, compare, count, report.

A runner only supplies describe(input_path) -> the canonical object its
implementation builds for that input (contract section 5). Bindings in
other languages do the same loop in their own test framework; this one is
for the implementations driven from Python (the reference, libexterr).
"""
import json
import os
import sys

CASES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "cases")


def case_names(selected=()):
    names = sorted(n for n in os.listdir(CASES)
                   if os.path.isdir(os.path.join(CASES, n)))
    if selected:
        missing = set(selected) - set(names)
        if missing:
            sys.exit("no such case: " + ", ".join(sorted(missing)))
        names = [n for n in names if n in selected]
    return names


def same(a, b):
    """JSON equality: Python's == would take True for 1 and 1 for 1.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    return a == b


def _show(label, obj, limit=400):
    # ASCII so control characters and invalid bytes stay visible; cut, as
    # a 64 KiB message would bury the report.
    text = json.dumps(obj, ensure_ascii=True, sort_keys=True)
    if len(text) > limit:
        text = text[:limit] + "... (%d characters)" % len(text)
    return label + " " + text


def run(describe, selected=(), verbose=False):
    """Runs describe() on every case; prints and returns the failure count."""
    passed = failed = 0
    for name in case_names(selected):
        folder = os.path.join(CASES, name)
        with open(os.path.join(folder, "expected.json"), "rb") as f:
            want = json.loads(f.read().decode("utf-8"))
        try:
            got = describe(os.path.join(folder, "input"))
        except Exception as e:  # one broken case must not hide the others
            got = {"runner-error": str(e)}
        if same(got, want):
            passed += 1
            if verbose:
                print("PASS:", name)
            continue
        failed += 1
        print("FAIL:", name)
        print("   ", _show("want", want))
        print("   ", _show("got ", got))
    print("%d passed, %d failed" % (passed, failed))
    return failed
