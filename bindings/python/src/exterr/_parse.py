"""parse(): bytes to ExtendedError through libexterr's exterr_parse_ex()."""

from __future__ import annotations

import errno as _errno
import os

from ._errors import ParseError
from ._extended import ExtendedError, from_c
from ._native import ffi, lib

# What libexterr puts in exterr_parse_error.position for "no place".
_SIZE_MAX = 2 ** (8 * ffi.sizeof("size_t")) - 1


def error_class(neg_errno: int) -> str:
    """libexterr's conformance class name for a negative parse errno."""
    return ffi.string(lib.exterr_error_class(neg_errno)).decode("ascii")


def _as_bytes(data: bytes | str) -> bytes:
    if isinstance(data, str):
        # surrogatepass turns a lone surrogate into the invalid UTF-8 it
        # stands for, so the parser rejects it as "malformed" with a
        # position, as it would the same bytes, instead of encode() raising.
        return data.encode("utf-8", "surrogatepass")
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"parse() wants bytes or str, not {type(data).__name__}")


def parse(data: bytes | str) -> ExtendedError:
    """Parse one description, as ``prctl(PR_GET_ERR_DESC)`` returns it.

    ``data`` is the JSON text as bytes (a bytes-like object works too) or
    str (encoded as UTF-8). One trailing NUL byte is accepted, so a buffer
    filled by the kernel can be passed as it is.

    Returns an :class:`ExtendedError`. Raises :class:`ParseError` (a
    ValueError) for anything the contract rejects, with the class, reason
    and place libexterr reports, and MemoryError when libexterr runs out of
    memory. The place is the byte offset (into ``data``, or into its UTF-8
    encoding for a str) of the first offending byte, with its 1-based line
    and column: for a schema error, the offending value, or the ``}``
    closing the root object for a missing key. It is None (position, line
    and column) when the failure has no place in the text, as for
    ``"too-big"``.
    """
    raw = _as_bytes(data)
    errp = ffi.new("struct exterr **")
    perr = ffi.new("struct exterr_parse_error *")
    # The library writes only the members that fit in the size we declare.
    perr.size = ffi.sizeof("struct exterr_parse_error")
    ret = lib.exterr_parse_ex(raw, len(raw), errp, perr)
    if ret == -_errno.ENOMEM:
        raise MemoryError("libexterr: out of memory")
    if ret < 0:
        reason = ffi.string(perr.reason).decode("utf-8", "replace") or os.strerror(-ret)
        # libexterr 1.1: a failure with no place in the text (E2BIG, EINVAL)
        # has position SIZE_MAX and line 0; every real place has line >= 1.
        if perr.line <= 0 or perr.position == _SIZE_MAX:
            raise ParseError(error_class(ret), -ret, reason)
        raise ParseError(
            error_class(ret), -ret, reason, perr.position, perr.line, perr.column
        )
    try:
        return from_c(errp[0])
    finally:
        lib.exterr_free(errp[0])
