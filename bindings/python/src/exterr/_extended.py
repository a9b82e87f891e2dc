"""ExtendedError: a parsed description, as an OSError."""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import Any, Callable, Iterable, Literal, Mapping

from ._fields import Field, JSONValue
from ._native import ffi, lib

#: What :attr:`ExtendedError.severity` holds: ``"error"`` for a failed
#: call's description, ``"info"`` or ``"warning"`` for a note.
Severity = Literal["error", "info", "warning"]


class ExtendedError(OSError):
    """The kernel's description of a failed system call.

    Instances come in two kinds:

    * the description itself, from :func:`exterr.parse` and
      :func:`exterr.fetch`: ``type(err) is ExtendedError``, ``str()`` is
      libexterr's one-line form, ``filename`` is None;
    * the exception :func:`exterr.translate` and :func:`exterr.call` raise
      for a described OSError: an instance of a class that derives from
      both ExtendedError and the original's class (for example
      ``exterr.ExtendedFileNotFoundError``, bases ``(ExtendedError,
      FileNotFoundError)``), so ``except FileNotFoundError`` and ``except
      ExtendedError`` both catch it. Its args, errno, strerror, filename,
      filename2, str() and repr() are the original's; the description
      alone is ``.exterr``.

    Everything is copied out of libexterr's struct when it is made, so the
    object lives independently of the C library.

    Attributes:

    ``errno``, ``strerror``
        The positive errno the system call failed with and its text (for a
        translated exception, the original's); 0 and "Success" for a note.
    ``message``, ``module``
        What was wrong, and which subsystem said so.
    ``file``, ``line``
        Where in the kernel source (``file`` is relative to the kernel
        tree; it is not a path on this machine, which is why it is not
        OSError's ``filename``).
    ``syscall``
        The number of the system call that recorded it, or None when the
        kernel did not say. Compare it with the call you made to spot a
        stale description.
    ``fields``
        Read-only mapping of every domain key to its Python value.
    ``fields_raw``
        Tuple of :class:`exterr.Field` (name, type, text), in document order.
    ``id``
        The site's stable identifier (``"perf.sample_freq.above_max_rate"``:
        what a program or a translation keys on), or None when the kernel
        gave none (a v1 kernel, or libexterr from before v2).
    ``severity``
        ``"error"`` for the description of a failed call; ``"info"`` or
        ``"warning"`` for a note, the description of a call that succeeded
        (``errno`` 0), which only ``fetch(notes=True)`` hands out.
        ``is_note`` is True exactly when it is not ``"error"``.
    ``values``
        Read-only mapping, in document order, of the runtime values
        (``"values"`` in the JSON) to Python ints, exact over their whole
        range, -2**63 to 2**64 - 1. Empty when there are none.
    ``json``
        The raw JSON text of the description.
    ``exterr``
        The description alone, whose ``str()`` is libexterr's one-line
        human form (``exterr_format()``); for the first kind, the object
        itself.

    ``str()`` is libexterr's one-line form for the first kind, the
    original's text (``[Errno 2] No such file or directory: 'x'``) for the
    second.
    """

    errno: int
    strerror: str

    def __init__(
        self,
        errno: int,
        *,
        message: str,
        module: str,
        file: str,
        line: int,
        syscall: int | None,
        fields_raw: Iterable[Field],
        json: str,
        formatted: str,
        id: str | None = None,
        severity: Severity = "error",
        values: Iterable[tuple[str, int]] = (),
    ) -> None:
        super().__init__(errno, os.strerror(errno))
        self.message = message
        self.module = module
        self.file = file
        self.line = line
        self.syscall = syscall
        self.fields_raw: tuple[Field, ...] = tuple(fields_raw)
        self.json = json
        self._formatted = formatted
        self._fields: Mapping[str, JSONValue] = MappingProxyType(
            {f.name: f.value for f in self.fields_raw}
        )
        self.id = id
        self.severity: Severity = severity
        self._values: Mapping[str, int] = MappingProxyType(dict(values))

    @property
    def exterr(self) -> ExtendedError:
        """The description alone, as parse() returns it: here, ``self``."""
        return self

    @property
    def fields(self) -> Mapping[str, JSONValue]:
        """Domain keys to Python values (str, int, float, bool, None, list, dict)."""
        return self._fields

    @property
    def values(self) -> Mapping[str, int]:
        """Runtime values to exact ints, in document order (empty when none)."""
        return self._values

    @property
    def is_note(self) -> bool:
        """True for a note (a successful call's description), False for an error."""
        return self.severity != "error"

    def __str__(self) -> str:
        return self._formatted

    def __repr__(self) -> str:
        # The v2 members only when they say something, so that a v1
        # description reads as it always did.
        extra = ""
        if self.id is not None:
            extra += f", id={self.id!r}"
        if self.severity != "error":
            extra += f", severity={self.severity!r}"
        if self._values:
            extra += f", values={dict(self._values)!r}"
        return (
            f"{type(self).__name__}(errno={self.errno}, module={self.module!r}, "
            f"message={self.message!r}, file={self.file!r}, line={self.line}, "
            f"syscall={self.syscall!r}, fields={dict(self._fields)!r}{extra})"
        )

    def __reduce__(self) -> tuple[Callable[..., OSError], tuple[Any, ...]]:
        # OSError would pickle as cls(errno, strerror); rebuild from the JSON
        # instead, which carries everything, plus what translate() copied.
        return (_unpickle, (self.json, self.filename, self.filename2))


