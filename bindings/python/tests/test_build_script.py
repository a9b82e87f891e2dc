"""The cffi build script's source discovery (run from the source tree)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "src" / "exterr" / "_build.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_exterr_build_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines functions only: no pkg-config
    return module


@pytest.mark.skipif(not SCRIPT.is_file(), reason="no source tree")
def test_bundled_build_compiles_every_library_source() -> None:
    build = load()
    src = build.find_c_sources()
    listed = set(build.c_sources(src))
    on_disk = {p.relative_to(src).as_posix() for p in (src / "src").glob("*.c")}
    # A file libexterr's CMake build compiles but the binding would not is
    # an undefined symbol at import time; catch it here instead.
    assert listed == on_disk
    # fetch.c also holds the constructor that enables descriptions for the
    # process on import (tests/test_enable.py sees it run).
    assert "src/fetch.c" in listed


def test_c_sources_falls_back_to_glob(tmp_path: Path) -> None:
    if not SCRIPT.is_file():
        pytest.skip("no source tree")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "b.c").write_text("")
    (tmp_path / "src" / "a.c").write_text("")
    assert load().c_sources(tmp_path) == ["src/a.c", "src/b.c"]


def test_system_header_from_before_v2_is_refused(tmp_path: Path) -> None:
    if not SCRIPT.is_file():
        pytest.skip("no source tree")
    build = load()
    old, new, empty = tmp_path / "old", tmp_path / "new", tmp_path / "empty"
    for d in (old, new, empty):
        d.mkdir()
    (old / "exterr.h").write_text("int exterr_fetch(struct exterr **errp);\n")
    (new / "exterr.h").write_text("int exterr_fetch_ex(struct exterr **errp, unsigned int);\n")
    with pytest.raises(RuntimeError, match="before v2"):
        build.check_system_header([str(empty), str(old), str(new)])
    # The first header found is the one the compiler uses.
    build.check_system_header([str(empty), str(new), str(old)])
    build.check_system_header([str(empty)])  # none found: the compiler decides


def test_jansson_config_template_is_filled(tmp_path: Path) -> None:
    if not SCRIPT.is_file():
        pytest.skip("no source tree")
    build = load()
    template = (
        "/* configure replaces @var@ substitutions */\n"
        "#define JSON_INLINE @json_inline@\n"
        "#define JSON_INTEGER_IS_LONG_LONG @json_have_long_long@\n"
    )
    out = build.jansson_config_h(template)
    assert "#define JSON_INLINE inline\n" in out
    assert "#define JSON_INTEGER_IS_LONG_LONG 1\n" in out
    # A variable a newer jansson adds must stop the build, not reach the
    # compiler as "@name@".
    with pytest.raises(RuntimeError, match="json_have_new_thing"):
        build.jansson_config_h(template + "#define X @json_have_new_thing@\n")


def test_jansson_source_dir_must_be_a_jansson_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SCRIPT.is_file():
        pytest.skip("no source tree")
    build = load()
    # A wrong EXTERR_JANSSON_SOURCE_DIR is an error, not a quiet fallback
    # to the system libjansson.
    monkeypatch.setenv("EXTERR_JANSSON_SOURCE_DIR", str(tmp_path))
    with pytest.raises(RuntimeError, match="not an unpacked jansson source tree"):
        build.find_jansson_sources()
    for f in build.JANSSON_REQUIRED:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text("")
    assert build.find_jansson_sources() == tmp_path.resolve()


def test_version_script_keeps_only_the_init_function(tmp_path: Path) -> None:
    if not SCRIPT.is_file():
        pytest.skip("no source tree")
    text = load().version_script(tmp_path).read_text()
    assert "global: PyInit__native;" in text and "local: *;" in text


@pytest.mark.skipif(not SCRIPT.is_file(), reason="no source tree")
def test_every_listed_catalogue_is_compiled(tmp_path: Path) -> None:
    build = load()
    src = build.find_c_sources()
    langs = build.linguas(src)
    assert "de" in langs
    made = build.compile_catalogues(src, tmp_path)
    assert made == [tmp_path / lang / "LC_MESSAGES" / "exterr-kernel.mo" for lang in langs]
    # A GNU .mo file starts with its magic number, in either byte order.
    assert all(p.read_bytes()[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde") for p in made)


def test_linguas_skips_comments_and_blank_lines(tmp_path: Path) -> None:
    (tmp_path / "po").mkdir()
    (tmp_path / "po" / "LINGUAS").write_text("# languages\n\nde fr # two\n")
    assert load().linguas(tmp_path) == ["de", "fr"]


def test_without_msgfmt_the_build_says_how_to_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SCRIPT.is_file():
        pytest.skip("no source tree")
    monkeypatch.setenv("MSGFMT", str(tmp_path / "no-msgfmt"))
    with pytest.raises(RuntimeError, match="EXTERR_NLS=0"):
        load().compile_catalogues(tmp_path, tmp_path / "out")
