"""Property-based tests of exterr.parse() (hypothesis).

The property the binding promises: on *any* input, parse() either returns
an ExtendedError or raises ParseError; never another exception, never a
crash. Random bytes rarely get past the first byte, so most inputs here
are near-valid: real descriptions (random domain keys and values) built
with the json module, then mutated byte by byte, truncated, or given a
duplicate key. Valid descriptions must also parse to what they say.

Bounded: 200 examples per test (about 6 s in all), no example database,
no deadline (CI machines are slow). hypothesis still caches Unicode tables
in .hypothesis/ (git-ignored); check points HYPOTHESIS_STORAGE_DIRECTORY
at its temp dir instead.
"""

from __future__ import annotations

import errno
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exterr

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# What each ParseError class must carry (contract section 3).
CLASS_ERRNO = {
    "malformed": errno.EBADMSG,
    "schema": errno.EPROTO,
    "too-big": errno.E2BIG,
}

REQUIRED = ("code", "module", "file", "line", "message", "syscall")

# Text the contract accepts in a description: any Unicode scalar value but
# U+0000 (\u0000 is rejected) and lone surrogates (not UTF-8).
text = st.text(st.characters(min_codepoint=1, exclude_categories=["Cs"]), max_size=20)
int64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
finite = st.floats(allow_nan=False, allow_infinity=False)

json_values = st.recursive(
    st.none() | st.booleans() | int64 | finite | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
)
# The v2 core keys, which are not domain keys either (test_v2.py has them).
V2_KEYS = ("id", "severity", "values")
domain_keys = st.dictionaries(
    text.filter(lambda k: k not in REQUIRED + V2_KEYS), json_values, max_size=5
)


@st.composite
def descriptions(draw: st.DrawFn) -> dict[str, Any]:
    """A valid description as a dict: required keys, syscall or not, domain keys."""
    d: dict[str, Any] = {
        "code": draw(st.integers(min_value=-4095, max_value=-1)),
        "module": draw(text),
        "file": draw(text),
        "line": draw(st.integers(min_value=0, max_value=2**31 - 1)),
        "message": draw(text),
    }
    if draw(st.booleans()):
        d["syscall"] = draw(st.integers(min_value=0, max_value=2**31 - 1))
    d.update(draw(domain_keys))
    return d


@st.composite
def encoded(draw: st.DrawFn) -> tuple[dict[str, Any], bytes]:
    """A description and its JSON text, in either of the json module's forms."""
    d = draw(descriptions())
    raw = json.dumps(
        d, ensure_ascii=draw(st.booleans()), separators=(",", ":"), allow_nan=False
    ).encode()
    return d, raw


