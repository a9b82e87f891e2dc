"""What a program catches must not depend on the kernel (issue 19).

Each case makes a real failing call (or, for EACCES, the exception CPython
itself builds from an exec failure) three ways: bare, as the reference;
through exterr.call() on a fake kernel without exterr; and through
exterr.call() on a fake kernel that describes the failure. The described
exception must be of the reference's class, say the same things, and carry
the description; without a description the very same object must come
through.
"""

from __future__ import annotations

import copy
import errno
import os
import pickle
import subprocess
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import pytest
from fake_kernel import FakeKernel, description, description_line

import exterr
from exterr import _fetch, _supported, _translate

# Every OSError subclass CPython maps an errno to: a described exception
# must match exactly the same ``except`` clauses as the reference.
BUILTIN_OSERROR_CLASSES = (
    BlockingIOError, ChildProcessError, ConnectionError, BrokenPipeError,
    ConnectionAbortedError, ConnectionRefusedError, ConnectionResetError,
    FileExistsError, FileNotFoundError, InterruptedError, IsADirectoryError,
    NotADirectoryError, PermissionError, ProcessLookupError, TimeoutError,
)


@dataclass
class Case:
    code: int
    cls: type[OSError]
    # Makes the failing call in the directory it gets; fails the same way
    # when called again there.
    fail: Callable[[Path], object]


def rename_missing(tmp: Path) -> object:
    # ENOENT with filename and filename2.
    return os.rename(tmp / "missing", tmp / "other")


def rename_into_itself(tmp: Path) -> object:
    # EINVAL (a directory moved under itself), also with both filenames.
    (tmp / "d").mkdir(exist_ok=True)
    return os.rename(tmp / "d", tmp / "d" / "sub")


def exec_not_executable(tmp: Path) -> object:
    # EACCES even for root: execve() needs an execute bit. subprocess
    # re-raises the child's failure as CPython's class for the errno.
    path = tmp / "not-executable"
    path.write_bytes(b"#!/bin/sh\n")
    path.chmod(0o644)
    return subprocess.Popen([str(path)])


def link_directory(tmp: Path) -> object:
    # EPERM even for root: no hard links to directories.
    (tmp / "d").mkdir(exist_ok=True)
    return os.link(tmp / "d", tmp / "l")


def read_empty_pipe(tmp: Path) -> object:
    # EAGAIN: a non-blocking read with nothing to read.
    r, w = os.pipe()
    try:
        os.set_blocking(r, False)
        return os.read(r, 1)
    finally:
        os.close(r)
        os.close(w)


CASES = {
    "ENOENT": Case(errno.ENOENT, FileNotFoundError, rename_missing),
    "EINVAL": Case(errno.EINVAL, OSError, rename_into_itself),
    "EACCES": Case(errno.EACCES, PermissionError, exec_not_executable),
    "EPERM": Case(errno.EPERM, PermissionError, link_directory),
    "EAGAIN": Case(errno.EAGAIN, BlockingIOError, read_empty_pipe),
}


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeKernel]:
    """A fake patched kernel behind fetch() (and supported())."""
    k = FakeKernel()
    monkeypatch.setattr(_fetch, "lib", k)
    monkeypatch.setattr(_supported, "lib", k)
    monkeypatch.setattr(_translate, "_unsupported", False)
    yield k


def reference(case: Case, where: Path) -> OSError:
    """The exception of the bare call in ``where``, without exterr at all."""
    try:
        case.fail(where)
    except OSError as e:
        return e
    raise AssertionError("the call did not fail")


def through_call(
    case: Case, where: Path, kernel: FakeKernel, describe: bool
) -> tuple[OSError, OSError]:
    """(caught, raised): what exterr.call() let out, and what the call raised."""
    raised: list[OSError] = []

    def syscall() -> object:
        if describe:
            kernel.describe(case.code)  # the kernel records it as the call fails
        try:
            return case.fail(where)
        except OSError as e:
            raised.append(e)
            raise

    try:
        exterr.call(syscall)
    except OSError as e:
        return e, raised[0]
    raise AssertionError("the call did not fail")


def innermost(e: BaseException) -> tuple[str, str, int | None]:
    frame = traceback.extract_tb(e.__traceback__)[-1]
    return frame.filename, frame.name, frame.lineno


