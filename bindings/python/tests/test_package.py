"""Package-level API: exports, version, limits, typing marker."""

from __future__ import annotations

import importlib.metadata
import inspect
import re
from pathlib import Path

import exterr


def test_exports_have_docstrings() -> None:
    for name in exterr.__all__:
        obj = getattr(exterr, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), name


def test_library_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", exterr.library_version())


def test_version_matches_the_distribution() -> None:
    assert exterr.__version__ == importlib.metadata.version("exterr")


def test_limits_match_contract() -> None:
    assert exterr.MAX_JSON == 65536
    assert exterr.MAX_DEPTH == 32


def test_py_typed_is_installed() -> None:
    assert (Path(exterr.__file__).parent / "py.typed").is_file()


def test_build_script_is_not_installed() -> None:
    assert not (Path(exterr.__file__).parent / "_build.py").exists()


def test_error_hierarchy() -> None:
    assert issubclass(exterr.ParseError, ValueError)
    assert issubclass(exterr.ExtendedError, OSError)
    assert issubclass(exterr.Unsupported, OSError)
