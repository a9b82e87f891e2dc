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
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
BUILD_SCRIPT = "src/exterr/_build.py"


def _load_build_script() -> Any:
    # Loaded by path: the package itself cannot be imported before it is
    # built, and importing it would need the extension.
    spec = importlib.util.spec_from_file_location("_exterr_build", HERE / BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):
    """build_py without the build-time-only cffi script, with jansson's licence."""

    def find_package_modules(self, package: str, package_dir: str) -> Any:
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if not (m[0] == "exterr" and m[1] == "_build")]

    def run(self) -> None:
        super().run()
        script = _load_build_script()
        if script.jansson_compiled_in():
            dst = Path(self.build_lib) / "exterr" / "LICENSE.jansson"
            shutil.copyfile(script.find_jansson_sources() / "LICENSE", dst)


class BuildExt(build_ext):
    """build_ext that never trusts a previous build's objects (see above)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.force = True


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


setup(
    cffi_modules=[BUILD_SCRIPT + ":make_builder"],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy, "sdist": SDist},
)
