"""A fake of libexterr's kernel side, for tests on a kernel without exterr.

Stands in for the C library object that ``exterr._fetch`` and
``exterr._supported`` call (tests monkeypatch their module-level ``lib``).
A description left with :meth:`FakeKernel.describe` is handed out by the
next exterr_fetch(), once, like the kernel's per-thread slot; it goes
through the real libexterr parser and exterr_free(), so fetch()'s own
conversion code runs as it would on a patched kernel.

It sits above prctl(): libexterr's PR_SET_ERR_DESC_ENABLED call on load
never reaches it (tests/test_enable.py checks that call).
"""

from __future__ import annotations

import errno
import os
from typing import Any

from exterr._native import ffi, lib


def description(code: int, module: str = "vfs") -> bytes:
    """A valid description of a failure with positive errno ``code``."""
    return (
        b'{"code":-%d,"module":"%s","file":"fs/namei.c","line":2468,'
        b'"message":"made up by the test for errno %d","syscall":82,'
        b'"attr_field":"flags"}' % (code, module.encode(), code)
    )


def description_line(code: int, module: str = "vfs") -> str:
    """exterr_format()'s line for :func:`description` (contract section 4)."""
    return (
        f"{os.strerror(code)}: made up by the test for errno {code} "
        f"[{module} attr_field=flags] (fs/namei.c:2468)"
    )


class FakeKernel:
    """exterr_fetch()/exterr_supported()/exterr_free() of one fake kernel."""

    def __init__(self, supported: bool = True) -> None:
        self.supported = supported
        self.pending: bytes | None = None
        self.fetches = 0
        self.probes = 0

    def describe(self, code: int) -> None:
        """Leave a description of errno ``code`` pending, as a failing call would."""
        self.pending = description(code)

    def exterr_fetch(self, errp: Any) -> int:
        self.fetches += 1
        if not self.supported:
            return -errno.EOPNOTSUPP
        if self.pending is None:
            return -errno.ENODATA
        raw, self.pending = self.pending, None
        ret = lib.exterr_parse_ex(raw, len(raw), errp, ffi.NULL)
        assert ret == 0, ret
        return 0

    def exterr_free(self, err: Any) -> None:
        lib.exterr_free(err)

    def exterr_supported(self) -> int:
        self.probes += 1
        return 1 if self.supported else 0
