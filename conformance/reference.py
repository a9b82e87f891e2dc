#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reference implementation of docs/contract.md sections 3 and 4.

Written from the contract alone, with the Python standard library, so that
it shares no code (and no JSON parser) with libexterr: when the two agree
on a case, the case is very likely right; when they disagree, one of them
breaks the contract.

    reference.py FILE       print the canonical result (section 5) for FILE

As a module: describe(data) returns the canonical object for the bytes.
"""
import json
import os
import sys

MAX_JSON = 65536
MAX_DEPTH = 32
INT_MAX = 2**31 - 1
INT64_MIN, INT64_MAX = -2**63, 2**63 - 1
REQUIRED = ("code", "module", "file", "line", "message")
CORE_KEYS = REQUIRED + ("syscall", "id", "severity", "values")
UINT64_MAX = 2**64 - 1


class _Big(int):
    """An integer above 2^63 - 1: only a member of "values" may be one."""
# The characters a field string may hold and still be printed unquoted.
BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 "0123456789_.:/+-")


class Reject(Exception):
    """The input is refused; args[0] is the conformance class name."""


# --- section 3: bytes -> JSON value ---------------------------------------

def _prescan(text):
    """Checks the JSON parser would not make, on the decoded text.

    Python's json accepts lone surrogate escapes and has no nesting limit
    of its own (only recursion depth), so the contract's limits are checked
    here, on the raw text, outside strings. Anything outside strings must
    be ASCII: that rejects a BOM (RFC 8259 text starts with whitespace or
    a value), and the json module's number scanner, whose pure-Python
    fallback matches any Unicode digit, never sees a non-ASCII digit.
    """
    depth = 0
    in_string = escaped = False
    for c in text:
        if c == "\0":
            raise Reject("malformed")
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise Reject("malformed")
        elif c in "]}":
            # Unbalanced closers are the parser's to reject.
            depth = max(depth - 1, 0)
        elif ord(c) > 0x7f:
            raise Reject("malformed")


def _loads(text):
    """json.loads made strict; returns (value, schema problems found).

    The hooks run in the middle of parsing, before the parser has seen the
    rest of the input, so schema problems are only collected: a syntax
    error anywhere in the text must still win.
    """
    problems = []

    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            problems.append("duplicate key")
            # dict() drops all but the last value of a key; a lone
            # surrogate in a dropped one must still be found.
            _check_strings(items)
        return dict(items)

    def integer(s):
        # Length first: int() of thousands of digits is slow (and limited).
        if len(s.lstrip("-")) > 20 or not INT64_MIN <= int(s) <= UINT64_MAX:
            problems.append("integer beyond 64 bits")
            return 0
        if int(s) > INT64_MAX:
            return _Big(s)
        return int(s)

    def real(s):
        value = float(s)
        # A double cannot hold it; like an oversized integer, not a syntax
        # error (the contract is silent on reals, libexterr says schema).
        if value in (float("inf"), float("-inf")):
            problems.append("real beyond double")
            return 0.0
        return value

    def constant(name):
        raise ValueError("non-standard constant " + name)

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_int=integer,
                           parse_float=real, parse_constant=constant)
    except (ValueError, RecursionError):
        raise Reject("malformed") from None
    return value, problems


def _check_strings(value):
    """Lone surrogates and U+0000 are valid Python, but not in the contract."""
    if isinstance(value, str):
        if "\0" in value:
            raise Reject("malformed")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Reject("malformed") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_strings(k)
            _check_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _check_strings(v)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _has_big(value):
    if isinstance(value, _Big):
        return True
    if isinstance(value, dict):
        return any(_has_big(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_big(v) for v in value)
    return False


def _check_v2(doc):
    """id, severity and values (contract section 2, mechanism v2)."""
    values = doc.get("values")
    rest = {k: v for k, v in doc.items() if k != "values"}
    # Integers above 2^63 - 1 are for the members of "values" only.
    if _has_big(rest):
        raise Reject("schema")
    if "values" in doc:
        if not isinstance(values, dict):
            raise Reject("schema")
        for v in values.values():
            if not _is_int(v):
                raise Reject("schema")
    if "id" in doc and not isinstance(doc["id"], str):
        raise Reject("schema")
    if "severity" in doc:
        if doc["severity"] not in ("info", "warning") or doc["code"] != 0:
            raise Reject("schema")
    elif doc["code"] == 0:
        raise Reject("schema")


def _int_key(doc, key, low, high):
    v = doc[key]
    if not _is_int(v) or not low <= v <= high:
        raise Reject("schema")
    return v


def parse(data):
    """Bytes -> the description as a dict (document order), or Reject."""
    # The NUL prctl() copies out is not part of the JSON, nor of its size.
    if data.endswith(b"\0"):
        data = data[:-1]
    if len(data) > MAX_JSON:
        raise Reject("too-big")
    try:
        text = data.decode("utf-8", "strict")
    except UnicodeDecodeError:
        raise Reject("malformed") from None
    _prescan(text)
    doc, problems = _loads(text)
    _check_strings(doc)
    if problems:
        raise Reject("schema")

    if not isinstance(doc, dict):
        raise Reject("schema")
    for key in REQUIRED:
        if key not in doc:
            raise Reject("schema")
    for key in ("module", "file", "message"):
        if not isinstance(doc[key], str):
            raise Reject("schema")
    if isinstance(doc["code"], _Big):
        raise Reject("schema")
    _int_key(doc, "code", -4095, 0)
    _int_key(doc, "line", 0, INT_MAX)
    if "syscall" in doc:
        _int_key(doc, "syscall", 0, INT_MAX)
    _check_v2(doc)
    return doc


# --- section 3: value texts ------------------------------------------------

def real_text(x):
    """A double as jansson's encoder writes it with JSON_REAL_PRECISION(17).

    jansson prints "%.17g", appends ".0" when that looks like an integer,
    and strips the '+' and leading zeros of the exponent.
    """
    s = "%.17g" % x
    if "." not in s and "e" not in s:
        s += ".0"
    if "e" in s:
        mantissa, exp = s.split("e")
        sign = "-" if exp.startswith("-") else ""
        s = mantissa + "e" + sign + (exp.lstrip("+-").lstrip("0") or "0")
    return s


def _string_json(s):
    """A JSON string as jansson writes it: UTF-8 kept, '/' not escaped."""
    out = ['"']
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f",
             "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    for c in s:
        if c in short:
            out.append(short[c])
        elif ord(c) < 0x20:
            out.append("\\u%04X" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def compact(v):
    """A value as jansson's JSON_COMPACT encoder writes it."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if _is_int(v):
        return str(v)
    if isinstance(v, float):
        return real_text(v)
    if isinstance(v, str):
        return _string_json(v)
    if isinstance(v, list):
        return "[" + ",".join(compact(x) for x in v) + "]"
    return "{" + ",".join(_string_json(k) + ":" + compact(x)
                          for k, x in v.items()) + "}"


