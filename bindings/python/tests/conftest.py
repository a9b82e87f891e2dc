"""Shared helpers for the binding's tests.

The tests import the installed ``exterr`` (nothing puts ``src/`` on the
path), so they check what pip actually installed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os

PR_GET_ERR_DESC = 0x45525244

PERF_JSON = (
    b'{"code":-22,"module":"perf","file":"kernel/events/core.c","line":12883,'
    b'"message":"sample_freq above kernel.perf_event_max_sample_rate",'
    b'"syscall":298,"attr_field":"sample_freq"}'
)
PERF_LINE = (
    "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate "
    "[perf attr_field=sample_freq] (kernel/events/core.c:12883)"
)


def kernel_has_exterr() -> bool:
    """Probe PR_GET_ERR_DESC directly (not via the binding) without consuming.

    A NULL buffer of size 0 asks for the size only; kernels without exterr
    fail the prctl with EINVAL.
    """
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    ret = libc.prctl(PR_GET_ERR_DESC, 0, 0, 0, 0)
    return not (ret < 0 and ctypes.get_errno() == errno.EINVAL)


def expect_unsupported() -> bool:
    """The check script sets this on the unpatched host: Unsupported is a must."""
    return os.environ.get("EXTERR_EXPECT_UNSUPPORTED") == "1"
