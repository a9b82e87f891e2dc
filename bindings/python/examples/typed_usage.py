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


def describe(err: exterr.ExtendedError) -> str:
    """One line per domain key, from the typed mapping."""
    fields: Mapping[str, exterr.JSONValue] = err.fields
    return "\n".join(f"{name} = {value!r}" for name, value in fields.items())


def open_or_explain(path: str) -> int:
    """os.open(), with the kernel's explanation when it has one."""
    try:
        return exterr.call(os.open, path, os.O_RDONLY)
    except exterr.ExtendedError as err:
        print(f"{err} (syscall {err.syscall})", file=sys.stderr)
        raise
    except OSError as err:
        print(f"plain OSError: {err}", file=sys.stderr)
        return -1


def main() -> int:
    """Parse a sample, try a fetch, and wrap a failing call."""
    err = exterr.parse(SAMPLE)
    print(err)
    print(describe(err))
    raw: tuple[exterr.Field, ...] = err.fields_raw
    print([(f.name, f.type, f.text) for f in raw])

    try:
        pending = exterr.fetch()
    except exterr.Unsupported:
        print("this kernel has no exterr")
    else:
        print("pending:", pending)

    try:
        exterr.parse(b"{")
    except exterr.ParseError as e:
        print(e.error_class, e.errno, e.position, e.reason)

    with exterr.translate():
        pass
    return 0 if open_or_explain("/nonexistent/exterr-example") == -1 else 1


if __name__ == "__main__":
    sys.exit(main())
