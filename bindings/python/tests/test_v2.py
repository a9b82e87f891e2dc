"""libexterr 1.1 v2: id, severity (notes), values, fetch(notes=True)."""

from __future__ import annotations

import errno
import io
import pickle
from typing import Any

import pytest
from conftest import PERF_JSON, PERF_LINE
from hypothesis import given
from hypothesis import strategies as st

import exterr
from exterr import _extended, _fetch
from exterr.__main__ import main
from exterr._native import ffi, lib

INT64_MIN = -(2**63)
UINT64_MAX = 2**64 - 1

# The contract's section 2 example: an error with an id and values.
PERF_V2 = (
    b'{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf",'
    b'"file":"kernel/events/core.c","line":13134,'
    b'"message":"sample_freq above kernel.perf_event_max_sample_rate","syscall":298,'
    b'"values":{"sample_freq":1099511627776,"limit":100000},"attr_field":"sample_freq"}'
)
PERF_V2_LINE = (
    "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate "
    "[perf attr_field=sample_freq sample_freq=1099511627776 limit=100000] "
    "(kernel/events/core.c:13134)"
)
# A note (code 0) from the contract's section 4.
NOTE = (
    b'{"code":0,"severity":"info","id":"vivid.fmt.pixelformat_replaced",'
    b'"module":"vivid","file":"drivers/media/test-drivers/vivid/vivid-vid-cap.c",'
    b'"line":660,"message":"pixelformat not supported, replaced by YUYV","syscall":16,'
    b'"values":{"requested":1482184792,"granted":1448695129},"field":"pixelformat"}'
)
NOTE_LINE = (
    "note: pixelformat not supported, replaced by YUYV "
    "[vivid field=pixelformat requested=1482184792 granted=1448695129] "
    "(drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)"
)
LIMITS = (
    b'{"code":-34,"module":"m","file":"f.c","line":1,"message":"x",'
    b'"values":{"max":18446744073709551615,"min":-9223372036854775808,'
    b'"i64max":9223372036854775807,"above":9223372036854775808,"zero":0,"neg":-1}}'
)


def desc(code: int = -22, **extra: bytes) -> bytes:
    """A description with raw JSON ``extra`` members after the core keys."""
    more = b"".join(b',"%s":%s' % (k.encode(), v) for k, v in extra.items())
    return b'{"code":%d,"module":"m","file":"f.c","line":7,"message":"x"%s}' % (code, more)


# --- id ----------------------------------------------------------------------


def test_id() -> None:
    err = exterr.parse(PERF_V2)
    assert err.id == "perf.sample_freq.above_max_rate"
    # id, severity and values are core keys, not domain fields.
    assert dict(err.fields) == {"attr_field": "sample_freq"}


def test_id_absent_is_none() -> None:
    err = exterr.parse(PERF_JSON)
    assert err.id is None
    assert err.severity == "error" and not err.is_note
    assert err.values == {} and len(err.values) == 0


def test_id_must_be_a_string() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(desc(id=b"null"))
    assert info.value.error_class == "schema"


# --- values ------------------------------------------------------------------


def test_values_in_document_order() -> None:
    err = exterr.parse(PERF_V2)
    assert list(err.values.items()) == [("sample_freq", 1099511627776), ("limit", 100000)]


def test_values_are_exact_over_the_whole_range() -> None:
    values = exterr.parse(LIMITS).values
    assert values["max"] == 18446744073709551615 == UINT64_MAX
    assert values["min"] == -9223372036854775808 == INT64_MIN
    assert values["i64max"] == 2**63 - 1
    assert values["above"] == 2**63
    assert values["zero"] == 0 and values["neg"] == -1
    assert all(type(v) is int for v in values.values())
    assert list(values) == ["max", "min", "i64max", "above", "zero", "neg"]


def test_values_in_the_format_line() -> None:
    assert str(exterr.parse(LIMITS)) == (
        "Numerical result out of range: x [m max=18446744073709551615 "
        "min=-9223372036854775808 i64max=9223372036854775807 "
        "above=9223372036854775808 zero=0 neg=-1] (f.c:1)"
    )


def test_values_follow_the_fields_in_the_format_line() -> None:
    assert str(exterr.parse(PERF_V2)) == PERF_V2_LINE


