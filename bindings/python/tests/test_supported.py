"""exterr.supported(): the kernel probe that leaves a pending description alone."""

from __future__ import annotations

import errno
from typing import Any

import pytest
from conftest import expect_unsupported, kernel_has_exterr
from fake_kernel import FakeKernel, description

import exterr
from exterr import _fetch, _supported


@pytest.mark.parametrize("has_exterr", [True, False])
def test_supported_reports_the_library_answer(monkeypatch: pytest.MonkeyPatch, has_exterr: bool) -> None:
    kernel = FakeKernel(supported=has_exterr)
    monkeypatch.setattr(_supported, "lib", kernel)
    monkeypatch.setattr(_fetch, "lib", kernel)
    kernel.describe(errno.EINVAL)
    assert exterr.supported() is has_exterr
    assert kernel.probes == 1
    # Asking consumed nothing: the description is still there to fetch.
    assert kernel.fetches == 0
    assert kernel.pending == description(errno.EINVAL)


def test_supported_never_takes_the_fetch_path(monkeypatch: pytest.MonkeyPatch) -> None:
    class ProbeOnly:
        def exterr_supported(self) -> int:
            return 1

        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"supported() called {name}")

    def no_fetch() -> None:
        raise AssertionError("supported() called fetch()")

    monkeypatch.setattr(_supported, "lib", ProbeOnly())
    monkeypatch.setattr(_fetch, "fetch", no_fetch)
    assert exterr.supported() is True


def test_supported_then_fetch_keeps_the_description(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = FakeKernel()
    monkeypatch.setattr(_supported, "lib", kernel)
    monkeypatch.setattr(_fetch, "lib", kernel)
    kernel.describe(errno.ENOENT)
    assert exterr.supported()
    got = exterr.fetch()
    assert got is not None and got.errno == errno.ENOENT


def test_supported_matches_this_kernel() -> None:
    # The real library against the running kernel, probed independently.
    has = kernel_has_exterr()
    assert exterr.supported() is has
    if expect_unsupported():
        assert exterr.supported() is False
        with pytest.raises(exterr.Unsupported):
            exterr.fetch()
