"""exterr.parse(), ExtendedError and ParseError."""

from __future__ import annotations

import errno
import pickle
from typing import Any

import pytest
from conftest import PERF_JSON, PERF_LINE

import exterr
from exterr import _native, _parse


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


def test_schema_error_points_at_the_offending_value() -> None:
    # libexterr 1.1 (exterr_parse(3)): a schema error has a place, the
    # first byte of the value that breaks the schema.
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b'{"code":"x","module":"m","file":"f","line":1,"message":"x"}')
    e = info.value
    assert e.error_class == "schema"
    assert e.errno == errno.EPROTO
    assert '"code"' in e.reason
    assert (e.position, e.line, e.column) == (8, 1, 9)  # the "x"
    assert str(e).endswith(" at byte 8 (line 1, column 9)")


def test_schema_error_for_a_missing_key_points_at_the_closing_brace() -> None:
    data = b'{"code":-22,"module":"m","file":"f","line":1} \n'
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(data)
    e = info.value
    assert e.error_class == "schema"
    assert '"message"' in e.reason
    # Where the key would have to go, not the end of the text.
    assert data[e.position : e.position + 1] == b"}"
    assert (e.position, e.line, e.column) == (44, 1, 45)
    assert "at byte 44" in str(e)


# (input, position, line, column): each a schema error (contract section 3).
SCHEMA_PLACES = [
    # code out of range: the 1
    (b'{"code":1,"module":"m","file":"f","line":1,"message":"x"}', 8, 1, 9),
    # code 0 is a note, whose "severity" is missing: the closing brace
    (b'{"code":0,"module":"m","file":"f","line":1,"message":"x"}', 56, 1, 57),
    # "severity" on an error: its value
    (b'{"code":-1,"severity":"info","module":"m","file":"f","line":1,"message":"x"}',
     22, 1, 23),
    # whitespace before the value is skipped; lines count from 1
    (b'{\n  "code": -1,\n  "module":  7,\n  "file": "f", "line": 1, "message": "x"\n}',
     29, 3, 14),
    # columns count characters, positions bytes (two 2-byte characters)
    ('{"code":-1,"module":"\u00e9\u00e9","file":5,"line":1,"message":"x"}'.encode(),
     34, 1, 33),
    # line too large for an int, syscall negative
    (b'{"code":-1,"module":"m","file":"f","line":2147483648,"message":"x"}', 42, 1, 43),
    (b'{"code":-1,"module":"m","file":"f","line":1,"message":"x","syscall":-1}',
     68, 1, 69),
    # a key is matched with its escapes decoded: "c\u006fde" is code
    (b'{"c\\u006fde":true,"module":"m","file":"f","line":1,"message":"x"}', 13, 1, 14),
    # a duplicate key: the second one's first byte
    (b'{"code":-1,"code":-1,"module":"m","file":"f","line":1,"message":"x"}', 11, 1, 12),
    # an integer too large for 64 bits, a real too large for a double
    (b'{"code":-1,"module":"m","file":"f","line":99999999999999999999,"message":"x"}',
     42, 1, 43),
    (b'{"code":-1,"module":"m","file":"f","line":1,"message":"x","d":-1e400}', 62, 1, 63),
    # not an object: the root value itself
    (b"[]", 0, 1, 1),
    (b' \n "code"', 3, 2, 2),
]


@pytest.mark.parametrize(("data", "position", "line", "column"), SCHEMA_PLACES)
def test_schema_error_positions(data: bytes, position: int, line: int, column: int) -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(data)
    e = info.value
    assert e.error_class == "schema", e
    assert (e.position, e.line, e.column) == (position, line, column), e.reason


def test_schema_position_of_a_str_is_in_its_utf8_bytes() -> None:
    text = '{"code":-1,"module":"\u00e9\u00e9","file":5,"line":1,"message":"x"}'
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(text)
    assert (info.value.position, info.value.line, info.value.column) == (34, 1, 33)


def test_too_big_has_no_place() -> None:
    data = b" " * (exterr.MAX_JSON + 1)
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(data)
    e = info.value
    assert e.error_class == "too-big"
    assert e.errno == errno.E2BIG
    # libexterr 1.1 reports SIZE_MAX / line 0: no place, not byte 0.
    assert (e.position, e.line, e.column) == (None, None, None)
    assert "at byte" not in str(e)


class _NullErrp:
    """libexterr, but exterr_parse_ex() gets a NULL errp: a real EINVAL."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_native.lib, name)

    def exterr_parse_ex(self, json: Any, len: int, errp: Any, perr: Any) -> int:
        return int(_native.lib.exterr_parse_ex(json, len, _native.ffi.NULL, perr))


def test_invalid_argument_has_no_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parse, "lib", _NullErrp())
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(PERF_JSON)
    e = info.value
    assert e.error_class == "invalid-argument"
    assert e.errno == errno.EINVAL
    assert (e.position, e.line, e.column) == (None, None, None)
    assert "at byte" not in str(e)


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
    assert (back.line, back.column, str(back)) == (
        info.value.line,
        info.value.column,
        str(info.value),
    )


def test_parse_error_without_a_place_pickles() -> None:
    with pytest.raises(exterr.ParseError) as info:
        exterr.parse(b" " * (exterr.MAX_JSON + 1))
    back = pickle.loads(pickle.dumps(info.value))
    assert (back.position, back.line, back.column) == (None, None, None)
    assert str(back) == str(info.value)


def test_unknown_errno_formats_as_error_n() -> None:
    err = exterr.parse(b'{"code":-4095,"module":"m","file":"f","line":1,"message":"x"}')
    assert err.errno == 4095
    assert str(err).startswith("Error 4095: x")
