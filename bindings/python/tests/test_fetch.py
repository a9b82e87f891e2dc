"""exterr.fetch() on this kernel, and its mapping of libexterr's results.

The kernel path itself (a patched kernel describing a real failure) is
covered by guest/run, which boots the binding under kernel/vm-run. Here
the host kernel is unpatched, so fetch() must raise Unsupported.
"""

from __future__ import annotations

import errno
import pickle
import threading
from typing import Any

import pytest
from conftest import expect_unsupported, kernel_has_exterr

import exterr
from exterr import _fetch

HAS_EXTERR = kernel_has_exterr()


@pytest.mark.skipif(HAS_EXTERR and not expect_unsupported(), reason="kernel has exterr")
def test_fetch_raises_unsupported_on_unpatched_kernel() -> None:
    with pytest.raises(exterr.Unsupported) as info:
        exterr.fetch()
    assert isinstance(info.value, OSError)
    assert info.value.errno == errno.EOPNOTSUPP


@pytest.mark.skipif(HAS_EXTERR and not expect_unsupported(), reason="kernel has exterr")
def test_fetch_notes_raises_unsupported_on_unpatched_kernel() -> None:
    # exterr_fetch_ex() drops the notes flag on EINVAL and asks again; a
    # kernel without exterr fails that too.
    with pytest.raises(exterr.Unsupported):
        exterr.fetch(notes=True)


@pytest.mark.skipif(HAS_EXTERR and not expect_unsupported(), reason="kernel has exterr")
def test_unsupported_in_another_thread_too() -> None:
    caught: list[BaseException] = []

    def worker() -> None:
        try:
            exterr.fetch()
        except BaseException as e:  # reported to the main thread below
            caught.append(e)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert len(caught) == 1 and isinstance(caught[0], exterr.Unsupported)


@pytest.mark.skipif(not HAS_EXTERR, reason="kernel has no exterr")
def test_nothing_pending_in_a_fresh_thread() -> None:
    got: list[Any] = []
    t = threading.Thread(target=lambda: got.append(exterr.fetch()))
    t.start()
    t.join()
    assert got == [None]


def test_unsupported_pickles() -> None:
    back = pickle.loads(pickle.dumps(exterr.Unsupported()))
    assert isinstance(back, exterr.Unsupported) and back.errno == errno.EOPNOTSUPP


class FakeLib:
    """Stands in for the C library: one chosen result from either fetch.

    It records which one ran: fetch() must call exterr_fetch(), and
    fetch(notes=True) exterr_fetch_ex().
    """

    def __init__(self, ret: int) -> None:
        self.ret = ret
        self.called: list[str] = []

    def exterr_fetch(self, errp: Any) -> int:
        self.called.append("exterr_fetch")
        return self.ret

    def exterr_fetch_ex(self, errp: Any, flags: int) -> int:
        self.called.append("exterr_fetch_ex")
        return self.ret


@pytest.mark.parametrize(
    ("ret", "exc"),
    [
        (-errno.EOPNOTSUPP, exterr.Unsupported),
        (-errno.ENOMEM, MemoryError),
        (-errno.EBADMSG, exterr.ParseError),
        (-errno.EPROTO, exterr.ParseError),
        (-errno.E2BIG, exterr.ParseError),
        (-errno.EAGAIN, OSError),
        (-errno.EFAULT, OSError),
    ],
)
@pytest.mark.parametrize("notes", [False, True])
def test_fetch_error_mapping(
    monkeypatch: pytest.MonkeyPatch, ret: int, exc: type[BaseException], notes: bool
) -> None:
    lib = FakeLib(ret)
    monkeypatch.setattr(_fetch, "lib", lib)
    with pytest.raises(exc) as info:
        _fetch.fetch(notes=notes)
    assert lib.called == ["exterr_fetch_ex" if notes else "exterr_fetch"]
    if isinstance(info.value, exterr.ParseError):
        assert info.value.errno == -ret
        assert info.value.error_class in ("malformed", "schema", "too-big")
        # exterr_fetch() hands out no parse-error record: no place to report.
        assert (info.value.position, info.value.line, info.value.column) == (None, None, None)
    elif type(info.value) is OSError:
        assert info.value.errno == -ret


@pytest.mark.parametrize("notes", [False, True])
def test_fetch_nothing_pending_is_none(monkeypatch: pytest.MonkeyPatch, notes: bool) -> None:
    lib = FakeLib(-errno.ENODATA)
    monkeypatch.setattr(_fetch, "lib", lib)
    assert _fetch.fetch(notes=notes) is None
    assert lib.called == ["exterr_fetch_ex" if notes else "exterr_fetch"]
