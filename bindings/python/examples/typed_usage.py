"""A typed tour of the exterr API; ``check`` runs mypy --strict on it.

Run it on any kernel: where exterr is missing, fetch() says so and
translate() leaves errors as they are.
"""

from __future__ import annotations

import os
import sys
from typing import Mapping

import exterr

SAMPLE = (
    b'{"code":-22,"module":"perf","file":"kernel/events/core.c","line":12883,'
    b'"message":"sample_freq above kernel.perf_event_max_sample_rate",'
    b'"syscall":298,"attr_field":"sample_freq"}'
)
NOTE = (
    b'{"code":0,"severity":"warning","id":"m.value.clamped","module":"m",'
    b'"file":"f.c","line":1,"message":"clamped","values":{"max":18446744073709551615}}'
)


def describe(err: exterr.ExtendedError) -> str:
    """One line per domain key, from the typed mapping."""
    fields: Mapping[str, exterr.JSONValue] = err.fields
    return "\n".join(f"{name} = {value!r}" for name, value in fields.items())


def open_or_explain(path: str) -> int:
    """os.open(), with the kernel's explanation when it has one."""
    try:
        return exterr.call(os.open, path, os.O_RDONLY)
    except FileNotFoundError as err:
        # Caught on every kernel; str(err) names the path either way.
        desc = exterr.description_of(err)
        if desc is not None:
            print(f"{err}\n  kernel: {desc} (syscall {desc.syscall})", file=sys.stderr)
        else:
            print(f"{err}", file=sys.stderr)
        return -1


def size_or_explain(fd: int) -> int:
    """os.fstat(), reporting an ExtendedError's fields when there is one."""
    try:
        return exterr.call(os.fstat, fd).st_size
    except exterr.ExtendedError as err:
        # Also an instance of the OSError subclass fstat raised.
        fields: Mapping[str, exterr.JSONValue] = err.fields
        print(f"{err}: {err.module} {dict(fields)}", file=sys.stderr)
        raise


def main() -> int:
    """Parse a sample, try a fetch, and wrap a failing call."""
    err = exterr.parse(SAMPLE)
    print(err)
    print(describe(err))
    raw: tuple[exterr.Field, ...] = err.fields_raw
    print([(f.name, f.type, f.text) for f in raw])

    # v2: a stable id, a severity ("error", or "info"/"warning" for a note)
    # and runtime values as exact ints.
    note = exterr.parse(NOTE)
    ident: str | None = note.id
    severity: exterr.Severity = note.severity
    values: Mapping[str, int] = note.values
    print(note, ident, severity, note.is_note, dict(values))

    has_exterr: bool = exterr.supported()  # consumes nothing
    try:
        pending = exterr.fetch()
        # notes=True: a successful call's note too (is_note, errno 0).
        pending_or_note: exterr.ExtendedError | None = exterr.fetch(notes=True)
    except exterr.Unsupported:
        assert not has_exterr
        print("this kernel has no exterr")
    else:
        print("pending:", pending, pending_or_note)

    try:
        exterr.parse(b"{")
    except exterr.ParseError as e:
        # position/line/column are int | None: None when there is no place.
        where = "no place" if e.position is None else f"byte {e.position}, line {e.line}"
        print(e.error_class, e.errno, where, e.reason)

    with exterr.translate():
        pass
    with open(__file__, "rb") as f:
        print("size:", size_or_explain(f.fileno()))
    return 0 if open_or_explain("/nonexistent/exterr-example") == -1 else 1


if __name__ == "__main__":
    sys.exit(main())
