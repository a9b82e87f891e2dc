#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: compare.py PATCHED_CONSOLE UNPATCHED_CONSOLE

Check what strace_cases printed in the guest, on the patched and the
unpatched kernel (kernel/tests/strace/run). Prints "ok NAME" or
"FAIL NAME: why" for each check; exit status 0 when all hold.

(a) Patched kernel: every traced call of kerr_workload whose description
    the workload itself then read with prctl shows exactly that
    description, in the format computed here from the JSON, and the
    rest of its line is upstream strace's; every other line is upstream
    strace's byte for byte. The selftests pass under the patched strace
    (it left their descriptions to them) and their failing lines show
    descriptions.
(b) Among those calls, one fails with no description right after one
    with a description (and one with the same errno): no description on
    its line.
(c) Unpatched kernel: the patched strace prints what upstream strace
    prints, in every mode, and asks the kernel once at most.
(d) --kernel-errors=no: upstream output on the patched kernel too, and
    no request at all.
(e) Descriptions are opt-in, and neither strace_cases nor the workload
    enables them: under upstream strace the workload reads none on the
    patched kernel, so those of (a) are there because the patched
    strace enabled them for itself and its tracees.
(f) strace -p: the patched strace attached to the workload, started on
    its own without descriptions, enables them for it
    (PTRACE_SET_ERR_DESC_ENABLED): the trace is (a)'s and (b)'s, against
    the same upstream lines.
Process and thread ids, the address of strace's environment and the
random bytes glibc reads at start are the only things normalised."""
import json
import re
import sys

PLAIN = re.compile(r'^[A-Za-z0-9_.:/+-]+$')


def quote(text, quotes):
    """strace's string_quote() for decoded JSON text (its bytes)."""
    out = ''
    data = text.encode('utf-8')
    for i, b in enumerate(data):
        c = chr(b)
        if c in '"\\':
            out += '\\' + c
        elif c in '\f\n\r\t\v':
            out += '\\' + {'\f': 'f', '\n': 'n', '\r': 'r', '\t': 't',
                           '\v': 'v'}[c]
        elif 0x20 <= b < 0x7f:
            out += c
        else:
            nxt = data[i + 1] if i + 1 < len(data) else 0
            # Octal, three digits when a digit follows (as strace does).
            if 0x30 <= nxt <= 0x37:
                out += '\\%03o' % b
            else:
                out += '\\%o' % b
    return '"' + out + '"' if quotes else out


def expected_bracket(desc, verbose):
    """What the patched strace appends for this JSON description."""
    text = ' ['
    if desc['code'] == 0:
        text += ('note' if desc['severity'] == 'info' else 'warning') + ': '
    text += quote(desc.get('id', desc['module']), False) + ': '
    text += quote(desc['message'], False)
    items = []
    known = {'code', 'id', 'module', 'file', 'line', 'message', 'syscall',
             'severity'}
    for key, value in desc.items():
        if key == 'values':
            for name, v in value.items():
                items.append(quote(name, False) + '=' + str(v))
        elif key not in known:
            if isinstance(value, str):
                v = quote(value, not PLAIN.match(value))
            else:
                v = quote(json.dumps(value, separators=(',', ':'),
                                      ensure_ascii=False), False)
            items.append(quote(key, False) + '=' + v)
    if items:
        text += ': ' + ' '.join(items)
    if verbose:
        text += ' (%s:%d)' % (quote(desc['file'], False), desc['line'])
    return text + ']'


def parse_console(path):
    runs, kernel, done, cur = {}, None, False, None
    for raw in open(path, encoding='utf-8', errors='surrogateescape'):
        line = raw.rstrip('\n').rstrip('\r')
        m = re.match(r'^=== KERNEL (\S+) node (\S+)$', line)
        if m:
            kernel = m.group(1)
            continue
        m = re.match(r'^=== BEGIN (\S+)$', line)
        if m:
            cur = m.group(1)
            runs[cur] = {'trace': [], 'out': [], 'status': None}
            continue
        m = re.match(r'^=== END (\S+) status (\d+)$', line)
        if m and m.group(1) == cur:
            runs[cur]['status'] = int(m.group(2))
            cur = None
            continue
        if line == '=== DONE':
            done = True
        elif cur and line.startswith('T '):
            runs[cur]['trace'].append(line[2:])
        elif cur and line.startswith('O '):
            runs[cur]['out'].append(line[2:])
    return runs, kernel, done


