"""supported(): does the running kernel have exterr, without fetching."""

from __future__ import annotations

from ._native import lib


def supported() -> bool:
    """True when the running kernel has exterr (``prctl(PR_GET_ERR_DESC)``).

    Wraps libexterr's ``exterr_supported()`` (libexterr 1.1), which only
    asks the kernel for the size of a pending description: a description
    pending for this thread stays there for :func:`exterr.fetch` or
    :func:`exterr.translate`. The answer cannot change while the process
    runs, but it is cheap (one system call), so it is not cached here.
    """
    return lib.exterr_supported() == 1
