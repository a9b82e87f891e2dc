"""Domain keys of a description: their raw form and their Python value."""

from __future__ import annotations

import json
from typing import Dict, List, NamedTuple, Union

#: What a field decodes to: a JSON value as the json module would give it.
JSONValue = Union[str, int, float, bool, None, List["JSONValue"], Dict[str, "JSONValue"]]


class Field(NamedTuple):
    """One domain key, exactly as libexterr reports it.

    ``name`` is the JSON key, ``type`` libexterr's type name (``"string"``,
    ``"integer"``, ``"real"``, ``"boolean"``, ``"null"``, ``"object"``,
    ``"array"``) and ``text`` the value text of contract section 3 (decoded
    string, ``%lld``, ``%.17g``, ``true``/``false``/``null``, compact JSON).
    """

    name: str
    type: str
    text: str

    @property
    def value(self) -> JSONValue:
        """The value as a Python object (see :func:`decode_value`)."""
        return decode_value(self.type, self.text)


def decode_value(type_name: str, text: str) -> JSONValue:
    """Turn a (type name, value text) pair into a Python value.

    Decoding the text rather than re-reading the JSON keeps one source of
    truth: the library's parse. The texts round-trip exactly (``%lld`` for
    integers, ``%.17g`` for reals). A type name this binding does not know
    (a newer libexterr) gives the text unchanged rather than failing.
    """
    if type_name == "string":
        return text
    if type_name == "integer":
        return int(text)
    if type_name == "real":
        return float(text)
    if type_name == "boolean":
        return text == "true"
    if type_name == "null":
        return None
    if type_name in ("object", "array"):
        value: JSONValue = json.loads(text)
        return value
    return text
