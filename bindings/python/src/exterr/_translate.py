"""translate() and call(): turn an OSError into the kernel's description."""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator, ParamSpec, TypeVar

from . import _fetch
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
    """Context manager: re-raise an OSError from the block as ExtendedError.

    ``with exterr.translate(): os.ioctl_thing(...)``. When the block raises
    an OSError and the kernel holds a description for the calling thread
    with the same errno, the block's exception becomes an ExtendedError,
    raised ``from`` the original (so ``__cause__`` is the original, with its
    traceback); the original's ``filename``/``filename2`` are copied over.
    Otherwise the original propagates untouched: no exterr in the kernel, no
    description, a description with another errno (stale, from some other
    call), or one that does not parse.

    Any description pending when the block starts is discarded first: it
    belongs to an earlier failure and could otherwise be mistaken for the
    block's. The block must run in this thread (descriptions are per kernel
    thread), which a ``with`` block does.
    """
    _take()
    try:
        yield
    except ExtendedError:
        raise
    except OSError as original:
        ext = _take()
        if ext is None or ext.errno != original.errno:
            raise
        ext.filename = original.filename
        ext.filename2 = original.filename2
        raise ext from original


def call(fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Call ``fn(*args, **kwargs)`` inside :func:`translate` and return its result."""
    with translate():
        return fn(*args, **kwargs)
