"""cffi build script for ``exterr._native`` (API, out-of-line mode).

setup.py names ``make_builder`` in ``cffi_modules``; cffi runs this file at
build time, calls it, and compiles the module it describes. Defining nothing
at import keeps the file importable by setup.py (for ``find_c_sources``)
without touching pkg-config. It is left out of the installed package.

Two ways to get libexterr into the extension:

* default: compile libexterr's own C sources (``libexterr-c/src/*.c``) into
  the extension, so ``pip install ./bindings/python`` works from a checkout
  with only jansson installed, and the binding can never pick up a
  mismatched system libexterr. All of them: fetch.c also holds the
  constructor that enables the kernel's descriptions for the process
  when the extension is loaded (docs/contract.md section 1.2);
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

jansson, in the default mode, is compiled in from its own sources too, so
that the extension needs no libjansson.so at run time (a wheel installs
with nothing else present). Debian's ``libjansson.a`` cannot be used
instead: it is not position-independent, and the linker refuses it in a
shared object. The sources are an unpacked jansson release (the upstream
tarball, or ``apt-get source jansson``: ``tools/fetch-jansson``), looked
for in:

1. ``EXTERR_JANSSON_SOURCE_DIR``;
2. ``vendor/jansson`` beside setup.py (what an sdist carries, and where
   ``tools/fetch-jansson`` puts it by default; never committed).

Without either, the build links the system libjansson (``pkg-config
jansson``) as before and says so: the result then needs libjansson at run
time. ``EXTERR_USE_SYSTEM_LIB=1`` always links libexterr.so, and through it
the system libjansson.

Translations (default mode): libexterr's ``exterr_format()`` looks the
message up by id in the gettext catalogues of ``libexterr-c/po``. The
bundled build compiles them with ``msgfmt`` into the package
(``exterr/locale/LL/LC_MESSAGES/exterr-kernel.mo``, setup.py's build_py)
and compiles libexterr with ``EXTERR_NLS``; where the package lands is
only known at run time, so format.c's ``EXTERR_LOCALEDIR_FN`` hook names
a function of this extension, and the package tells it the directory at
import. ``EXTERR_NLS=0`` builds an extension that never translates
(no msgfmt needed). ``EXTERR_USE_SYSTEM_LIB=1`` translates as the
installed libexterr does, with the catalogues installed beside it.

In every mode the extension exports only its init function: a version
script makes every other symbol local, so libexterr's ``exterr_*`` and
jansson's ``json_*`` compiled in here cannot interpose on (or be
interposed by) a system libexterr or libjansson loaded in the same
process.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
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
# ... and names the text domain of its catalogues the same way.
_CMAKE_TEXT_DOMAIN = re.compile(r"set\(\s*EXTERR_TEXT_DOMAIN\s+([\w.-]+)\s*\)")
DEFAULT_TEXT_DOMAIN = "exterr-kernel"

# The package directory the wheel carries the compiled catalogues in; the
# package passes its path to exterr_py_set_localedir() at import.
LOCALE_DIR = "locale"

# The bundled build's half of format.c's EXTERR_LOCALEDIR_FN hook. The
# directory is copied: the Python bytes passed in do not outlive the call.
# Until it is set, format.c's bindtextdomain(domain, NULL) changes nothing
# and gettext would look in its default directory; the package sets it at
# import, before any description can be formatted.
NLS_CDEF = "void exterr_py_set_localedir(const char *dir);\n"
NLS_SOURCE = """
#include <stdlib.h>
#include <string.h>

static char *exterr_py_dir;

static void exterr_py_set_localedir(const char *dir)
{
	char *copy = strdup(dir);

	if (copy) {
		free(exterr_py_dir);
		exterr_py_dir = copy;
	}
}

