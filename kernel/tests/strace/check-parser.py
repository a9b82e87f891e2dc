#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: check-parser.py KERR_UNIT CASES_DIR

Feed the strace patch's description reader (kerr_unit, which builds
src/kernel_errors.c with a fake kernel) every conformance case: what the
contract rejects (malformed, schema, too big) strace must not print;
every valid description it must print exactly as compare.py computes it
(here with kerr_unit's \\xHH quoting instead of strace's octal). Exit
status 0 when all hold."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def unit_quote(text, quotes):
    out = ''
    for b in text.encode('utf-8'):
        c = chr(b)
        if c in '"\\':
            out += '\\' + c
        elif 0x20 <= b < 0x7f:
            out += c
        else:
            out += '\\x%02x' % b
    return '"' + out + '"' if quotes else out


compare.quote = unit_quote
driver, cases_dir = sys.argv[1:3]
names = sorted(os.listdir(cases_dir))
paths = [os.path.join(cases_dir, n, 'input') for n in names]
out = subprocess.run([driver] + paths, check=True, capture_output=True).stdout
results = out.decode('ascii').split('\n')[:-1]
if len(results) != len(names):
    sys.exit('%d results for %d cases' % (len(results), len(names)))
failed = accepted = 0
for name, path, got in zip(names, paths, results):
    with open(os.path.join(cases_dir, name, 'expected.json')) as f:
        exp = json.load(f)
    if exp['result'] == 'reject':
        want = 'reject'
    else:
        with open(path, 'rb') as f:
            data = f.read().rstrip(b'\0')
        want = 'ok' + compare.expected_bracket(json.loads(data), False)[1:]
        # A real, or an object or array, is printed as the kernel wrote
        # it (without whitespace), not re-encoded: only its acceptance
        # is checked.
        if any(f['type'] in ('real', 'object', 'array')
               for f in exp.get('fields', [])) and got.startswith('ok'):
            want = got
    if got != 'reject':
        accepted += 1
    if got != want:
        failed += 1
        print('FAIL %s: got %r, want %r' % (name, got[:300], want[:300]))
print('%d cases (%d accepted), %d failed' % (len(names), accepted, failed))
sys.exit(1 if failed else 0)
