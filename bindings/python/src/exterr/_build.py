"""cffi build script for ``exterr._native`` (API, out-of-line mode).

setup.py names ``make_builder`` in ``cffi_modules``; cffi runs this file at
build time, calls it, and compiles the module it describes. Defining nothing
at import keeps the file importable by setup.py (for ``find_c_sources``)
without touching pkg-config. It is left out of the installed package.

Two ways to get libexterr into the extension:

* default: compile libexterr's own C sources (``libexterr-c/src/*.c``) into
  the extension, so ``pip install ./bindings/python`` works from a checkout
  with only jansson installed, and the binding can never pick up a
  mismatched system libexterr;
* ``EXTERR_USE_SYSTEM_LIB=1``: link the installed ``libexterr.so`` found by
  ``pkg-config exterr`` (set ``PKG_CONFIG_PATH`` for a private prefix),
  version 1.1 or later with the v2 API (``exterr_fetch_ex()``, notes,
  ids and values); its library directory is recorded as the extension's
  run path. A 1.1 snapshot from before v2 has the same version number, so
  its ``exterr.h`` is looked at: one that does not declare
  ``exterr_fetch_ex`` fails the build with a message saying so (build the
  bundled default, or install a newer libexterr), rather than with a C
  compiler error or an extension whose fetch(notes=True) could not work.

Where the C sources are looked for, first match wins:

1. ``EXTERR_C_SOURCE_DIR`` (a ``libexterr-c`` directory);
2. ``vendor/libexterr-c`` beside setup.py (what an sdist carries);
3. ``../../libexterr-c`` from setup.py (the repository layout).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import cffi

# cffi executes this file with __file__ set, but not as part of the package:
# everything is found relative to this file, never to the working directory.
HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent.parent  # bindings/python, where setup.py lives

MODULE = "exterr._native"

# The oldest installed libexterr the cdef compiles against: 1.1 added
# exterr_supported(). Asked of pkg-config up front, so an older one fails
# the build with its version rather than with a C compiler error.
MIN_SYSTEM_LIB = "1.1"
# What a 1.1 exterr.h must declare for the cdef: v2 came within 1.1.0 (the
# version number does not tell a v2 header from an earlier 1.1 one).
V2_MARKER = "exterr_fetch_ex"

# libexterr's CMakeLists.txt lists its sources as set(EXTERR_SOURCES ...);
# reading that list keeps the bundled build in step with the library's own
# when files are added, with no second list here to forget.
_CMAKE_SOURCES = re.compile(r"set\(\s*EXTERR_SOURCES\s+([^)]*)\)")


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "yes", "true", "on")


def _pkg_config(*args: str) -> list[str]:
    """Run pkg-config and split its output, or explain what to install."""
    exe = os.environ.get("PKG_CONFIG", "pkg-config")
    if shutil.which(exe) is None:
        raise RuntimeError(
            f"{exe} not found: install pkg-config (Debian: apt-get install pkg-config)"
        )
    proc = subprocess.run(
        [exe, *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"pkg-config {' '.join(args)} failed: {proc.stderr.strip()}"
        )
    return shlex.split(proc.stdout)


def _flags(package: str) -> dict[str, list[str]]:
    """Turn pkg-config's output into set_source() keyword arguments."""
    kw: dict[str, list[str]] = {
        "include_dirs": [],
        "library_dirs": [],
        "libraries": [],
        "extra_compile_args": [],
        "extra_link_args": [],
    }
    for flag in _pkg_config("--cflags", package):
        if flag.startswith("-I"):
            kw["include_dirs"].append(flag[2:])
        else:
            kw["extra_compile_args"].append(flag)
    for flag in _pkg_config("--libs", package):
        if flag.startswith("-L"):
            kw["library_dirs"].append(flag[2:])
        elif flag.startswith("-l"):
            kw["libraries"].append(flag[2:])
        else:
            kw["extra_link_args"].append(flag)
    return kw


def find_c_sources() -> Path:
    """Return the libexterr-c directory whose sources get compiled in."""
    candidates = []
    env = os.environ.get("EXTERR_C_SOURCE_DIR")
    if env:
        candidates.append(Path(env))
    candidates += [PROJECT / "vendor" / "libexterr-c", PROJECT.parent.parent / "libexterr-c"]
    for cand in candidates:
        if (cand / "include" / "exterr.h").is_file() and (cand / "src" / "parse.c").is_file():
            return cand.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise RuntimeError(
        "libexterr's C sources not found (tried: " + tried + "). Build from "
        "the repository checkout (pip >= 21.3 builds in place), from an sdist "
        "made by this setup.py, set EXTERR_C_SOURCE_DIR to a libexterr-c "
        "directory, or set EXTERR_USE_SYSTEM_LIB=1 to link an installed libexterr."
    )


