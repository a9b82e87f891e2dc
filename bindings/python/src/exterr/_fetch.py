"""fetch(): take the calling thread's pending description from the kernel."""

from __future__ import annotations

import errno as _errno
import os

from ._errors import ParseError, Unsupported
from ._extended import ExtendedError, from_c
from ._native import ffi, lib
from ._parse import error_class

# exterr_fetch() results that mean the kernel handed out a description (and
# so consumed it) but it did not parse; there is no reason or position,
# because exterr_fetch() calls exterr_parse() without a parse-error record.
_PARSE_ERRORS = (-_errno.EBADMSG, -_errno.EPROTO, -_errno.E2BIG)

# exterr_fetch_ex()'s flag asking for notes too (libexterr 1.1, v2).
_FETCH_NOTES: int = lib.EXTERR_FETCH_NOTES


def fetch(*, notes: bool = False) -> ExtendedError | None:
    """Return the calling thread's pending description, or None.

    With ``notes=True`` (libexterr's ``exterr_fetch_ex(...,
    EXTERR_FETCH_NOTES)``) a pending *note* is handed out too: the
    description of a call that succeeded, with ``errno`` 0, ``severity``
    ``"info"`` or ``"warning"`` and ``is_note`` True. Without it (the
    default, ``exterr_fetch()``) a pending note reads as None and stays
    pending, so code written before notes never sees one. On a kernel from
    before notes, ``notes=True`` works as the default does (libexterr
    drops the flag).

    Descriptions are per kernel thread: call this in the thread that made
    the failing call, right after it (each Python thread is one kernel
    thread). Fetching consumes the description. It is that of the
    thread's last failed system call: successful calls keep it, a later
    failing call ends it, so it is never an older failure's (``.syscall``
    says which call).

    Raises :class:`Unsupported` when the kernel has no exterr interface
    (:func:`exterr.supported` tells without taking the description),
    :class:`ParseError` when the kernel's text does not parse (it is gone
    then), MemoryError on allocation failure, and OSError for the rest of
    exterr_fetch()'s errors (EAGAIN: the description kept changing size;
    EFAULT).
    """
    errp = ffi.new("struct exterr **")
    # cffi releases the GIL around the call, but the thread stays the same
    # kernel thread, which is all the kernel's bookkeeping cares about.
    if notes:
        ret = lib.exterr_fetch_ex(errp, _FETCH_NOTES)
    else:
        ret = lib.exterr_fetch(errp)
    if ret == 0:
        try:
            return from_c(errp[0])
        finally:
            lib.exterr_free(errp[0])
    if ret == -_errno.ENODATA:
        return None
    if ret == -_errno.EOPNOTSUPP:
        raise Unsupported()
    if ret == -_errno.ENOMEM:
        raise MemoryError("libexterr: out of memory")
    if ret in _PARSE_ERRORS:
        raise ParseError(
            error_class(ret), -ret, "the kernel's description did not parse"
        )
    raise OSError(-ret, os.strerror(-ret))