NORMALISE = (
    # strace -f: the process ids ("[pid N] " on a terminal, "N  " in a
    # file).
    (re.compile(r'^\[pid +\d+\] '), '[pid N] '),
    (re.compile(r'^\d+ +'), 'PID '),
    # The full traces: where strace's own environment sits (execve's
    # envp is strace's), the thread id, and the random bytes glibc asks
    # for at start.
    (re.compile(r', 0x[0-9a-f]+ (/\* \d+ vars \*/\) = )'), r', ENVP \1'),
    (re.compile(r'^(set_tid_address\(0x[0-9a-f]+\) += )\d+$'), r'\1TID'),
    (re.compile(r'^getrandom\("[^"]*"'), 'getrandom("RANDOM"'),
)


def normalise(lines):
    out = []
    for line in lines:
        for pattern, repl in NORMALISE:
            line = pattern.sub(repl, line)
        out.append(line)
    return out


class Checker:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, name, problems):
        if problems:
            self.failed += 1
            print('FAIL %s: %s' % (name, '; '.join(problems[:5])))
        else:
            self.passed += 1
            print('ok %s' % name)


def records(run):
    """The workload's CALL lines: (name, ret, errno, description or None)."""
    out = []
    for line in run['out']:
        m = re.match(r'^CALL (\S+) (-?\d+) (\d+) (.*)$', line)
        if m:
            desc = None if m.group(4) == '-' else json.loads(m.group(4))
            out.append((m.group(1), int(m.group(2)), int(m.group(3)), desc))
    return out


def same(c, name, a, b, what):
    problems = []
    if a['status'] != 0 or b['status'] != 0:
        problems.append('exit status %s and %s' % (a['status'], b['status']))
    la, lb = normalise(a['trace']), normalise(b['trace'])
    if not la:
        problems.append('no trace')
    if la != lb:
        for i, (x, y) in enumerate(zip(la + [''] * len(lb), lb + [''] * len(la))):
            if x != y:
                problems.append('%s, line %d: %r != %r' % (what, i + 1, x, y))
                break
    c.check(name, problems)


def check_workload(c, runs, mode):
    """(a) and (b): run work-MODE against work-upstream and the records."""
    name = 'work-' + mode
    up, run = runs.get('work-upstream'), runs.get(name)
    if not up or not run:
        c.check(name + '-described', ['missing run'])
        return
    problems = []
    recs = records(run)
    if run['status'] != 0 or up['status'] != 0:
        problems.append('exit status %s / %s' % (run['status'], up['status']))
    if len(recs) != len(run['trace']) or len(up['trace']) != len(run['trace']):
        problems.append('%d calls, %d traced lines, %d upstream lines' %
                        (len(recs), len(run['trace']), len(up['trace'])))
    shown = notes = 0
    for i, (rec, line, upl) in enumerate(zip(recs, run['trace'], up['trace'])):
        cname, ret, err, desc = rec
        if not line.startswith(cname + '('):
            problems.append('line %d is not %s: %r' % (i + 1, cname, line))
            continue
        want = upl
        if desc is not None and (desc['code'] != 0 or mode == 'verbose'):
            want = upl + expected_bracket(desc, mode == 'verbose')
            if desc['code'] == 0:
                notes += 1
            else:
                shown += 1
        if line != want:
            problems.append('line %d: %r, want %r' % (i + 1, line, want))
    failing = [r for r in recs if r[1] < 0]
    if shown < 5:
        problems.append('only %d described failures' % shown)
    if mode == 'verbose' and not notes:
        problems.append('no note shown')
    c.check(name + '-described', problems)

    # (b): an undescribed failure right after a described one, and one
    # with the same errno.
    problems = []
    pairs = [(a, b) for a, b in zip(recs, recs[1:])
             if a[1] < 0 and a[3] and b[1] < 0 and not b[3]]
    if not pairs:
        problems.append('no undescribed failure after a described one')
    if not any(a[2] == b[2] for a, b in pairs):
        problems.append('none with the same errno')
    if len(failing) == shown:
        problems.append('every failure described')
    c.check(name + '-undescribed-after-described', problems)


def check_selftest(c, runs, test):
    """The selftest passes under the patched strace, and its failing lines
    carry descriptions; only failing (or, never here, noted) lines do."""
    run = runs.get(test + '-patched')
    problems = []
    if not run:
        c.check(test + '-selftest-described', ['missing run'])
        return
    if run['status'] != 0:
        problems.append('the selftest failed under strace (status %s)' % run['status'])
    lines = [l for l in run['trace'] if ' [' in l and re.search(r'\) += ', l)]
    described = [l for l in lines if re.search(r' = -1 E[A-Z0-9]+ \([^)]*\) \[', l)]
    if len(described) < 5:
        problems.append('only %d described lines' % len(described))
    for l in run['trace']:
        m = re.search(r' = (\S+)(?: E[A-Z0-9]+ \([^)]*\))? \[', l)
        if m and m.group(1) != '-1':
            problems.append('a description on a successful line: %r' % l)
            break
    c.check(test + '-selftest-described', problems)