/* format.c's EXTERR_LOCALEDIR_FN; kept local by the version script. */
const char *exterr_py_localedir(void);
const char *exterr_py_localedir(void)
{
	return exterr_py_dir;
}
"""


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
    # po/: the catalogues the bundled build compiles into the package.
    for sub, pattern in (("include", "exterr.h"), ("src", "*.[ch]"),
                         ("po", "LINGUAS"), ("po", "*.po")):
        (dst / sub).mkdir(parents=True, exist_ok=True)
        for f in sorted((src / sub).glob(pattern)):
            shutil.copy2(f, dst / sub / f.name)


# What a jansson source tree must have for the build and the sdist: its
# library sources and headers are src/*.[ch]; the public configuration
# header is made from jansson_config.h.in; LICENSE goes into the wheel.
JANSSON_REQUIRED = ("src/jansson.h", "src/jansson_config.h.in", "src/value.c", "LICENSE")

# jansson_config.h.in's substitutions, as jansson's configure finds them on
# Linux with GCC or Clang (the only platform this binding is for).
JANSSON_CONFIG = {
    "json_inline": "inline",
    "json_have_long_long": "1",
    "json_have_localeconv": "1",
    "json_have_atomic_builtins": "1",
    "json_have_sync_builtins": "1",
}

# What jansson's configure writes into jansson_private_config.h on glibc
# (configure.ac's checks; every header and function it asks about is
# there). USE_URANDOM seeds the hash function from /dev/urandom, as the
# Debian library does.
JANSSON_PRIVATE_CONFIG = """\
#define HAVE_ENDIAN_H 1
#define HAVE_FCNTL_H 1
#define HAVE_LOCALE_H 1
#define HAVE_SCHED_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_CLOSE 1
#define HAVE_GETPID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_LOCALECONV 1
#define HAVE_OPEN 1
#define HAVE_READ 1
#define HAVE_SCHED_YIELD 1
#define HAVE_STRTOLL 1
#define HAVE_SYNC_BUILTINS 1
#define HAVE_ATOMIC_BUILTINS 1
#define USE_URANDOM 1
#define INITIAL_HASHTABLE_ORDER 3
"""


def find_jansson_sources() -> Path | None:
    """Return the jansson source tree to compile in, or None (link the system one).

    A directory named by ``EXTERR_JANSSON_SOURCE_DIR`` must be one: a typo
    there would otherwise quietly give an extension that needs libjansson.
    """
    env = os.environ.get("EXTERR_JANSSON_SOURCE_DIR")
    candidates = [Path(env)] if env else [PROJECT / "vendor" / "jansson"]
    for cand in candidates:
        if all((cand / f).is_file() for f in JANSSON_REQUIRED):
            return cand.resolve()
    if env:
        raise RuntimeError(
            f"EXTERR_JANSSON_SOURCE_DIR={env} is not an unpacked jansson source "
            f"tree (it lacks one of {', '.join(JANSSON_REQUIRED)})"
        )
    return None


def jansson_compiled_in() -> bool:
    """Whether this build compiles jansson into the extension (see the docstring)."""
    return not _truthy("EXTERR_USE_SYSTEM_LIB") and find_jansson_sources() is not None


def jansson_config_h(template: str) -> str:
    """Fill in jansson_config.h.in; refuse a template with unknown variables."""
    out = re.sub(
        r"@(\w+)@",
        lambda m: JANSSON_CONFIG.get(m.group(1), m.group(0)),
        template,
    )
    # (Only directives count: the template's comment speaks of "@var@".)
    left = sorted(set(re.findall(r"^\s*#.*@(\w+)@", out, re.MULTILINE)))
    if left:
        raise RuntimeError(
            "jansson_config.h.in has substitutions this build does not know: "
            + ", ".join(left)
        )
    return out


def copy_jansson_sources(src: Path, dst: Path) -> None:
    """Copy what the build needs from jansson source tree ``src`` to ``dst``."""
    (dst / "src").mkdir(parents=True, exist_ok=True)
    shutil.copy2(src / "LICENSE", dst / "LICENSE")
    for pattern in ("*.[ch]", "jansson_config.h.in"):
        for f in sorted((src / "src").glob(pattern)):
            shutil.copy2(f, dst / "src" / f.name)


def _stage_jansson(src: Path) -> tuple[Path, Path]:
    """Stage jansson under setup.py's directory; return it and its config dir.

    Like libexterr's sources (``_stage_sources``), a tree outside setup.py's
    directory is copied into ``build/jansson``. The two configuration
    headers configure would write go into ``build/jansson-config``, which
    comes first on the include path, so that everything in the extension,
    libexterr included, compiles against this jansson.h rather than an
    installed one.
    """
    if not src.is_relative_to(PROJECT):
        dst = PROJECT / "build" / "jansson"
        shutil.rmtree(dst, ignore_errors=True)
        copy_jansson_sources(src, dst)
        src = dst
    conf = PROJECT / "build" / "jansson-config"
    conf.mkdir(parents=True, exist_ok=True)
    template = (src / "src" / "jansson_config.h.in").read_text(encoding="utf-8")
    (conf / "jansson_config.h").write_text(jansson_config_h(template), encoding="utf-8")
    (conf / "jansson_private_config.h").write_text(JANSSON_PRIVATE_CONFIG, encoding="utf-8")
    return src, conf


def version_script(directory: Path = PROJECT / "build") -> Path:
    """Write the linker version script that leaves only the init function global."""
    init = "PyInit_" + MODULE.rpartition(".")[2]
    path = directory / "exterr-native.map"
    directory.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{{\n  global: {init};\n  local: *;\n}};\n", encoding="utf-8")
    return path


def nls_compiled_in() -> bool:
    """Whether this build translates with catalogues it carries (see the docstring)."""
    off = os.environ.get("EXTERR_NLS", "").strip().lower() in ("0", "no", "false", "off")
    return not off and not _truthy("EXTERR_USE_SYSTEM_LIB")


def text_domain(src: Path) -> str:
    """The text domain libexterr-c ``src`` names in its CMakeLists.txt."""
    cmake = src / "CMakeLists.txt"
    if cmake.is_file():
        match = _CMAKE_TEXT_DOMAIN.search(cmake.read_text(encoding="utf-8"))
        if match:
            return match.group(1)
    return DEFAULT_TEXT_DOMAIN


def linguas(src: Path) -> list[str]:
    """The languages in ``po/LINGUAS`` of libexterr-c ``src`` (one word a line)."""
    path = src / "po" / "LINGUAS"
    if not path.is_file():
        return []
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words += line.partition("#")[0].split()
    return words


def compile_catalogues(src: Path, dst: Path) -> list[Path]:
    """msgfmt each ``po/LL.po`` of ``src`` to ``dst/LL/LC_MESSAGES/DOMAIN.mo``.

    The same ``msgfmt --check`` libexterr's CMake build runs, so a
    catalogue it would refuse fails the wheel too.
    """
    exe = os.environ.get("MSGFMT", "msgfmt")
    if shutil.which(exe) is None:
        raise RuntimeError(
            f"{exe} not found: the wheel carries libexterr's translations. "
            "Install gettext (Debian: apt-get install gettext), or set "
            "EXTERR_NLS=0 for an extension that never translates"
        )
    domain = text_domain(src)
    made = []
    for lang in linguas(src):
        out = dst / lang / "LC_MESSAGES" / f"{domain}.mo"
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [exe, "--check", "-o", str(out), str(src / "po" / f"{lang}.po")], check=True
        )
        made.append(out)
    return made


def _bundled() -> dict[str, list[str]]:
    src = _stage_sources(find_c_sources())
    rel = src.relative_to(PROJECT).as_posix()
    jansson = find_jansson_sources()
    if jansson is None:
        print(
            "exterr build: no jansson sources (EXTERR_JANSSON_SOURCE_DIR, "
            "vendor/jansson): linking the system libjansson, which the "
            "extension will then need at run time; tools/fetch-jansson gets them",
            file=sys.stderr,
        )
        kw = _flags("jansson")
        sources: list[str] = []
    else:
        jsrc, conf = _stage_jansson(jansson)
        jrel = jsrc.relative_to(PROJECT).as_posix()
        kw = {"include_dirs": [], "library_dirs": [], "libraries": [],
              "extra_compile_args": [], "extra_link_args": []}
        # Every .c in jansson's src/ is part of the library (its
        # Makefile.am lists exactly these).
        sources = [f"{jrel}/src/{p.name}" for p in sorted((jsrc / "src").glob("*.c"))]
        kw["include_dirs"] += [conf.relative_to(PROJECT).as_posix(), f"{jrel}/src"]
        # Several of jansson's sources include jansson_private_config.h
        # only when HAVE_CONFIG_H is defined (configure's convention).
        kw["extra_compile_args"] += ["-DHAVE_CONFIG_H"]
    kw["sources"] = [f"{rel}/{name}" for name in c_sources(src)] + sources
    kw["include_dirs"] += [f"{rel}/include", f"{rel}/src"]
    # libexterr's own build is C11; format.c asks for _GNU_SOURCE itself.
    kw["extra_compile_args"] += ["-std=gnu11"]
    if nls_compiled_in():
        # As libexterr's CMake build with EXTERR_NLS, but the catalogues'
        # directory is asked of the extension (NLS_SOURCE) at run time.
        # pthread_once() needs no flag: it is in libc since glibc 2.34,
        # and before that the interpreter has libpthread loaded.
        kw["extra_compile_args"] += [
            "-DEXTERR_NLS=1",
            f'-DEXTERR_TEXT_DOMAIN="{text_domain(src)}"',
            "-DEXTERR_LOCALEDIR_FN=exterr_py_localedir",
        ]
    return kw


def make_builder() -> cffi.FFI:
    """Describe the extension: the cdef from _cdef.h, the C side per mode."""
    ffi = cffi.FFI()
    ffi.cdef((HERE / "_cdef.h").read_text(encoding="utf-8"))
    kw = _system_lib() if _truthy("EXTERR_USE_SYSTEM_LIB") else _bundled()
    kw["extra_link_args"] = kw.get("extra_link_args", []) + [
        f"-Wl,--version-script={version_script()}"
    ]
    source = "#include <exterr.h>\n"
    if nls_compiled_in():
        ffi.cdef(NLS_CDEF)
        source += NLS_SOURCE
    ffi.set_source(MODULE, source, **kw)
    return ffi


if __name__ == "__main__":
    # Handy for a quick in-place build while hacking on the cdef.
    make_builder().compile(verbose=True)
