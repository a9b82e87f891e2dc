"""exterr.translate() and exterr.call(), with fetch() replaced by a fake.

The host kernel has no exterr, so the kernel's side is simulated: the fake
hands out a prepared description the way fetch() would, once.
"""

from __future__ import annotations

import errno
import os
from typing import Iterator

import pytest
from conftest import PERF_JSON, PERF_LINE

import exterr
from exterr import _fetch, _translate


class Kernel:
    """A pending-description slot, like the kernel's per-thread one."""

    def __init__(self) -> None:
        self.pending: exterr.ExtendedError | None = None
        self.fetches = 0

    def fetch(self) -> exterr.ExtendedError | None:
        self.fetches += 1
        err, self.pending = self.pending, None
        return err


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[Kernel]:
    k = Kernel()
    monkeypatch.setattr(_fetch, "fetch", k.fetch)
    monkeypatch.setattr(_translate, "_unsupported", False)
    yield k


def failing(k: Kernel, code: int = errno.EINVAL, describe: bool = True) -> None:
    """A 'system call' that fails with code, optionally leaving a description."""
    if describe:
        k.pending = exterr.parse(PERF_JSON.replace(b"-22", str(-code).encode()))
    raise OSError(code, os.strerror(code), "/dev/thing")


def test_translate_adds_the_description(kernel: Kernel) -> None:
    with pytest.raises(exterr.ExtendedError) as info:
        with exterr.translate():
            failing(kernel)
    ext = info.value
    # What the original said, with the description beside it.
    assert str(ext) == "[Errno 22] Invalid argument: '/dev/thing'"
    assert str(ext.exterr) == PERF_LINE
    assert ext.fields["attr_field"] == "sample_freq"
    assert ext.filename == "/dev/thing"
    # The original's (empty) cause; the original itself is the context.
    assert ext.__cause__ is None and ext.__suppress_context__
    assert isinstance(ext.__context__, OSError)
    assert not isinstance(ext.__context__, exterr.ExtendedError)
    assert ext.__context__.errno == errno.EINVAL
    assert kernel.pending is None


def test_translate_keeps_the_originals_cause(kernel: Kernel) -> None:
    root = KeyError("why")
    with pytest.raises(OSError) as info:
        with exterr.translate():
            try:
                failing(kernel)
            except OSError as e:
                raise e from root
    assert isinstance(info.value, exterr.ExtendedError)
    assert info.value.__cause__ is root


def test_translate_keeps_original_without_description(kernel: Kernel) -> None:
    with pytest.raises(OSError) as info:
        with exterr.translate():
            failing(kernel, describe=False)
    assert type(info.value) is OSError
    assert info.value.__context__ is None


def test_translate_ignores_description_with_other_errno(kernel: Kernel) -> None:
    def fail_enoent() -> None:
        kernel.pending = exterr.parse(PERF_JSON)  # EINVAL: not this failure
        raise FileNotFoundError(errno.ENOENT, "No such file or directory")

    with pytest.raises(FileNotFoundError):
        with exterr.translate():
            fail_enoent()


def test_translate_drops_stale_description_on_entry(kernel: Kernel) -> None:
    kernel.pending = exterr.parse(PERF_JSON)  # left over from before the block
    with pytest.raises(OSError) as info:
        with exterr.translate():
            raise OSError(errno.EINVAL, "Invalid argument")
    assert type(info.value) is OSError


def test_translate_when_kernel_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    def unsupported() -> None:
        raise exterr.Unsupported()

    monkeypatch.setattr(_fetch, "fetch", unsupported)
    monkeypatch.setattr(_translate, "_unsupported", False)
    with pytest.raises(OSError) as info:
        with exterr.translate():
            raise OSError(errno.EINVAL, "Invalid argument")
    assert type(info.value) is OSError
    # Remembered: the kernel cannot gain the interface while we run.
    assert _translate._unsupported is True


def test_translate_on_this_host_passes_errors_through() -> None:
    # Whatever the kernel, an OSError without a description stays itself.
    with pytest.raises(FileNotFoundError):
        with exterr.translate():
            open("/nonexistent/exterr-test", "rb")


def test_translate_corrupt_description_keeps_original(monkeypatch: pytest.MonkeyPatch) -> None:
    def corrupt() -> None:
        raise exterr.ParseError("schema", errno.EPROTO, "bad")

    monkeypatch.setattr(_fetch, "fetch", corrupt)
    monkeypatch.setattr(_translate, "_unsupported", False)
    with pytest.raises(OSError) as info:
        with exterr.translate():
            raise OSError(errno.EINVAL, "Invalid argument")
    assert type(info.value) is OSError


def test_translate_passes_other_exceptions_and_success(kernel: Kernel) -> None:
    with pytest.raises(KeyError):
        with exterr.translate():
            raise KeyError("x")
    with exterr.translate():
        value = 1
    assert value == 1


def test_translate_leaves_extended_error_alone(kernel: Kernel) -> None:
    inner = exterr.parse(PERF_JSON)
    with pytest.raises(exterr.ExtendedError) as info:
        with exterr.translate():
            raise inner
    assert info.value is inner


def test_call_returns_result_and_passes_arguments(kernel: Kernel) -> None:
    def add(a: int, b: int, *, scale: int = 1) -> int:
        return (a + b) * scale

    assert exterr.call(add, 1, 2, scale=3) == 9


def test_call_translates(kernel: Kernel) -> None:
    with pytest.raises(exterr.ExtendedError) as info:
        exterr.call(failing, kernel)
    assert type(info.value.__context__) is OSError
    assert str(info.value) == str(info.value.__context__)