def test_values_are_read_only() -> None:
    err = exterr.parse(PERF_V2)
    with pytest.raises(TypeError):
        err.values["limit"] = 1  # type: ignore[index]


@pytest.mark.parametrize(
    "bad",
    [b"18446744073709551616", b"-9223372036854775809", b"1.5", b'"1"', b"1e3", b"null"],
)
def test_values_outside_the_range_or_not_integers_are_schema(bad: bytes) -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(desc(values=b'{"v":' + bad + b"}"))
    assert info.value.error_class == "schema"


def test_above_int64_only_in_values() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(desc(big=b"18446744073709551615"))
    assert info.value.error_class == "schema"


@given(st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
                       st.integers(INT64_MIN, UINT64_MAX), max_size=6))
def test_values_round_trip(values: dict[str, int]) -> None:
    body = b"{" + b",".join(b'"%s":%d' % (k.encode(), v) for k, v in values.items()) + b"}"
    err = exterr.parse(desc(values=body))
    assert list(err.values.items()) == list(values.items())
    assert str(err).endswith(
        "".join(f" {k}={v}" for k, v in values.items()) + "] (f.c:7)"
    )


# --- severity and notes ------------------------------------------------------


def test_note_info() -> None:
    err = exterr.parse(NOTE)
    assert err.severity == "info"
    assert err.is_note
    assert err.errno == 0
    assert err.id == "vivid.fmt.pixelformat_replaced"
    assert dict(err.values) == {"requested": 1482184792, "granted": 1448695129}
    assert dict(err.fields) == {"field": "pixelformat"}
    assert str(err) == NOTE_LINE


def test_note_warning_format_line() -> None:
    err = exterr.parse(desc(0, severity=b'"warning"', values=b'{"n":-5}'))
    assert err.severity == "warning" and err.is_note
    assert str(err) == "warning: x [m n=-5] (f.c:7)"


def test_note_format_without_values() -> None:
    assert str(exterr.parse(desc(0, severity=b'"info"'))) == "note: x [m] (f.c:7)"


def test_error_severity() -> None:
    err = exterr.parse(PERF_V2)
    assert err.severity == "error" and not err.is_note
    assert str(err).startswith("Invalid argument: ")


@pytest.mark.parametrize(
    "data",
    [
        desc(0),  # a note needs a severity
        desc(-22, severity=b'"info"'),  # an error has none
        desc(0, severity=b'"error"'),  # not a note's severity
        desc(0, severity=b"1"),
    ],
)
def test_bad_severity_is_schema(data: bytes) -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(data)
    assert info.value.error_class == "schema"


# --- the object: repr, pickle, constructor, CLI ------------------------------


def test_v1_repr_is_unchanged() -> None:
    assert repr(exterr.parse(PERF_JSON)) == (
        "ExtendedError(errno=22, module='perf', message='sample_freq above "
        "kernel.perf_event_max_sample_rate', file='kernel/events/core.c', line=12883, "
        "syscall=298, fields={'attr_field': 'sample_freq'})"
    )


def test_repr_shows_the_v2_members() -> None:
    text = repr(exterr.parse(NOTE))
    assert "id='vivid.fmt.pixelformat_replaced'" in text
    assert "severity='info'" in text
    assert "values={'requested': 1482184792, 'granted': 1448695129}" in text


@pytest.mark.parametrize("data", [NOTE, LIMITS, PERF_V2])
def test_pickle_keeps_the_v2_members(data: bytes) -> None:
    err = exterr.parse(data)
    back = pickle.loads(pickle.dumps(err))
    assert (back.id, back.severity, dict(back.values), str(back)) == (
        err.id,
        err.severity,
        dict(err.values),
        str(err),
    )


def test_constructor_defaults_are_v1() -> None:
    err = exterr.ExtendedError(
        22, message="m", module="x", file="f", line=1, syscall=None,
        fields_raw=(), json="{}", formatted="line",
    )
    assert (err.id, err.severity, dict(err.values), err.is_note) == (None, "error", {}, False)


