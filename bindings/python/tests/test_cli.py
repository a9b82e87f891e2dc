"""python -m exterr decode FILE|-."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from conftest import PERF_JSON, PERF_LINE

from exterr.__main__ import main


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "exterr", *args],
        input=stdin.decode("utf-8", "surrogateescape"),
        capture_output=True,
        text=True,
        check=False,
    )


def test_decode_file(tmp_path: Path) -> None:
    path = tmp_path / "desc.json"
    path.write_bytes(PERF_JSON + b"\0")
    proc = run("decode", str(path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == PERF_LINE
    assert "  errno    22 (Invalid argument)" in lines
    assert "  syscall  298" in lines
    assert lines[-1].split() == ["attr_field", "string", "'sample_freq'"]


def test_decode_stdin() -> None:
    proc = run("decode", "-", stdin=PERF_JSON)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == PERF_LINE


def test_decode_invalid_input_exits_1() -> None:
    proc = run("decode", "-", stdin=b'{"code":-22,')
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "not a valid exterr description: malformed:" in proc.stderr
    assert "at byte 12" in proc.stderr


def test_decode_missing_file_exits_1(tmp_path: Path) -> None:
    proc = run("decode", str(tmp_path / "nope"))
    assert proc.returncode == 1
    assert "cannot read" in proc.stderr and "No such file" in proc.stderr


def test_usage_error_exits_2() -> None:
    assert run().returncode == 2


def test_main_in_process_without_fields() -> None:
    out, err = io.StringIO(), io.StringIO()
    data = b'{"code":-1,"module":"m","file":"f.c","line":3,"message":"x"}'
    status = main(["decode", "-"], stdin=io.BytesIO(data), stdout=out, stderr=err)
    assert status == 0
    text = out.getvalue()
    assert text.startswith("Operation not permitted: x [m] (f.c:3)\n")
    assert "  syscall  -\n" in text
    assert "  fields:  (none)\n" in text
    assert err.getvalue() == ""