def field(name, v):
    """One domain key as the canonical {name, type, value}."""
    if isinstance(v, str):
        kind, text = "string", v
    elif isinstance(v, bool):
        kind, text = "boolean", compact(v)
    elif v is None:
        kind, text = "null", "null"
    elif _is_int(v):
        kind, text = "integer", str(v)
    elif isinstance(v, float):
        kind, text = "real", real_text(v)
    elif isinstance(v, list):
        kind, text = "array", compact(v)
    else:
        kind, text = "object", compact(v)
    return {"name": name, "type": kind, "value": text}


# --- section 4: the human line ---------------------------------------------

def _load_errno_text():
    """errno-text.tsv: the suite's own table, so this needs no glibc."""
    table = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "errno-text.tsv")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            number, _name, text = line.rstrip("\n").split("\t")
            table[int(number)] = text
    return table


_errno_text = _load_errno_text()


def strerror(error):
    """Contract section 4: the table's text, else "Error <n>"."""
    return _errno_text.get(error, "Error %d" % error)


def escape(s):
    """Control characters spelled out, so the line stays one line."""
    out = []
    for c in s:
        if c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or c == "\x7f":
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def format_value(f):
    if f["type"] != "string" or (f["value"] and set(f["value"]) <= BARE):
        return f["value"]
    quoted = "".join("\\" + c if c in '"\\' else escape(c)
                     for c in f["value"])
    return '"' + quoted + '"'


def format_line(d):
    # Field names: the contract only says how values are printed; names are
    # escaped like the message so that the line cannot be broken by a key.
    parts = [escape(d["module"])]
    parts += [escape(f["name"]) + "=" + format_value(f) for f in d["fields"]]
    parts += [escape(v["name"]) + "=" + v["value"] for v in d["values"]]
    lead = {"info": "note", "warning": "warning"}.get(d["severity"])
    return "%s: %s [%s] (%s:%d)" % (lead or strerror(d["error"]),
                                   escape(d["message"]),
                                   " ".join(parts), escape(d["file"]),
                                   d["line"])


# --- section 5: the canonical object ---------------------------------------

def describe(data):
    """Bytes -> the canonical result object of contract section 5."""
    try:
        doc = parse(data)
    except Reject as e:
        return {"result": "reject", "class": e.args[0]}
    d = {
        "result": "ok",
        "error": -doc["code"],
        "module": doc["module"],
        "message": doc["message"],
        "file": doc["file"],
        "line": doc["line"],
        "syscall": doc.get("syscall", -1),
        "fields": [field(k, v) for k, v in doc.items() if k not in CORE_KEYS],
        "id": doc.get("id"),
        "severity": doc.get("severity", "error"),
        "values": [{"name": k, "value": str(int(v))}
                   for k, v in doc.get("values", {}).items()],
    }
    d["format"] = format_line(d)
    return d


def dumps(obj):
    """The text of an expected.json: stable, readable, UTF-8."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: reference.py FILE")
    with open(argv[1], "rb") as f:
        sys.stdout.write(dumps(describe(f.read())))


if __name__ == "__main__":
    main(sys.argv)
