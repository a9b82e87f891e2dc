"""exterr.parse(), ExtendedError and ParseError."""

from __future__ import annotations

import errno
import pickle

import pytest
from conftest import PERF_JSON, PERF_LINE

import exterr


def test_parse_bytes() -> None:
    err = exterr.parse(PERF_JSON)
    assert isinstance(err, exterr.ExtendedError)
    assert isinstance(err, OSError)
    assert err.errno == errno.EINVAL
    assert err.strerror == "Invalid argument"
    assert err.message == "sample_freq above kernel.perf_event_max_sample_rate"
    assert err.module == "perf"
    assert err.file == "kernel/events/core.c"
    assert err.line == 12883
    assert err.syscall == 298
    assert err.json == PERF_JSON.decode()
    assert dict(err.fields) == {"attr_field": "sample_freq"}
    assert err.fields_raw == (("attr_field", "string", "sample_freq"),)


def test_str_is_exterr_format() -> None:
    assert str(exterr.parse(PERF_JSON)) == PERF_LINE


def test_parse_str_and_buffers() -> None:
    want = str(exterr.parse(PERF_JSON))
    assert str(exterr.parse(PERF_JSON.decode())) == want
    assert str(exterr.parse(bytearray(PERF_JSON))) == want  # type: ignore[arg-type]
    assert str(exterr.parse(memoryview(PERF_JSON))) == want  # type: ignore[arg-type]


def test_parse_rejects_other_types() -> None:
    with pytest.raises(TypeError):
        exterr.parse(42)  # type: ignore[arg-type]


def test_one_trailing_nul_is_accepted() -> None:
    err = exterr.parse(PERF_JSON + b"\0")
    assert err.json == PERF_JSON.decode()


def test_syscall_absent_is_none() -> None:
    err = exterr.parse(b'{"code":-1,"module":"m","file":"f.c","line":0,"message":"x"}')
    assert err.syscall is None
    assert err.fields == {}
    assert err.fields_raw == ()
    assert str(err) == "Operation not permitted: x [m] (f.c:0)"


def test_fields_are_read_only() -> None:
    err = exterr.parse(PERF_JSON)
    with pytest.raises(TypeError):
        err.fields["attr_field"] = "x"  # type: ignore[index]


def test_repr_names_the_essentials() -> None:
    text = repr(exterr.parse(PERF_JSON))
    assert text.startswith("ExtendedError(errno=22, module='perf'")
    assert "'attr_field': 'sample_freq'" in text


def test_pickle_round_trip() -> None:
    err = exterr.parse(PERF_JSON)
    err.filename = "/dev/null"
    back = pickle.loads(pickle.dumps(err))
    assert isinstance(back, exterr.ExtendedError)
    assert str(back) == str(err)
    assert back.fields_raw == err.fields_raw
    assert back.filename == "/dev/null"


def test_can_be_raised_and_caught_as_oserror() -> None:
    with pytest.raises(OSError) as info:
        raise exterr.parse(PERF_JSON)
    assert info.value.errno == errno.EINVAL


def test_malformed_has_class_reason_and_position() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b'{"code":-22,')
    e = info.value
    assert isinstance(e, ValueError)
    assert e.error_class == "malformed"
    assert e.errno == errno.EBADMSG
    assert e.position == 12
    # exterr_parse(3): 1-based column of the 0-based byte position.
    assert (e.line, e.column) == (1, 13)
    assert e.reason
    assert str(e).startswith("malformed: ")
    assert "at byte 12" in str(e)


def test_position_of_a_raw_nul() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b'{"code":\0-22}')
    assert info.value.error_class == "malformed"
    assert info.value.position == 8


def test_schema_error_has_no_place() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b'{"code":-22,"module":"m","file":"f","line":1}')
    e = info.value
    assert e.error_class == "schema"
    assert e.errno == errno.EPROTO
    assert '"message"' in e.reason
    assert (e.position, e.line, e.column) == (0, 0, 0)
    assert "at byte" not in str(e)


def test_too_big() -> None:
    data = b" " * (exterr.MAX_JSON + 1)
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(data)
    assert info.value.error_class == "too-big"
    assert info.value.errno == errno.E2BIG


def test_depth_limit() -> None:
    deep = b"[" * (exterr.MAX_DEPTH + 1) + b"]" * (exterr.MAX_DEPTH + 1)
    body = b'{"code":-1,"module":"m","file":"f","line":1,"message":"x","d":' + deep + b"}"
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(body)
    assert info.value.error_class == "malformed"


def test_str_with_lone_surrogate_is_malformed() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse('{"code":-1,"module":"\ud800","file":"f","line":1,"message":"x"}')
    assert info.value.error_class == "malformed"


def test_empty_input_is_malformed() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b"")
    assert info.value.error_class == "malformed"


def test_parse_error_pickles() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b"[")
    back = pickle.loads(pickle.dumps(info.value))
    assert (back.error_class, back.position, back.reason) == (
        info.value.error_class,
        info.value.position,
        info.value.reason,
    )


def test_unknown_errno_formats_as_error_n() -> None:
    err = exterr.parse(b'{"code":-4095,"module":"m","file":"f","line":1,"message":"x"}')
    assert err.errno == 4095
    assert str(err).startswith("Error 4095: x")
