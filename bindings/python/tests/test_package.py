"""Package-level API: exports, version, limits, typing marker."""

from __future__ import annotations

import importlib.metadata
import inspect
import re
import subprocess
from pathlib import Path

import exterr
import exterr._native


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


def test_extension_exports_only_its_init() -> None:
    # libexterr's exterr_* and jansson's json_* are compiled into the
    # extension (or, with EXTERR_USE_SYSTEM_LIB, taken from libexterr.so):
    # exported, they could bind to, or be bound by, a system libexterr or
    # libjansson another module loads into the same process. The build's
    # version script keeps only the module's init function global.
    so = exterr._native.__file__
    assert so is not None
    out = subprocess.run(
        ["nm", "-D", "--defined-only", so], capture_output=True, text=True, check=True
    ).stdout
    # Lines are "ADDRESS TYPE NAME"; a version suffix (NAME@@V) would
    # itself be a leak of a version node, so it is kept in the name.
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert exported == {"PyInit__native"}, sorted(exported)