def check_system_header(include_dirs: list[str]) -> None:
    """Refuse an installed exterr.h from before v2 (see the docstring).

    The first ``exterr.h`` found in ``include_dirs`` is the one the
    compiler would use; when there is none there (it is on the default
    path), nothing is checked and the compiler has the last word.
    """
    for d in include_dirs:
        header = Path(d) / "exterr.h"
        if header.is_file():
            if V2_MARKER not in header.read_text(encoding="utf-8", errors="replace"):
                raise RuntimeError(
                    f"{header} is libexterr 1.1 from before v2 (no {V2_MARKER}(): "
                    "notes, ids and values); install a newer libexterr, or build "
                    "without EXTERR_USE_SYSTEM_LIB to compile the bundled sources"
                )
            return


def _system_lib() -> dict[str, list[str]]:
    _pkg_config("--print-errors", "--exists", f"exterr >= {MIN_SYSTEM_LIB}")
    kw = _flags("exterr")
    includedir = _pkg_config("--variable=includedir", "exterr")
    check_system_header(kw["include_dirs"] + includedir)
    # A private prefix (cmake --install --prefix) is not on the loader's
    # path; recording it avoids needing LD_LIBRARY_PATH at import time.
    # exterr.pc is relocatable (${pcfiledir}/../..), so normalise the path.
    libdir = [os.path.realpath(d) for d in _pkg_config("--variable=libdir", "exterr")]
    kw["runtime_library_dirs"] = libdir
    return kw


def c_sources(src: Path) -> list[str]:
    """libexterr's .c files, relative to ``src`` (a libexterr-c directory).

    From EXTERR_SOURCES in its CMakeLists.txt; every ``src/*.c`` when that
    file or list is missing (a hand-made source copy).
    """
    cmake = src / "CMakeLists.txt"
    if cmake.is_file():
        match = _CMAKE_SOURCES.search(cmake.read_text(encoding="utf-8"))
        if match:
            return [f for f in match.group(1).split() if f.endswith(".c")]
    return sorted(p.relative_to(src).as_posix() for p in (src / "src").glob("*.c"))


def _stage_sources(src: Path) -> Path:
    """Copy libexterr's sources under setup.py's directory, if not already there.

    setuptools only takes extension sources as paths relative to setup.py
    (absolute ones are refused, and ``../..`` would put object files outside
    the build tree), so sources from the repository or EXTERR_C_SOURCE_DIR
    are staged into ``build/libexterr-c`` first. Copying also means the
    build never writes into libexterr-c.
    """
    if src.is_relative_to(PROJECT):
        return src
    dst = PROJECT / "build" / "libexterr-c"
    # Start clean: a file removed from libexterr must not linger here.
    shutil.rmtree(dst, ignore_errors=True)
    copy_c_sources(src, dst)
    return dst


def copy_c_sources(src: Path, dst: Path) -> None:
    """Copy what the bundled build needs from libexterr-c ``src`` to ``dst``."""
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src / "CMakeLists.txt", dst / "CMakeLists.txt")
    for sub, pattern in (("include", "exterr.h"), ("src", "*.[ch]")):
        (dst / sub).mkdir(parents=True, exist_ok=True)
        for f in sorted((src / sub).glob(pattern)):
            shutil.copy2(f, dst / sub / f.name)


def _bundled() -> dict[str, list[str]]:
    src = _stage_sources(find_c_sources())
    rel = src.relative_to(PROJECT).as_posix()
    kw = _flags("jansson")
    kw["sources"] = [f"{rel}/{name}" for name in c_sources(src)]
    kw["include_dirs"] += [f"{rel}/include", f"{rel}/src"]
    # libexterr's own build is C11; format.c asks for _GNU_SOURCE itself.
    kw["extra_compile_args"] += ["-std=gnu11"]
    return kw


def make_builder() -> cffi.FFI:
    """Describe the extension: the cdef from _cdef.h, the C side per mode."""
    ffi = cffi.FFI()
    ffi.cdef((HERE / "_cdef.h").read_text(encoding="utf-8"))
    kw = _system_lib() if _truthy("EXTERR_USE_SYSTEM_LIB") else _bundled()
    ffi.set_source(MODULE, "#include <exterr.h>\n", **kw)
    return ffi


if __name__ == "__main__":
    # Handy for a quick in-place build while hacking on the cdef.
    make_builder().compile(verbose=True)
