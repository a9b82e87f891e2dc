"""The conformance cases (contract section 5), run through the binding.

Each case folder holds ``input`` and ``expected.json``; the object compared
with expected.json is built only from the binding's public API. Cases come
from the repository's ``conformance/cases`` (or ``EXTERR_CONFORMANCE_CASES``)
and from this binding's own ``tests/data/cases``, which keep the runner
itself tested while the shared suite is still being written.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
SHARED = Path(
    os.environ.get("EXTERR_CONFORMANCE_CASES", HERE.parent.parent.parent / "conformance" / "cases")
)
LOCAL = HERE / "data" / "cases"
KNOWN_FAILURES = HERE / "data" / "libexterr-known-failures.txt"


def _load_describe() -> Any:
    """tools/describe.py, the describe tool conformance/run runs, as a module.

    Its ``canonical`` builds the compared object, so the tests and
    conformance/run check one canonicalisation. tools/ is not a package
    and not on the path; the tool itself uses only the installed exterr.
    """
    path = HERE.parent / "tools" / "describe.py"
    spec = importlib.util.spec_from_file_location("exterr_tools_describe", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The contract's section 5 object, from the binding's API only.
canonical = _load_describe().canonical


def _known_failures() -> set[str]:
    lines = KNOWN_FAILURES.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def _cases() -> list[Any]:
    known = _known_failures()
    params = []
    for label, root in (("shared", SHARED), ("local", LOCAL)):
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            marks = []
            if label == "shared" and folder.name in known:
                marks.append(
                    pytest.mark.xfail(strict=True, reason="libexterr itself fails this case")
                )
            params.append(pytest.param(folder, id=f"{label}/{folder.name}", marks=marks))
    return params


def same(a: Any, b: Any) -> bool:
    """Equality of JSON values: unlike ==, True is not 1 and 1 is not 1.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


@pytest.mark.parametrize("folder", _cases())
def test_case(folder: Path) -> None:
    want = json.loads((folder / "expected.json").read_bytes().decode("utf-8"))
    got = canonical((folder / "input").read_bytes())
    assert same(got, want), f"got {json.dumps(got)}"


def test_local_cases_exist() -> None:
    # Guards against the parametrization silently finding nothing.
    assert len([p for p in LOCAL.iterdir() if p.is_dir()]) >= 10


def test_same_is_strict() -> None:
    assert same({"a": [1, "x"]}, {"a": [1, "x"]})
    assert not same(1, 1.0)
    assert not same(True, 1)
    assert not same({"a": 1}, {"a": 1, "b": 2})
    assert not same([1], [1, 2])