def assert_same_as_reference(got: OSError, ref: OSError) -> None:
    assert isinstance(got, type(ref))
    for cls in BUILTIN_OSERROR_CLASSES:
        assert isinstance(got, cls) == isinstance(ref, cls), cls
    assert got.args == ref.args
    assert got.errno == ref.errno
    assert got.strerror == ref.strerror
    assert got.filename == ref.filename
    assert got.filename2 == ref.filename2
    assert str(got) == str(ref)


@pytest.mark.parametrize("name", CASES)
def test_reference_is_cpythons_class(name: str, tmp_path: Path) -> None:
    # The cases themselves: each call fails with its errno, as CPython's class.
    case = CASES[name]
    ref = reference(case, tmp_path)
    assert type(ref) is case.cls
    assert ref.errno == case.code
    assert type(OSError(case.code, "x")) is case.cls


@pytest.mark.parametrize("name", CASES)
def test_described_keeps_class_and_text(name: str, tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES[name]
    ref = reference(case, tmp_path)
    got, raised = through_call(case, tmp_path, kernel, describe=True)
    assert_same_as_reference(got, ref)
    assert_same_as_reference(raised, ref)
    assert got is not raised
    assert isinstance(got, exterr.ExtendedError)
    assert issubclass(type(got), case.cls)
    assert innermost(got) == innermost(raised)


@pytest.mark.parametrize("name", CASES)
def test_described_except_clauses(name: str, tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES[name]
    try:
        with exterr.translate():
            kernel.describe(case.code)
            case.fail(tmp_path)
    except case.cls as e:
        assert isinstance(e, exterr.ExtendedError)
    else:
        raise AssertionError("not caught")

    try:
        with exterr.translate():
            kernel.describe(case.code)
            case.fail(tmp_path)
    except exterr.ExtendedError as e:
        assert isinstance(e, case.cls)


def test_except_file_not_found_error_spelled_out(tmp_path: Path, kernel: FakeKernel) -> None:
    try:
        with exterr.translate():
            kernel.describe(errno.ENOENT)
            open(tmp_path / "missing", "rb")
    except PermissionError:
        raise AssertionError("wrong clause")
    except FileNotFoundError as e:
        assert e.filename == str(tmp_path / "missing")
        assert str(e) == f"[Errno 2] No such file or directory: '{tmp_path / 'missing'}'"
        assert str(exterr.description_of(e)) == description_line(errno.ENOENT)


@pytest.mark.parametrize("name", CASES)
def test_described_carries_the_description(name: str, tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES[name]
    got, _ = through_call(case, tmp_path, kernel, describe=True)
    assert isinstance(got, exterr.ExtendedError)
    desc = got.exterr
    assert type(desc) is exterr.ExtendedError
    assert exterr.description_of(got) is desc
    assert desc.errno == case.code
    assert desc.json == description(case.code).decode()
    assert str(desc) == description_line(case.code)
    # The ExtendedError attributes are on the exception itself too.
    assert got.module == "vfs" and got.line == 2468 and got.syscall == 82
    assert got.message == f"made up by the test for errno {case.code}"
    assert got.fields == {"attr_field": "flags"}
    assert got.fields_raw == (("attr_field", "string", "flags"),)
    # Tracebacks show it (PEP 678).
    assert got.__notes__ == [f"exterr: {description_line(case.code)}"]
    assert kernel.pending is None


@pytest.mark.parametrize("name", CASES)
def test_described_pickles_and_copies(name: str, tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES[name]
    got, _ = through_call(case, tmp_path, kernel, describe=True)
    assert isinstance(got, exterr.ExtendedError)
    for back in (pickle.loads(pickle.dumps(got)), copy.copy(got), copy.deepcopy(got)):
        assert type(back) is type(got)
        assert_same_as_reference(back, got)
        assert isinstance(back, exterr.ExtendedError)
        assert back.exterr.json == got.exterr.json
        assert back.fields == got.fields
        assert back.__notes__ == got.__notes__


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("supported", [False, True], ids=["unpatched", "nothing-pending"])
def test_undescribed_is_the_original_object(
    name: str, supported: bool, tmp_path: Path, kernel: FakeKernel
) -> None:
    case = CASES[name]
    kernel.supported = supported
    got, raised = through_call(case, tmp_path, kernel, describe=False)
    assert got is raised
    assert type(got) is case.cls
    assert not hasattr(got, "__notes__")
    assert exterr.description_of(got) is None


@pytest.mark.parametrize("name", CASES)
def test_description_of_another_errno_is_ignored(name: str, tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES[name]

    def stale() -> object:
        kernel.describe(errno.ENOTTY if case.code != errno.ENOTTY else errno.EIO)
        return case.fail(tmp_path)

    with pytest.raises(case.cls) as info:
        exterr.call(stale)
    assert type(info.value) is case.cls
    assert exterr.description_of(info.value) is None


def test_one_class_per_original_class(tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES["ENOENT"]
    first, _ = through_call(case, tmp_path, kernel, describe=True)
    second, _ = through_call(case, tmp_path, kernel, describe=True)
    assert type(first) is type(second)
    assert type(first).__name__ == "ExtendedFileNotFoundError"
    assert type(first).__module__ == "exterr"
    assert FileNotFoundError in type(first).__bases__


def test_characters_written_and_instance_attributes_survive(kernel: FakeKernel) -> None:
    class AppError(OSError):
        """A library's own OSError subclass, with its own attribute."""

    def fail() -> None:
        kernel.describe(errno.EAGAIN)
        e = BlockingIOError(errno.EAGAIN, "would block", 7)
        e.add_note("from the library")
        raise e

    def fail_app() -> None:
        kernel.describe(errno.EIO)
        e = AppError(errno.EIO, "broken", "/dev/sda")
        e.device = "sda"  # type: ignore[attr-defined]
        raise e

    with pytest.raises(BlockingIOError) as blocked:
        exterr.call(fail)
    assert blocked.value.characters_written == 7
    assert blocked.value.__notes__[0] == "from the library"
    assert len(blocked.value.__notes__) == 2

    with pytest.raises(AppError) as app:
        exterr.call(fail_app)
    assert isinstance(app.value, exterr.ExtendedError)
    assert app.value.device == "sda"  # type: ignore[attr-defined]
    assert str(app.value) == "[Errno 5] broken: '/dev/sda'"


def test_originals_own_attribute_wins_over_the_descriptions(kernel: FakeKernel) -> None:
    def fail() -> None:
        kernel.describe(errno.EIO)
        e = OSError(errno.EIO, "Input/output error")
        e.message = "the library's"  # type: ignore[attr-defined]
        raise e

    with pytest.raises(OSError) as info:
        exterr.call(fail)
    assert isinstance(info.value, exterr.ExtendedError)
    assert info.value.message == "the library's"
    assert info.value.exterr.message == "made up by the test for errno 5"
    back = pickle.loads(pickle.dumps(info.value))
    assert isinstance(back, exterr.ExtendedError) and back.message == "the library's"


def test_class_that_refuses_subclasses_gets_the_description_attached(kernel: FakeKernel) -> None:
    class Sealed(OSError):
        def __init_subclass__(cls) -> None:
            raise TypeError("Sealed is final")

    raised: list[OSError] = []

    def fail() -> None:
        kernel.describe(errno.EINVAL)
        e = Sealed(errno.EINVAL, "Invalid argument")
        raised.append(e)
        raise e

    with pytest.raises(Sealed) as info:
        exterr.call(fail)
    assert info.value is raised[0]
    desc = exterr.description_of(info.value)
    assert desc is not None and str(desc) == description_line(errno.EINVAL)
    assert info.value.__notes__ == [f"exterr: {description_line(errno.EINVAL)}"]


def test_nested_translate_describes_once(tmp_path: Path, kernel: FakeKernel) -> None:
    case = CASES["ENOENT"]
    with pytest.raises(FileNotFoundError) as info:
        with exterr.translate():
            inner, _ = through_call(case, tmp_path, kernel, describe=True)
            raise inner
    assert isinstance(info.value, exterr.ExtendedError)
    assert len(info.value.__notes__) == 1


def test_parsed_description_is_its_own(kernel: FakeKernel) -> None:
    err = exterr.parse(description(errno.ENOENT))
    assert err.exterr is err
    assert exterr.description_of(err) is err
    assert str(err) == description_line(errno.ENOENT)
    assert exterr.description_of(ValueError("x")) is None
