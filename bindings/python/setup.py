"""setuptools glue for the parts pyproject.toml cannot say.

* ``cffi_modules`` builds ``exterr._native`` from ``src/exterr/_build.py``.
* The sdist carries libexterr's C sources in ``vendor/libexterr-c``, so a
  wheel built from it (``python -m build``, or pip on an sdist) does not
  depend on the repository layout around it.
* ``_build.py`` is a build-time script; it is kept out of the wheel.
* The extension is always rebuilt: pip builds a local directory in place,
  and setuptools would otherwise reuse ``build/`` from an earlier build in
  the other mode (EXTERR_USE_SYSTEM_LIB), whose generated C is identical.
* The sdist also carries jansson's sources in ``vendor/jansson`` (and
  refuses to be made without them), so every wheel built from it has
  jansson compiled in. A wheel with jansson compiled in carries jansson's
  licence as ``exterr/LICENSE.jansson`` (MIT asks for the notice in
  copies).
* The wheel is tagged abi3 (``cp310-abi3``): cffi compiles the extension
  against the limited API (it defines ``Py_LIMITED_API`` and names the
  module ``_native.abi3.so``), so one wheel serves every CPython from the
  oldest one ``requires-python`` allows. Not on a debug or free-threaded
  interpreter, where cffi does not use the limited API.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
BUILD_SCRIPT = "src/exterr/_build.py"
# The wheel's Python tag with abi3: the oldest CPython requires-python in
# pyproject.toml allows (the limited API itself would allow older ones).
LIMITED_API_TAG = "cp310"


def _load_build_script() -> Any:
    # Loaded by path: the package itself cannot be imported before it is
    # built, and importing it would need the extension.
    spec = importlib.util.spec_from_file_location("_exterr_build", HERE / BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):
    """build_py without the build-time-only cffi script, with jansson's licence
    and the compiled message catalogues."""

    def find_package_modules(self, package: str, package_dir: str) -> Any:
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if not (m[0] == "exterr" and m[1] == "_build")]

    def run(self) -> None:
        super().run()
        script = _load_build_script()
        if script.jansson_compiled_in():
            dst = Path(self.build_lib) / "exterr" / "LICENSE.jansson"
            shutil.copyfile(script.find_jansson_sources() / "LICENSE", dst)
        if script.nls_compiled_in():
            # exterr/locale/LL/LC_MESSAGES/exterr-kernel.mo, where the
            # package tells the extension to look (see _build.py).
            script.compile_catalogues(
                script.find_c_sources(), Path(self.build_lib) / "exterr" / script.LOCALE_DIR
            )


class BuildExt(build_ext):
    """build_ext that never trusts a previous build's objects (see above).

    It also drops the run paths the interpreter's own link flags carry (a
    pyenv or other private-prefix Python has ``-Wl,-rpath,PREFIX/lib`` in
    ``LDSHARED``): the extension does not link libpython, so such a path
    would only be a directory of the build machine searched first, even
    for libc, wherever the wheel is installed. The run path of
    EXTERR_USE_SYSTEM_LIB (``runtime_library_dirs``) is added per
    extension, after this, and stays.
    """

    def finalize_options(self) -> None:
        super().finalize_options()
        self.force = True

    def build_extensions(self) -> None:
        linker = self.compiler.linker_so
        self.compiler.linker_so = [
            a for a in linker if not a.startswith(("-Wl,-rpath,", "-Wl,-rpath=", "-Wl,-R"))
        ]
        super().build_extensions()


class SDist(sdist):
    """sdist that vendors libexterr-c's and jansson's sources (see module docstring)."""

    def make_release_tree(self, base_dir: str, files: Any) -> None:
        super().make_release_tree(base_dir, files)
        script = _load_build_script()
        script.copy_c_sources(script.find_c_sources(), Path(base_dir) / "vendor" / "libexterr-c")
        jansson = script.find_jansson_sources()
        if jansson is None:
            raise SystemExit(
                "sdist: no jansson sources to vendor (set EXTERR_JANSSON_SOURCE_DIR, "
                "or run tools/fetch-jansson); a wheel built from this sdist "
                "would need libjansson at run time"
            )
        script.copy_jansson_sources(jansson, Path(base_dir) / "vendor" / "jansson")


def _limited_api() -> bool:
    # cffi's own test (cffi/setuptools_ext.py and _cffi_include.h): a
    # debug build (sys.gettotalrefcount) or a free-threaded one gets the
    # full API, so its wheel must keep the interpreter's own tag.
    return not hasattr(sys, "gettotalrefcount") and not sysconfig.get_config_var(
        "Py_GIL_DISABLED"
    )


setup(
    cffi_modules=[BUILD_SCRIPT + ":make_builder"],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy, "sdist": SDist},
    options={"bdist_wheel": {"py_limited_api": LIMITED_API_TAG}} if _limited_api() else {},
)