def test_cli_shows_id_severity_and_values() -> None:
    out = io.StringIO()
    assert main(["decode", "-"], stdin=io.BytesIO(NOTE), stdout=out, stderr=io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == NOTE_LINE
    assert "  errno    0 (Success)" in lines
    assert "  id       vivid.fmt.pixelformat_replaced" in lines
    assert "  severity info" in lines
    assert lines[-3:] == ["  values:", "    requested  1482184792", "    granted    1448695129"]


def test_cli_v1_output_has_no_v2_lines() -> None:
    out = io.StringIO()
    main(["decode", "-"], stdin=io.BytesIO(PERF_JSON), stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert text.splitlines()[0] == PERF_LINE
    assert "  id " not in text and "severity" not in text and "values:" not in text


# --- an older libexterr: err->size decides (EXTERR_HAS) -----------------------


def _from_c_with_size(data: bytes, size: int) -> exterr.ExtendedError:
    """from_c() of a real parse whose struct claims to be ``size`` bytes."""
    errp = ffi.new("struct exterr **")
    assert lib.exterr_parse_ex(data, len(data), errp, ffi.NULL) == 0
    try:
        errp[0].size = size
        return _extended.from_c(errp[0])
    finally:
        lib.exterr_free(errp[0])


def test_a_1_0_sized_struct_reads_as_without_v2() -> None:
    # libexterr 1.0's struct ended with json_len.
    err = _from_c_with_size(NOTE, ffi.offsetof("struct exterr", "id"))
    assert err.id is None
    assert err.severity == "error" and not err.is_note
    assert err.values == {}
    # exterr_format() makes the same check: no values, no "note:".
    assert str(err) == (
        "Success: pixelformat not supported, replaced by YUYV [vivid field=pixelformat] "
        "(drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)"
    )
    assert err.fields == {"field": "pixelformat"}


def test_a_struct_cut_after_id_keeps_only_the_id() -> None:
    cut = ffi.offsetof("struct exterr", "severity")
    err = _from_c_with_size(NOTE, cut)
    assert err.id == "vivid.fmt.pixelformat_replaced"
    assert (err.severity, dict(err.values)) == ("error", {})


def test_the_full_struct_has_every_member() -> None:
    err = _from_c_with_size(NOTE, ffi.sizeof("struct exterr"))
    assert (err.id, err.severity, len(err.values)) == ("vivid.fmt.pixelformat_replaced", "info", 2)


# --- fetch(notes=True) -------------------------------------------------------


class NoteKernel:
    """exterr_fetch()/exterr_fetch_ex() of a fake kernel holding one note.

    As the kernel does: without the notes flag the note is not handed out
    (ENODATA) and stays pending; with it, it is, once.
    """

    def __init__(self, pending: bytes | None = NOTE) -> None:
        self.pending = pending
        self.calls: list[tuple[str, int]] = []

    def _take(self, errp: Any) -> int:
        if self.pending is None:
            return -errno.ENODATA
        raw, self.pending = self.pending, None
        assert lib.exterr_parse_ex(raw, len(raw), errp, ffi.NULL) == 0
        return 0

    def exterr_fetch(self, errp: Any) -> int:
        self.calls.append(("exterr_fetch", 0))
        return -errno.ENODATA

    def exterr_fetch_ex(self, errp: Any, flags: int) -> int:
        self.calls.append(("exterr_fetch_ex", flags))
        if not flags & 0x1:  # EXTERR_FETCH_NOTES
            return -errno.ENODATA
        return self._take(errp)

    def exterr_free(self, err: Any) -> None:
        lib.exterr_free(err)


def test_fetch_notes_uses_exterr_fetch_ex(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = NoteKernel()
    monkeypatch.setattr(_fetch, "lib", kernel)
    assert exterr.fetch() is None  # the default never sees a note
    assert kernel.pending is not None  # ... and leaves it pending
    note = exterr.fetch(notes=True)
    assert note is not None and note.is_note and note.severity == "info"
    assert str(note) == NOTE_LINE
    assert exterr.fetch(notes=True) is None  # consumed
    assert kernel.calls == [
        ("exterr_fetch", 0),
        ("exterr_fetch_ex", lib.EXTERR_FETCH_NOTES),
        ("exterr_fetch_ex", lib.EXTERR_FETCH_NOTES),
    ]
    assert lib.EXTERR_FETCH_NOTES == 0x1


def test_fetch_notes_also_returns_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fetch, "lib", NoteKernel(PERF_V2))
    err = exterr.fetch(notes=True)
    assert err is not None and not err.is_note and err.errno == errno.EINVAL
    assert err.id == "perf.sample_freq.above_max_rate"


def test_notes_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        exterr.fetch(True)  # type: ignore[misc]