# Bytes that matter to a JSON parser, to splice into valid text.
INTERESTING = [
    b'"', b"\\", b"{", b"}", b"[", b"]", b",", b":", b"\x00", b"\xff", b"\xc3",
    b"\xed\xa0\x80", b"\\u0000", b"\\ud800", b"-", b"0", b"1e999", b"9" * 25,
    b"true", b"null", b" ", b"\n",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A valid description with a few random byte-level edits."""
    _, raw = draw(encoded())
    data = bytearray(raw)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "splice", "truncate"]))
        at = draw(st.integers(min_value=0, max_value=max(len(data) - 1, 0)))
        if op == "flip" and data:
            data[at] ^= 1 << draw(st.integers(min_value=0, max_value=7))
        elif op == "set" and data:
            data[at] = draw(st.integers(min_value=0, max_value=255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=3))
        elif op == "delete" and data:
            del data[at : at + draw(st.integers(min_value=1, max_value=4))]
        elif op == "splice":
            data[at:at] = draw(st.sampled_from(INTERESTING))
        elif op == "truncate":
            del data[at:]
    return bytes(data)


@st.composite
def duplicated_key(draw: st.DrawFn) -> bytes:
    """A valid description with one of its keys written twice."""
    d, raw = draw(encoded())
    key = draw(st.sampled_from(sorted(d)))
    extra = json.dumps({key: d[key]}, separators=(",", ":"))[1:-1].encode()
    return raw[:-1] + b"," + extra + b"}"


STRING_KEYS = ("module", "file", "message")
# code 0 is in range, but a note, which needs a "severity" ("note" below).
INT_RANGES = {"code": (-4095, 0), "line": (0, 2**31 - 1), "syscall": (0, 2**31 - 1)}


def value_position(d: dict[str, Any], key: str) -> int:
    """Where json.dumps(d, separators=(",", ":")) writes the value of key."""
    prefix = "{"
    for k, v in d.items():
        prefix += json.dumps(k) + ":"
        if k == key:
            return len(prefix.encode())
        prefix += json.dumps(v, separators=(",", ":"), allow_nan=False) + ","
    raise KeyError(key)


@st.composite
def schema_broken(draw: st.DrawFn) -> tuple[str, bytes, int]:
    """Valid JSON that breaks the schema in one way (contract section 3),
    and the byte libexterr 1.1 must point at (exterr_parse(3))."""
    d = draw(descriptions())
    how = draw(
        st.sampled_from(
            ["missing", "type", "range", "huge-int", "not-object", "note", "severity"]
        )
    )
    key = ""
    if how == "missing":
        del d[draw(st.sampled_from(REQUIRED[:5]))]
    elif how == "note":
        # code 0 without "severity": as for a missing key
        d["code"] = 0
    elif how == "severity":
        # a note's "severity" on an error (code < 0): the value
        key = "severity"
        d[key] = draw(st.sampled_from(["info", "warning"]))
    elif how == "type":
        key = draw(st.sampled_from(sorted(INT_RANGES) + list(STRING_KEYS)))
        if key in STRING_KEYS:
            d[key] = draw(json_values.filter(lambda v: not isinstance(v, str)))
        else:
            d[key] = draw(json_values.filter(lambda v: type(v) is not int))
    elif how == "range":
        key = draw(st.sampled_from(sorted(INT_RANGES)))
        lo, hi = INT_RANGES[key]
        d[key] = draw(
            st.integers(min_value=-(2**63), max_value=lo - 1)
            | st.integers(min_value=hi + 1, max_value=2**63 - 1)
        )
    elif how == "huge-int":
        key = draw(st.sampled_from(sorted(INT_RANGES) + ["extra"]))
        d[key] = draw(st.sampled_from([2**64, 2**63, -(2**63) - 1, 10**30]))
    else:
        root = json.dumps(
            draw(json_values.filter(lambda v: not isinstance(v, dict))), allow_nan=False
        ).encode()
        return how, root, 0  # the root value's first byte
    data = json.dumps(d, separators=(",", ":"), allow_nan=False).encode()
    if how in ("missing", "note"):
        return how, data, len(data) - 1  # the } closing the root object
    # The offending value's first byte; for a huge integer, the number's.
    return how, data, value_position(d, key)


def line_column(data: bytes, position: int) -> tuple[int, int]:
    """exterr_parse(3)'s 1-based line and column (in characters) of a byte."""
    before = data[:position]
    line_start = before.rfind(b"\n") + 1
    column = 1 + sum(1 for b in before[line_start:] if b & 0xC0 != 0x80)
    return before.count(b"\n") + 1, column


def check_outcome(data: bytes | str) -> exterr.ExtendedError | exterr.ParseError:
    """parse(data) returns an ExtendedError or raises ParseError, nothing else."""
    try:
        err = exterr.parse(data)
    except exterr.ParseError as e:
        assert e.error_class in CLASS_ERRNO, e.error_class
        assert e.errno == CLASS_ERRNO[e.error_class]
        assert isinstance(e.reason, str) and e.reason
        raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        if e.position is None:
            # No place in the text: only for what is not about the text.
            assert e.error_class == "too-big", e
            assert (e.line, e.column) == (None, None)
        else:
            assert 0 <= e.position <= len(raw)
            assert e.line is not None and e.column is not None
            assert (e.line, e.column) == line_column(raw, e.position)
        str(e)
        return e
    assert isinstance(err, exterr.ExtendedError)
    if err.is_note:
        assert err.errno == 0 and err.severity in ("info", "warning")
    else:
        assert 1 <= err.errno <= 4095 and err.severity == "error"
    assert all(-(2**63) <= v <= 2**64 - 1 for v in err.values.values())
    assert err.line >= 0
    assert err.syscall is None or err.syscall >= 0
    line = str(err)
    assert "\n" not in line and "\r" not in line
    # What parsed is strict JSON: the json module reads it too, to the same code.
    doc = json.loads(err.json)
    assert isinstance(doc, dict) and doc["code"] == -err.errno
    for f in err.fields_raw:
        assert f.name not in REQUIRED + V2_KEYS
        f.value  # every value text decodes
    return err


def type_name(value: Any) -> str:
    """libexterr's type name for a value the json module wrote."""
    if isinstance(value, bool):
        return "boolean"
    for t, name in ((str, "string"), (int, "integer"), (float, "real"),
                    (list, "array"), (dict, "object")):
        if isinstance(value, t):
            return name
    assert value is None
    return "null"


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes_only_parse_or_parse_error(data: bytes) -> None:
    check_outcome(data)


@SETTINGS
@given(st.text(max_size=200))
def test_random_str_only_parse_or_parse_error(data: str) -> None:
    check_outcome(data)


@SETTINGS
@given(mutated())
def test_mutated_descriptions_only_parse_or_parse_error(data: bytes) -> None:
    check_outcome(data)


@SETTINGS
@given(duplicated_key())
def test_duplicate_key_is_a_schema_error(data: bytes) -> None:
    e = check_outcome(data)
    assert isinstance(e, exterr.ParseError) and e.error_class == "schema"


@SETTINGS
@given(schema_broken())
def test_schema_violations_are_schema_errors(case: tuple[str, bytes, int]) -> None:
    how, data, position = case
    e = check_outcome(data)
    assert isinstance(e, exterr.ParseError) and e.error_class == "schema", (data, e)
    # libexterr 1.1: the offending value, the } closing the root object for
    # a missing key, the root for a non-object. json.dumps wrote one line.
    assert (e.position, e.line, e.column) == (position, 1, position + 1), (how, data, e)


@SETTINGS
@given(encoded(), st.booleans())
def test_valid_descriptions_parse_to_what_they_say(
    case: tuple[dict[str, Any], bytes], trailing_nul: bool
) -> None:
    d, raw = case
    err = check_outcome(raw + b"\0" if trailing_nul else raw)
    assert isinstance(err, exterr.ExtendedError), err
    assert err.errno == -d["code"]
    assert (err.module, err.file, err.line, err.message) == (
        d["module"], d["file"], d["line"], d["message"],
    )
    assert err.syscall == d.get("syscall")
    domain = {k: v for k, v in d.items() if k not in REQUIRED}
    assert [f.name for f in err.fields_raw] == list(domain)
    assert dict(err.fields) == domain
    assert [f.type for f in err.fields_raw] == [type_name(v) for v in domain.values()]
    assert err.json == raw.decode()


@settings(max_examples=20, deadline=None, database=None)
@given(encoded())
def test_padded_past_the_limit_is_too_big(case: tuple[dict[str, Any], bytes]) -> None:
    _, raw = case
    e = check_outcome(raw + b" " * (exterr.MAX_JSON + 1 - len(raw)))
    assert isinstance(e, exterr.ParseError) and e.error_class == "too-big"
    # libexterr 1.1: no place in the text (SIZE_MAX, line 0), not byte 0.
    assert (e.position, e.line, e.column) == (None, None, None)
    assert "at byte" not in str(e)
