"""The exception translate() raises: the original's class, plus the description.

A program must behave the same whatever kernel it runs on (issue 19). So
when the kernel describes an OSError, translate() does not swap it for a
plain ExtendedError, which ``except FileNotFoundError`` would no longer
catch and whose str() would lose the filename. It raises a twin of the
original instead, whose class derives from both ExtendedError and the
original's class: ``exterr.ExtendedFileNotFoundError`` with bases
``(ExtendedError, FileNotFoundError)`` for a FileNotFoundError,
``exterr.ExtendedOSError`` for a plain OSError, and so on for any OSError
subclass. One such class per original class, made on first use and cached.

The twin has the original's args, errno, strerror, filename, filename2
(characters_written for BlockingIOError), instance attributes and notes, so
its str() and repr() are what the original class makes of them; on top it
has every ExtendedError attribute (message, module, fields, ...), the plain
description as ``.exterr`` and, where PEP 678 exists (3.11+), a note with
libexterr's one-line form, which tracebacks print.

A class that cannot be extended (its ``__init_subclass__`` refuses, its
layout conflicts) gets no twin: the original object itself propagates, with
the description attached as ``.exterr`` and as a note, so even then the
class a program catches never changes.
"""

from __future__ import annotations

import sys
import types
from typing import Any, Callable, ClassVar

from ._extended import ExtendedError

# The OSError members str() and except clauses depend on. They live in the
# C struct, not in __dict__, so they are copied one by one.
_OS_MEMBERS = ("errno", "strerror", "filename", "filename2")
# An unset filename reads None, like one set to None, yet str() tells them
# apart (": 'a' -> None"). OSError's constructor never stores a None
# filename or filename2, so a None one is left unset, as it must have been.
_UNSET_WHEN_NONE = ("filename", "filename2")

# Original class -> its twin class, or None when it cannot be extended
# (remembered, so a refusing class is not retried on every failure).
_twin_classes: dict[type[OSError], type[DescribedError] | None] = {}


class DescribedError(ExtendedError):
    """Base of the classes translate() raises; see the module docstring.

    Not exported: programs catch the original class (FileNotFoundError, ...)
    or ExtendedError, and both match.
    """

    #: The class of the exception this one stands in for (set per subclass).
    original_class: ClassVar[type[OSError]] = OSError
    _exterr: ExtendedError

    @property
    def exterr(self) -> ExtendedError:
        """The description alone, as exterr.parse() would return it."""
        return self._exterr

    # ExtendedError's own str() and repr() are the description's; a twin
    # must say what the original said, so skip past ExtendedError in the MRO
    # to the original class.
    def __str__(self) -> str:
        return super(ExtendedError, self).__str__()

    def __repr__(self) -> str:
        return super(ExtendedError, self).__repr__()

    def __reduce__(self) -> tuple[Callable[..., OSError], tuple[Any, ...]]:
        # The class is made at run time, so pickle cannot find it by name;
        # rebuild it from the original class instead. The description's
        # attributes are left out (a MappingProxyType does not pickle) and
        # come back from the description, which pickles as its JSON.
        own = vars(self._exterr)
        state = {
            k: v
            for k, v in vars(self).items()
            if k != "_exterr" and not (k in own and v is own[k])
        }
        return (
            _rebuild,
            (self.original_class, self.args, _os_members(self), state, self._exterr),
        )


def _os_members(exc: OSError) -> dict[str, Any]:
    members = {
        name: value
        for name in _OS_MEMBERS
        if (value := getattr(exc, name)) is not None or name not in _UNSET_WHEN_NONE
    }
    try:
        # Only set when BlockingIOError got one; reading it raises otherwise.
        members["characters_written"] = getattr(exc, "characters_written")
    except AttributeError:
        pass
    return members


