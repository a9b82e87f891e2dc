#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: compare.py CASES PATCHED_CONSOLE UNPATCHED_CONSOLE

Check what perf_cases printed in the guest. The consoles hold the output
of /perf-upstream (the pristine tree's perf), /perf-patched (with
libexterr) and /perf-nolibexterr (its own reader) for every case of CASES,
on the patched and the unpatched kernel. For each failing case:
- on the patched kernel, the patched perfs print "The kernel says: " with
  the kernel's message and the attribute or argument it names, exactly
  once; without that line their output is upstream perf's, byte for byte;
- on the unpatched kernel every perf prints exactly what upstream perf
  prints; upstream perf prints the same on both kernels;
- both patched perfs print the same (libexterr and perf's own reader);
and a case marked "ok" succeeds with every perf on both kernels.
perf stat's timings and counts are the only thing normalised away.
Exit status 0 when all hold."""
import re
import sys

MARK = 'The kernel says: '
PERFS = ('/perf-upstream', '/perf-patched', '/perf-nolibexterr')


def parse_cases(path):
    cases = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = [p.strip() for p in line.split(' ## ')]
        name = parts[0].split()[0]
        if parts[1:] == ['ok']:
            cases.append((name, None, None, None))
            continue
        message, target = parts[1], parts[2].split()
        kind, what = (target[0], target[1]) if target[0] != 'none' else (None, None)
        cases.append((name, message, kind, what))
    return cases


STAT = re.compile(r'seconds (time elapsed|user|sys)|msec |CPUs utilized')


def normalise(line):
    """perf stat's numbers change run to run, and so does its "# ... CPUs
    utilized" comment, which it leaves out when no time passed on the
    guest's clock; nothing else does. A count can also be "<not counted>":
    on a loaded host the event of a process as short as /true may never be
    scheduled in (seen with upstream perf on the unpatched kernel and not
    in the next run), which is a value like any other."""
    if STAT.search(line):
        line = line.split('#')[0]
        return ' '.join(re.sub(r'<not counted>|[0-9][0-9.,]*', 'N', line).split())
    return line


def parse_console(path):
    runs = {}
    cur = None
    done = False
    for raw in open(path, encoding='utf-8', errors='replace'):
        line = raw.rstrip('\n')
        m = re.match(r'^=== BEGIN (\S+) (\S+)$', line)
        if m:
            cur = (m.group(1), m.group(2))
            runs[cur] = {'lines': [], 'status': None}
            continue
        m = re.match(r'^=== END (\S+) (\S+) status (\d+)$', line)
        if m and cur == (m.group(1), m.group(2)):
            runs[cur]['status'] = int(m.group(3))
            cur = None
            continue
        if line == '=== DONE':
            done = True
        if cur and line.startswith('| '):
            runs[cur]['lines'].append(normalise(line[2:]))
        elif cur and line == '|':
            runs[cur]['lines'].append('')
    return runs, done


def main():
    cases = parse_cases(sys.argv[1])
    consoles = {}
    for kernel, path in (('patched', sys.argv[2]), ('unpatched', sys.argv[3])):
        runs, done = parse_console(path)
        if not done:
            print('FAIL: the %s kernel run did not finish (%s)' % (kernel, path))
            return 1
        consoles[kernel] = runs
    failed = 0
    for name, message, kind, what in cases:
        problems = []

        def get(kernel, perf):
            run = consoles[kernel].get((perf, name))
            if not run or run['status'] is None:
                problems.append('%s on the %s kernel: no output' % (perf, kernel))
                return {'lines': [], 'status': None}
            return run

        runs = {(k, p): get(k, p) for k in consoles for p in PERFS}
        if problems:
            failed += 1
            print('FAIL %s: %s' % (name, '; '.join(problems)))
            continue
        up = {k: runs[(k, '/perf-upstream')] for k in consoles}
        if up['patched'] != up['unpatched']:
            problems.append('upstream perf differs between the kernels')
        if message is None:
            for (k, p), run in runs.items():
                text = '\n'.join(run['lines'])
                if run['status'] != 0 or 'task-clock' not in text or MARK in text:
                    problems.append('%s on the %s kernel did not succeed plainly' % (p, k))
        else:
            if up['patched']['status'] == 0 and not any(
                    '<not supported>' in l for l in up['patched']['lines']):
                problems.append('upstream perf does not fail: not a failing case')
            want = MARK + message
            if kind == 'attr':
                want += ' (perf_event_attr.%s)' % what
            elif kind == 'arg':
                want += ' (perf_event_open() argument %s)' % what
            for p in PERFS[1:]:
                run = runs[('patched', p)]
                said = [l for l in run['lines'] if MARK in l]
                if len(said) != 1 or not said[0].endswith(want):
                    problems.append('%s on the patched kernel: want one line ending %r, got %r'
                                    % (p, want, said))
                rest = [l for l in run['lines'] if MARK not in l]
                if rest != up['patched']['lines'] or run['status'] != up['patched']['status']:
                    problems.append('%s on the patched kernel: output besides the kernel line '
                                    'differs from upstream perf' % p)
                if run != runs[('patched', PERFS[1])]:
                    problems.append('%s and %s differ on the patched kernel' % (p, PERFS[1]))
            for p in PERFS[1:]:
                if runs[('unpatched', p)] != up['unpatched']:
                    problems.append('%s on the unpatched kernel differs from upstream perf' % p)
        if problems:
            failed += 1
            print('FAIL %s: %s' % (name, '; '.join(problems)))
            for (k, p), run in sorted(runs.items()):
                print('  --- %s on the %s kernel (status %s)' % (p, k, run['status']))
                for l in run['lines']:
                    print('  | ' + l)
        else:
            print('ok %s' % name)
    print('%d cases, %d failed' % (len(cases), failed))
    return 1 if failed else 0


sys.exit(main())
