"""``python -m exterr decode FILE|-``: show a description for people.

Prints the libexterr one-line form, then every member and domain key (and
the id, a note's severity and the runtime values, when there are any).
Exit status 0 on success, 1 (with a message on stderr) when the input
cannot be read or is not a valid description, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, Sequence, TextIO

from ._errors import ParseError
from ._extended import ExtendedError
from ._parse import parse

PROG = "python -m exterr"


def render(err: ExtendedError) -> str:
    """The text ``decode`` prints for one description."""
    lines = [
        str(err),
        f"  errno    {err.errno} ({err.strerror})",
        f"  module   {err.module}",
        f"  message  {err.message!r}",
        f"  file     {err.file}:{err.line}",
        f"  syscall  {'-' if err.syscall is None else err.syscall}",
    ]
    # The v2 members only when present, so a v1 description shows as before.
    if err.id is not None:
        lines.append(f"  id       {err.id}")
    if err.is_note:
        lines.append(f"  severity {err.severity}")
    if err.fields_raw:
        lines.append("  fields:")
        width = max(len(f.name) for f in err.fields_raw)
        for f in err.fields_raw:
            # repr() for strings makes spaces, quotes and controls visible.
            shown = repr(f.text) if f.type == "string" else f.text
            lines.append(f"    {f.name:<{width}}  {f.type:<7}  {shown}")
    else:
        lines.append("  fields:  (none)")
    if err.values:
        lines.append("  values:")
        width = max(len(name) for name in err.values)
        for name, value in err.values.items():
            lines.append(f"    {name:<{width}}  {value}")
    return "\n".join(lines) + "\n"


def _read(path: str, stdin: BinaryIO) -> bytes:
    if path == "-":
        return stdin.read()
    with open(path, "rb") as f:
        return f.read()


def main(
    argv: Sequence[str] | None = None,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    out = stdout or sys.stdout
    errout = stderr or sys.stderr
    parser = argparse.ArgumentParser(
        prog=PROG, description="Tools for exterr descriptions (kernel error JSON)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    dec = sub.add_parser(
        "decode", help="pretty-print a description read from FILE, or stdin for -"
    )
    dec.add_argument("file", metavar="FILE|-")
    args = parser.parse_args(argv)

    name = "<stdin>" if args.file == "-" else args.file
    try:
        data = _read(args.file, stdin or sys.stdin.buffer)
    except OSError as e:
        print(f"{PROG} decode: cannot read {name}: {e.strerror or e}", file=errout)
        return 1
    try:
        err = parse(data)
    except ParseError as e:
        print(f"{PROG} decode: {name}: not a valid exterr description: {e}", file=errout)
        return 1
    out.write(render(err))
    return 0


if __name__ == "__main__":
    sys.exit(main())