def _unpickle(text: str, filename: Any, filename2: Any) -> ExtendedError:
    from ._parse import parse  # _parse imports this module

    err = parse(text)
    err.filename = filename
    err.filename2 = filename2
    return err


def _text(p: Any) -> str:
    # libexterr hands out strings jansson validated as UTF-8; surrogateescape
    # keeps any surprise lossless instead of raising from a constructor.
    return ffi.string(p).decode("utf-8", "surrogateescape")


def _format(err: Any) -> str:
    """exterr_format() into a buffer of the size it asks for."""
    n = lib.exterr_format(err, ffi.NULL, 0)
    if n < 0:
        raise OSError(-n, os.strerror(-n), "exterr_format")
    buf = ffi.new("char[]", n + 1)
    lib.exterr_format(err, buf, n + 1)
    return ffi.string(buf, n).decode("utf-8", "surrogateescape")


# Where each member of struct exterr ends, for has_member().
_MEMBER_END = {
    name: f.offset + ffi.sizeof(f.type) for name, f in ffi.typeof("struct exterr").fields
}

# enum exterr_severity -> Severity. libexterr's exterr_format() prints
# "note" for any severity other than ERROR and WARNING; a newer one this
# binding does not know reads as "info" alike.
_SEVERITIES: dict[int, Severity] = {
    lib.EXTERR_SEVERITY_ERROR: "error",
    lib.EXTERR_SEVERITY_INFO: "info",
    lib.EXTERR_SEVERITY_WARNING: "warning",
}


def has_member(err: Any, name: str) -> bool:
    """EXTERR_HAS(err, name): whether the library's struct has that member.

    struct exterr only grows; the members added after 1.0 (id, severity,
    nr_values, values) are there only when ``err->size`` covers them, which
    it does not in a struct made by an older libexterr.
    """
    return bool(_MEMBER_END[name] <= err.size)


def _severity(err: Any) -> Severity:
    if not has_member(err, "severity"):
        return "error"
    return _SEVERITIES.get(int(err.severity), "info")


def _values(err: Any) -> list[tuple[str, int]]:
    if not (has_member(err, "nr_values") and has_member(err, "values")):
        return []
    out = []
    for i in range(err.nr_values):
        v = err.values[i]
        # The exact value is value when negative, else uvalue (2**63 up).
        out.append((_text(v.name), int(v.value) if v.negative else int(v.uvalue)))
    return out


def from_c(err: Any) -> ExtendedError:
    """Copy a ``struct exterr *`` into an ExtendedError (err is not freed)."""
    ident = None
    if has_member(err, "id") and err.id != ffi.NULL:
        ident = _text(err.id)
    fields = [
        Field(
            _text(f.name),
            _text(lib.exterr_field_type_name(f.type)),
            _text(f.value),
        )
        for f in (err.fields[i] for i in range(err.nr_fields))
    ]
    return ExtendedError(
        err.error,
        message=_text(err.message),
        module=_text(err.module),
        file=_text(err.file),
        line=err.line,
        syscall=None if err.syscall < 0 else err.syscall,
        fields_raw=fields,
        json=ffi.string(err.json, err.json_len).decode("utf-8", "surrogateescape"),
        formatted=_format(err),
        id=ident,
        severity=_severity(err),
        values=_values(err),
    )