def check_attach(c, runs):
    """(f): attach-patched's trace with its workload's records, checked as
    work-MODE is by check_workload()."""
    run, out = runs.get('attach-patched'), runs.get('attach-patched-workload')
    if not run or not out:
        c.check('work-attach-described', ['missing run'])
        return
    problems = []
    if not any(l.startswith('ENABLED yes ') for l in out['out']):
        problems.append('the workload was not enabled: %r' % out['out'][:1])
    c.check('attach-patched-strace-enables-tracee', problems)
    merged = dict(runs)
    merged['work-attach'] = {'trace': run['trace'], 'out': out['out'],
                             'status': run['status'] or out['status']}
    check_workload(c, merged, 'attach')


def count_requests(run):
    return sum(1 for l in run['trace'] if 'ptrace(0x4212' in l)


def main():
    consoles = {}
    for kernel, path in (('patched', sys.argv[1]), ('unpatched', sys.argv[2])):
        runs, kind, done = parse_console(path)
        if not done:
            print('FAIL: the %s kernel run did not finish (%s)' % (kernel, path))
            return 1
        consoles[kernel] = (runs, kind)
    c = Checker()
    runs, kind = consoles['patched']
    c.check('patched-kernel-has-exterr', [] if kind == 'exterr' else ['no exterr'])
    # (a), (b)
    check_workload(c, runs, 'patched')
    check_workload(c, runs, 'verbose')
    check_selftest(c, runs, 'perf')
    check_selftest(c, runs, 'v4l2')
    n = count_requests(runs.get('probe-yes', {'trace': []}))
    fails = sum(1 for r in records(runs['work-patched']) if r[1] < 0) \
        if 'work-patched' in runs else -1
    c.check('patched-kernel-one-request-per-failure',
            [] if n == fails else ['%d requests for %d failures' % (n, fails)])
    n = count_requests(runs.get('probe-verbose', {'trace': []}))
    calls = len(records(runs['work-patched'])) if 'work-patched' in runs else -1
    c.check('patched-kernel-verbose-one-request-per-call',
            [] if n == calls else ['%d requests for %d calls' % (n, calls)])
    # (d)
    for test in ('work', 'full', 'perf', 'v4l2'):
        if test + '-off' not in runs or test + '-upstream' not in runs:
            c.check('patched-kernel-off-%s' % test, ['missing run'])
            continue
        same(c, 'patched-kernel-off-%s' % test, runs[test + '-upstream'],
             runs[test + '-off'], 'upstream vs --kernel-errors=no')
    n = count_requests(runs.get('probe-off', {'trace': []}))
    c.check('patched-kernel-off-no-request', [] if n == 0 else ['%d requests' % n])
    # (e)
    up = runs.get('work-upstream')
    c.check('patched-kernel-upstream-strace-enables-nothing',
            ['missing run'] if not up else
            ['%s read %s' % (r[0], json.dumps(r[3])) for r in records(up) if r[3]])

    # (f)
    check_attach(c, runs)

    # (c)
    runs, kind = consoles['unpatched']
    c.check('unpatched-kernel-has-no-exterr', [] if kind == 'plain' else [kind])
    for test, mode in (('work', 'patched'), ('full', 'patched'),
                       ('perf', 'patched'), ('v4l2', 'patched'),
                       ('work', 'verbose'), ('full', 'verbose'),
                       ('work', 'off'), ('full', 'off')):
        a, b = runs.get(test + '-upstream'), runs.get('%s-%s' % (test, mode))
        if not a or not b:
            c.check('unpatched-kernel-%s-%s' % (test, mode), ['missing run'])
            continue
        same(c, 'unpatched-kernel-%s-%s' % (test, mode), a, b,
             'upstream vs %s' % mode)
    for probe in ('probe-yes', 'probe-verbose'):
        n = count_requests(runs.get(probe, {'trace': []}))
        c.check('unpatched-kernel-%s-at-most-one-request' % probe,
                [] if n == 1 else ['%d requests' % n])
    print('%d checks passed, %d failed' % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == '__main__':
    sys.exit(main())
