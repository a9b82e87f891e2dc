"""Field values: Python types, raw (name, type, text) and decode_value()."""

from __future__ import annotations

import pytest

import exterr
from exterr._fields import decode_value

TYPED = (
    b'{"code":-22,"module":"m","file":"f.c","line":1,"message":"x",'
    b'"s":"str","i":-9007199254740993,"r":0.1,"big":1e300,"t":true,"f":false,'
    b'"n":null,"o":{"z":1,"a":[true,null,"\\u00e9"]},"a":[1.5,{}],"e":""}'
)


def test_python_types() -> None:
    fields = exterr.parse(TYPED).fields
    assert fields["s"] == "str"
    assert fields["i"] == -9007199254740993 and type(fields["i"]) is int
    assert fields["r"] == 0.1 and type(fields["r"]) is float
    assert fields["big"] == 1e300
    assert fields["t"] is True
    assert fields["f"] is False
    assert fields["n"] is None
    assert fields["o"] == {"z": 1, "a": [True, None, "\u00e9"]}
    obj = fields["o"]
    assert isinstance(obj, dict) and list(obj) == ["z", "a"]  # document order
    assert fields["a"] == [1.5, {}]
    assert fields["e"] == ""


def test_raw_keeps_document_order_types_and_text() -> None:
    raw = exterr.parse(TYPED).fields_raw
    assert [f.name for f in raw] == ["s", "i", "r", "big", "t", "f", "n", "o", "a", "e"]
    assert [f.type for f in raw] == [
        "string", "integer", "real", "real", "boolean", "boolean",
        "null", "object", "array", "string",
    ]
    assert raw[2].text == "0.10000000000000001"
    assert raw[7].text == '{"z":1,"a":[true,null,"\u00e9"]}'
    name, type_name, text = raw[1]
    assert (name, type_name, text) == ("i", "integer", "-9007199254740993")


def test_field_value_property_matches_mapping() -> None:
    err = exterr.parse(TYPED)
    for f in err.fields_raw:
        assert f.value == err.fields[f.name]


def test_mapping_order_is_document_order() -> None:
    assert list(exterr.parse(TYPED).fields) == [f.name for f in exterr.parse(TYPED).fields_raw]


@pytest.mark.parametrize(
    ("type_name", "text", "value"),
    [
        ("string", "x y", "x y"),
        ("integer", "-3", -3),
        ("real", "2.5", 2.5),
        ("boolean", "true", True),
        ("boolean", "false", False),
        ("null", "null", None),
        ("object", '{"a":1}', {"a": 1}),
        ("array", "[1,2]", [1, 2]),
        ("from-the-future", "raw", "raw"),
    ],
)
def test_decode_value(type_name: str, text: str, value: object) -> None:
    assert decode_value(type_name, text) == value


def test_field_is_a_named_tuple() -> None:
    f = exterr.Field("n", "integer", "7")
    assert f == ("n", "integer", "7")
    assert f.value == 7
