"""The exceptions that are not a description: ParseError and Unsupported."""

from __future__ import annotations

import errno as _errno
import os


class ParseError(ValueError):
    """Bytes that are not a valid exterr description (contract section 3).

    A ValueError: the input, not the system, is at fault. Attributes:

    ``error_class``
        The conformance class name libexterr gives the failure:
        ``"malformed"``, ``"schema"``, ``"too-big"`` (or
        ``"invalid-argument"``; ``"error"`` for anything the library did not
        classify).
    ``errno``
        The positive errno behind the class (EBADMSG, EPROTO, E2BIG, ...).
    ``reason``
        libexterr's English explanation ("" when it gave none).
    ``position``
        0-based byte offset of the first offending byte in the input (in
        its UTF-8 encoding for a str), as libexterr 1.1 places it
        (exterr_parse(3)): for ``"malformed"`` the
        byte that cannot continue a valid text (the input's length, without
        the tolerated trailing NUL, for a premature end); for ``"schema"``
        the first byte of the value that has the wrong type or is out of
        range, of a duplicate key, or of a number too large to represent;
        the ``}`` closing the root object when a required key is missing;
        the first byte of the root value when it is not an object. ``None``
        when the failure has no place in the text: ``"too-big"`` and
        ``"invalid-argument"`` (libexterr reports position SIZE_MAX, line
        0), and a ParseError from :func:`exterr.fetch` (which gets no
        position from libexterr).
    ``line``, ``column``
        1-based line and column (counted in characters, not bytes) of
        ``position``; ``None`` exactly when ``position`` is.
    """

    def __init__(
        self,
        error_class: str,
        errno: int,
        reason: str,
        position: int | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(error_class, errno, reason, position, line, column)
        self.error_class = error_class
        self.errno = errno
        self.reason = reason
        self.position = position
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = ""
        if self.position is not None:
            where = f" at byte {self.position} (line {self.line}, column {self.column})"
        reason = self.reason or os.strerror(self.errno)
        return f"{self.error_class}: {reason}{where}"


class Unsupported(OSError):
    """The running kernel has no exterr interface (no PR_GET_ERR_DESC).

    An OSError with errno EOPNOTSUPP, which is what libexterr's
    exterr_fetch() reports when the kernel fails the prctl with EINVAL.
    """

    def __init__(self, message: str = "kernel has no exterr (prctl PR_GET_ERR_DESC)") -> None:
        super().__init__(_errno.EOPNOTSUPP, message)

    def __reduce__(self) -> tuple[type[Unsupported], tuple[str]]:
        # OSError pickles as cls(errno, strerror); this __init__ takes one.
        return (type(self), (str(self.strerror),))