def twin_class(base: type[OSError]) -> type[DescribedError] | None:
    """The cached class deriving from ExtendedError and ``base``, or None."""
    try:
        return _twin_classes[base]
    except KeyError:
        pass
    name = f"Extended{base.__name__}"

    def body(ns: dict[str, Any]) -> None:
        ns["__module__"] = "exterr"
        ns["__qualname__"] = name
        ns["__doc__"] = f"A {base.__qualname__} the kernel described (see ExtendedError)."
        ns["original_class"] = base

    cls: type[DescribedError] | None
    try:
        cls = types.new_class(name, (DescribedError, base), exec_body=body)
    except Exception:
        # Whatever a foreign class's machinery raises, the caller's error
        # must still come through as itself.
        cls = None
    # setdefault: two threads racing here agree on one class.
    return _twin_classes.setdefault(base, cls)


def _fill(
    exc: OSError, args: tuple[Any, ...], members: dict[str, Any], state: dict[str, Any]
) -> None:
    """Give ``exc`` an original's args, C members and instance attributes."""
    exc.args = args
    for member, value in members.items():
        setattr(exc, member, value)
    vars(exc).update(state)
    notes = vars(exc).get("__notes__")
    if isinstance(notes, list):
        # Adding a note to the copy must not grow the original's list.
        vars(exc)["__notes__"] = list(notes)


def _make(
    cls: type[DescribedError],
    args: tuple[Any, ...],
    members: dict[str, Any],
    state: dict[str, Any],
    desc: ExtendedError,
) -> DescribedError:
    # OSError.__new__, not cls(...): the original class's __new__/__init__
    # may want other arguments, and _fill() sets every value anyway.
    twin = OSError.__new__(cls)
    # The description's attributes first: where the original has one of the
    # same name (a library's own ``message``), the original's wins, as it
    # would read without exterr; ``.exterr`` always has the kernel's.
    vars(twin).update(vars(desc))
    _fill(twin, args, members, state)
    twin._exterr = desc
    return twin


def _rebuild(
    base: type[OSError],
    args: tuple[Any, ...],
    members: dict[str, Any],
    state: dict[str, Any],
    desc: ExtendedError,
) -> OSError:
    """Unpickle (and copy) a twin."""
    cls = twin_class(base)
    if cls is not None:
        return _make(cls, args, members, state, desc)
    # In a process where the class refuses to be extended: what described()
    # would have raised there, the original class with the description.
    plain = OSError.__new__(base)
    _fill(plain, args, members, state)
    vars(plain)["exterr"] = desc
    return plain


def _add_note(exc: BaseException, desc: ExtendedError) -> None:
    if sys.version_info >= (3, 11):
        exc.add_note(f"exterr: {desc}")


def described(original: OSError, desc: ExtendedError) -> OSError:
    """The exception to raise for ``original``, which ``desc`` describes.

    A new twin (see the module docstring), or ``original`` itself with
    ``.exterr`` and a note added when its class cannot be extended.
    """
    cls = twin_class(type(original))
    twin: OSError | None = None
    if cls is not None:
        try:
            twin = _make(cls, original.args, _os_members(original), dict(vars(original)), desc)
        except Exception:
            # A foreign class whose members refuse these values: keep the
            # original rather than raise something else.
            twin = None
    if twin is None:
        twin = original
        vars(original)["exterr"] = desc
    _add_note(twin, desc)
    return twin


def description_of(exc: BaseException) -> ExtendedError | None:
    """The kernel's description carried by an exception, or None.

    For an exception caught around :func:`exterr.translate` or
    :func:`exterr.call`, by whatever class (``except FileNotFoundError as
    e``): the description the kernel gave, as :func:`exterr.parse` would
    return it (``str()`` is libexterr's one-line form). None when the kernel
    said nothing (no exterr, nothing pending, another errno). An
    ExtendedError from parse() or fetch() is its own description.
    """
    if isinstance(exc, ExtendedError):
        return exc.exterr
    found = vars(exc).get("exterr")
    return found if isinstance(found, ExtendedError) else None
