#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""describe FILE...: the conformance suite's canonical object, through exterr.

For each FILE, parse its bytes with the installed ``exterr`` package and
print the object of docs/contract.md section 5 as one line of JSON, in
order; the same command line and output as conformance/c/describe.c, which
``conformance/run`` compares it with. Only the binding's public API is
used; tests/test_conformance.py loads this file and uses its
``canonical`` too.

Exit status 0 when a result (ok or reject) was printed for every FILE, 1
otherwise: a FILE that cannot be read, or whose result is not valid UTF-8,
gets the line ``{"describe-error": "..."}`` and a message on stderr.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import exterr


def canonical(data: bytes) -> dict[str, Any]:
    """The contract's section 5 object, from the binding's API only."""
    try:
        err = exterr.parse(data)
    except exterr.ParseError as e:
        # Where, as the binding reports it (None: no place); the reason's
        # English words are not compared, only that there is one.
        return {
            "result": "reject",
            "class": e.error_class,
            "position": e.position,
            "line": e.line,
            "column": e.column,
            "has-reason": bool(e.reason),
        }
    return {
        "result": "ok",
        "error": err.errno,
        "module": err.module,
        "message": err.message,
        "file": err.file,
        "line": err.line,
        "syscall": -1 if err.syscall is None else err.syscall,
        "fields": [{"name": f.name, "type": f.type, "value": f.text} for f in err.fields_raw],
        "id": err.id,
        "severity": err.severity,
        # Decimal strings, so that no JSON reader rounds 2**64 - 1.
        "values": [{"name": name, "value": str(value)} for name, value in err.values.items()],
        "format": str(err),
    }


def line(path: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    # Strict encoding: a surrogate-escaped byte from the binding (text that
    # is not UTF-8) is a bug to report, not something to print.
    return json.dumps(canonical(data), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def main(args: list[str]) -> int:
    if not args:
        print("usage: describe FILE...", file=sys.stderr)
        return 1
    status = 0
    out = sys.stdout.buffer
    for path in args:
        try:
            text = line(path)
        except (OSError, UnicodeError, ValueError) as e:
            print(f"describe: {path}: {e}", file=sys.stderr)
            text = json.dumps({"describe-error": str(e)}).encode("ascii")
            status = 1
        out.write(text + b"\n")
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
