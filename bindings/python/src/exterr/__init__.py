"""Extended error descriptions of failed Linux system calls.

A kernel with exterr keeps, for each thread, a JSON description of the last
failed system call that a subsystem explained, and hands it out through
``prctl(PR_GET_ERR_DESC)``. This package wraps libexterr, which fetches,
parses and formats it::

    import exterr

    try:
        with exterr.translate():      # adds the kernel's description
            fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError as e:    # matches on every kernel
        print(e)                      # [Errno 2] ...: 'path', as always
        desc = exterr.description_of(e)  # ExtendedError, or None

    exterr.supported()                # does this kernel have exterr?
    err = exterr.parse(raw_json)      # bytes or str -> ExtendedError
    print(err)                        # the libexterr one-line form
    print(err.fields["attr_field"])
    err.id, err.severity, err.values  # v2: stable id, "error"/"info"/"warning",
                                      # runtime values as exact ints
    note = exterr.fetch(notes=True)   # also a successful call's note

Threads: a description belongs to the kernel thread that made the call.
Fetch in the same Python thread (one Python thread is one kernel thread;
the GIL moving between threads does not matter) and soon after the call.
The interpreter makes system calls of its own in between; a successful call
does not clear the description, but a later failing call that exterr
describes would replace it, so compare ``ExtendedError.syscall`` with the
call you made when that matters. A child of fork() starts with nothing
pending, and exec() clears it.
"""

import os as _os

from ._described import description_of
from ._errors import ParseError, Unsupported
from ._extended import ExtendedError, Severity
from ._fetch import fetch
from ._fields import Field, JSONValue
from ._native import ffi as _ffi
from ._native import lib as _lib
from ._parse import parse
from ._supported import supported
from ._translate import call, translate


def _tell_catalogues_dir() -> None:
    # The bundled extension translates messages (exterr_format()) with the
    # catalogues the wheel carries in exterr/locale; it learns where they
    # are here, before any description is formatted. An extension linked
    # to the system libexterr lacks the function and uses that library's.
    set_dir = getattr(_lib, "exterr_py_set_localedir", None)
    if set_dir is not None:
        set_dir(_os.fsencode(_os.path.join(_os.path.dirname(__file__), "locale")))


_tell_catalogues_dir()

__all__ = [
    "MAX_DEPTH",
    "MAX_JSON",
    "ExtendedError",
    "Field",
    "JSONValue",
    "ParseError",
    "Severity",
    "Unsupported",
    "call",
    "description_of",
    "fetch",
    "library_version",
    "parse",
    "supported",
    "translate",
]

#: Version of this binding.
__version__ = "1.1.0"

#: Longest input parse() accepts, in bytes (EXTERR_MAX_JSON).
MAX_JSON: int = _lib.EXTERR_MAX_JSON
#: Deepest nesting parse() accepts (EXTERR_MAX_DEPTH).
MAX_DEPTH: int = _lib.EXTERR_MAX_DEPTH


def library_version() -> str:
    """The version of the libexterr in use (``exterr_version()``), e.g. "1.0.0"."""
    return _ffi.string(_lib.exterr_version()).decode("ascii")
