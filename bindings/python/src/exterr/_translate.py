"""translate() and call(): add the kernel's description to an OSError."""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator, ParamSpec, TypeVar

from . import _fetch
from ._described import described
from ._errors import ParseError, Unsupported
from ._extended import ExtendedError

P = ParamSpec("P")
R = TypeVar("R")

# Set once a fetch said Unsupported: the running kernel cannot gain the
# interface, so translate() need not ask again on every block.
_unsupported = False


def _take() -> ExtendedError | None:
    """fetch(), but None for anything that is not a usable description."""
    global _unsupported
    if _unsupported:
        return None
    try:
        return _fetch.fetch()
    except Unsupported:
        _unsupported = True
    except ParseError:
        # A corrupt description must not hide the caller's real error.
        pass
    return None


@contextlib.contextmanager
def translate() -> Iterator[None]:
    """Context manager: add the kernel's description to an OSError from the block.

    ``with exterr.translate(): os.open(path, os.O_RDONLY)``. What a
    program catches never depends on the kernel: the exception is always an
    instance of the class the block raised (FileNotFoundError for ENOENT,
    PermissionError for EACCES, plain OSError for EINVAL, ...), with the
    same args, errno, strerror, filename, filename2 and str().

    When the block raises an OSError and the kernel holds a description for
    the calling thread with the same errno, what propagates is a twin of
    it whose class derives from both ExtendedError and the original's class
    (``exterr.ExtendedFileNotFoundError`` for a FileNotFoundError), so
    ``except FileNotFoundError`` and ``except exterr.ExtendedError`` both
    catch it. It carries every ExtendedError attribute, the description
    alone as ``.exterr`` (see also :func:`exterr.description_of`) and, on
    Python 3.11+, a note with libexterr's one-line form that tracebacks
    print. Its ``__traceback__`` and ``__cause__`` are the original's; the
    original object is its (suppressed) ``__context__``. In the rare case
    that the original's class cannot be subclassed, the original itself
    propagates with ``.exterr`` and the note added.

    Otherwise the original exception object propagates unchanged: no
    exterr in the kernel, no description, a description with another errno
    (stale, from some other call), or one that does not parse.

    Any description pending when the block starts is discarded first: it
    belongs to an earlier failure and could otherwise be mistaken for the
    block's. The block must run in this thread (descriptions are per kernel
    thread), which a ``with`` block does.
    """
    _take()
    try:
        yield
    except ExtendedError:
        # Already described (a nested translate(), or raised on purpose).
        raise
    except OSError as original:
        desc = _take()
        if desc is None or desc.errno != original.errno:
            raise
        twin = described(original, desc)
        if twin is original:
            raise
        # The original's traceback and cause: what the program inspects,
        # and a printed traceback, are the unpatched ones plus the note.
        # (Python still links the original as the suppressed __context__.)
        raise twin.with_traceback(original.__traceback__) from original.__cause__


def call(fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Call ``fn(*args, **kwargs)`` inside :func:`translate` and return its result.

    Raises what ``fn`` raises; an OSError the kernel describes comes back
    as for translate(): of the same class, with the description added.
    """
    with translate():
        return fn(*args, **kwargs)
