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


class _Huge(_Big):
    """An integer outside -2^63..2^64 - 1, kept as one just outside."""
# The characters a field string may hold and still be printed unquoted.
BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 "0123456789_.:/+-")


class Reject(Exception):
    """The input is refused; args[0] is the conformance class name.

    position is the 0-based byte offset of the first offending byte in the
    input, or None when the rejection has no place (too-big).
    """

    def __init__(self, kind, position=None):
        super().__init__(kind)
        self.position = position


class SelfDisagreement(Exception):
    """The two halves of this reference disagree: a bug here, not a case."""


# --- section 3: where the text goes wrong ---------------------------------
#
# The json module says *whether* a text is valid; it cannot say where the
# contract places an error (its positions follow its own parser). _Scan is
# a second, separate reader of the bytes, written from the contract's
# placement rules, that only finds places: the first byte that cannot
# continue a valid text, the first duplicate key or unrepresentable
# number, and where the root's members and the members of its "values"
# start. parse() uses the json module's verdict for the class and checks
# that _Scan agrees with it, so each half tests the other.

_WS = b" \t\n\r"
_DIGITS = b"0123456789"
_HEX = b"0123456789abcdefABCDEF"


class _SyntaxError(Exception):
    def __init__(self, position):
        super().__init__(position)
        self.position = position


class _Scan:
    """Places in data (bytes, without the tolerated NUL)."""

    def __init__(self, data):
        self.data = data
        self.n = len(data)
        self.error = None           # malformed: the offending byte
        self.problem = None         # first duplicate key / huge number
        self.root_start = None
        self.root_close = None      # the '}' or ']' closing the root
        self.members = {}           # root key (decoded) -> value start
        self.values_members = []    # root "values" members: value starts
        try:
            i = self._ws(0)
            self.root_start = i
            i = self._value(i, 0, False)
            i = self._ws(i)
            if i < self.n:
                raise _SyntaxError(i)   # trailing bytes
        except _SyntaxError as e:
            self.error = e.position

    def _fail(self, i):
        # Past the end is a premature end: the input's length.
        raise _SyntaxError(min(i, self.n))

    def _ws(self, i):
        while i < self.n and self.data[i] in _WS:
            i += 1
        return i

    def _found(self, i):
        """A schema problem of the text itself; the first one counts."""
        if self.problem is None:
            self.problem = i

    def _value(self, i, depth, exempt):
        """Past the value at i; depth containers are open around it.

        exempt: a direct member of the root's "values", whose integers may
        reach 2^64 - 1 (their range is checked with the schema).
        """
        if i >= self.n:
            self._fail(i)
        c = self.data[i:i + 1]
        if c in (b"{", b"["):
            if depth == MAX_DEPTH:
                self._fail(i)       # the bracket one level too deep
            if c == b"{":
                return self._object(i, depth + 1)
            return self._array(i, depth + 1)
        if c == b'"':
            return self._string(i)
        if c == b"-" or (c and c in _DIGITS):
            return self._number(i, exempt)
        for word in (b"true", b"false", b"null"):
            if c == word[:1]:
                for k, b in enumerate(word):
                    if i + k >= self.n or self.data[i + k] != b:
                        self._fail(i + k)
                return i + len(word)
        self._fail(i)

    def _members(self, i, member):
        """Past the object whose '{' is at i, and where its '}' is.

        member(key, j) reads the value of key, which starts at j, and
        returns where it ends. Keys compare decoded ("c\\u006fde" is code).
        """
        seen = set()
        j = self._ws(i + 1)
        if j < self.n and self.data[j:j + 1] == b"}":
            return j + 1, j
        while True:
            if j >= self.n or self.data[j:j + 1] != b'"':
                self._fail(j)
            end = self._string(j)
            # Valid by now.
            key = json.loads(self.data[j:end].decode("utf-8"))
            if key in seen:
                self._found(j)
            seen.add(key)
            j = self._ws(end)
            if j >= self.n or self.data[j:j + 1] != b":":
                self._fail(j)
            j = self._ws(member(key, self._ws(j + 1)))
            c = self.data[j:j + 1]
            if c == b"}":
                return j + 1, j
            if c != b",":
                self._fail(j)
            j = self._ws(j + 1)

    def _object(self, i, depth):
        root = depth == 1

        def member(key, j):
            if root:
                self.members[key] = j
                if key == "values" and self.data[j:j + 1] == b"{":
                    return self._values(j, depth + 1)
            return self._value(j, depth, False)

        end, close = self._members(i, member)
        if root:
            self.root_close = close
        return end

    def _values(self, i, depth):
        """The root's "values" object: records where each member starts."""
        if depth > MAX_DEPTH:
            self._fail(i)
        starts = []

        def member(key, j):
            starts.append(j)
            return self._value(j, depth, True)

        end, _ = self._members(i, member)
        self.values_members = starts
        return end

    def _array(self, i, depth):
        j = self._ws(i + 1)
        if j < self.n and self.data[j:j + 1] == b"]":
            if depth == 1:
                self.root_close = j
            return j + 1
        while True:
            j = self._ws(self._value(j, depth, False))
            c = self.data[j:j + 1]
            if c == b"]":
                if depth == 1:
                    self.root_close = j
                return j + 1
            if c != b",":
                self._fail(j)
            j = self._ws(j + 1)

    def _hex4(self, k):
        """The code point of the 4 hex digits at k."""
        for m in range(k, k + 4):
            if m >= self.n or self.data[m] not in _HEX:
                self._fail(m)
        return int(self.data[k:k + 4], 16)

    def _string(self, i):
        """Past the string whose '"' is at i."""
        j = i + 1
        while True:
            if j >= self.n:
                self._fail(j)
            c = self.data[j]
            if c == 0x22:
                return j + 1
            if c < 0x20:
                self._fail(j)
            if c >= 0x80:
                # The shortest prefix Python's strict decoder takes is
                # one character; none (also when the input ends in it)
                # is ill-formed UTF-8, placed at its first byte.
                for size in (2, 3, 4):
                    try:
                        self.data[j:j + size].decode("utf-8")
                    except UnicodeDecodeError:
                        continue
                    j += size
                    break
                else:
                    self._fail(j)
                continue
            if c != 0x5c:
                j += 1
                continue
            if j + 1 >= self.n:
                self._fail(j + 1)
            e = self.data[j + 1:j + 2]
            if e != b"u":
                if e not in b'"\\/bfnrt':
                    self._fail(j + 1)
                j += 2
                continue
            cp = self._hex4(j + 2)
            # Wrong as a whole: placed at the backslash.
            if cp == 0 or 0xdc00 <= cp <= 0xdfff:
                self._fail(j)
            if not 0xd800 <= cp <= 0xdbff:
                j += 6
                continue
            low = j + 6
            # The input ending where the low half belongs is a
            # premature end, not (yet) a lone surrogate.
            if low >= self.n or (self.data[low] == 0x5c and
                                 low + 1 >= self.n):
                self._fail(self.n)
            if self.data[low:low + 2] != b"\\u":
                self._fail(j)
            if not 0xdc00 <= self._hex4(low + 2) <= 0xdfff:
                self._fail(j)
            j = low + 6

    def _number(self, i, exempt):
        j = i
        if self.data[j:j + 1] == b"-":
            j += 1

        def digits(j):
            if j >= self.n or self.data[j] not in _DIGITS:
                self._fail(j)
            while j < self.n and self.data[j] in _DIGITS:
                j += 1
            return j

        if self.data[j:j + 1] == b"0":
            j += 1
            if j < self.n and self.data[j] in _DIGITS:
                self._fail(j)       # a leading zero
        else:
            j = digits(j)
        real = False
        if self.data[j:j + 1] == b".":
            real = True
            j = digits(j + 1)
        if self.data[j:j + 1] in (b"e", b"E"):
            real = True
            j += 1
            if self.data[j:j + 1] in (b"+", b"-"):
                j += 1
            j = digits(j)
        token = self.data[i:j]
        if real:
            if float(token) in (float("inf"), float("-inf")):
                self._found(i)
        elif not exempt and (len(token.lstrip(b"-")) > 19 or
                             not INT64_MIN <= int(token) <= INT64_MAX):
            self._found(i)
        return j


def line_column(data, position):
    """1-based line and column (in characters) of byte position."""
    start = data.rfind(b"\n", 0, position) + 1
    # Everything before an error's place is valid UTF-8.
    return (data.count(b"\n", 0, position) + 1,
            len(data[start:position].decode("utf-8")) + 1)


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
        # Whether it is a problem depends on where it is: parse() decides.
        # Length first: int() of thousands of digits is slow (and limited).
        if len(s.lstrip("-")) > 20 or not INT64_MIN <= int(s) <= UINT64_MAX:
            return _Huge(INT64_MIN - 1 if s.startswith("-") else
                         UINT64_MAX + 1)
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


def _schema(doc, scan):
    """The schema checks in the contract's order; raises at the first.

    Contract section 3 says which problem is reported when there are
    several, and where: the first duplicate key or unrepresentable number
    in the text; a root that is not an object; then code, module, file,
    line, message, syscall, id, severity and values in that order, each
    at its value, or at the '}' closing the root when it is missing.
    """
    def fail(position):
        raise Reject("schema", position)

    if not isinstance(doc, dict):
        fail(scan.root_start)

    def check(key, ok, required=True):
        if key not in doc:
            if required:
                fail(scan.root_close)
            return
        if not ok(doc[key]):
            fail(scan.members[key])

    def int_in(low, high):
        return lambda v: _is_int(v) and low <= v <= high

    check("code", int_in(-4095, 0))
    check("module", lambda v: isinstance(v, str))
    check("file", lambda v: isinstance(v, str))
    check("line", int_in(0, INT_MAX))
    check("message", lambda v: isinstance(v, str))
    check("syscall", int_in(0, INT_MAX), required=False)
    check("id", lambda v: isinstance(v, str), required=False)
    # A note (code 0) needs a severity: missing, it belongs at the '}'.
    check("severity", lambda v: v in ("info", "warning") and doc["code"] == 0,
          required=doc["code"] == 0)
    if "values" in doc:
        values = doc["values"]
        if not isinstance(values, dict):
            fail(scan.members["values"])
        # Document order: dict keeps it, and duplicates were found above.
        for v, start in zip(values.values(), scan.values_members):
            if not _is_int(v) or not INT64_MIN <= v <= UINT64_MAX:
                fail(start)


def parse(data):
    """Bytes -> the description as a dict (document order), or Reject."""
    # The NUL prctl() copies out is not part of the JSON, nor of its size.
    if data.endswith(b"\0"):
        data = data[:-1]
    if len(data) > MAX_JSON:
        raise Reject("too-big")
    scan = _Scan(data)
    try:
        try:
            text = data.decode("utf-8", "strict")
        except UnicodeDecodeError:
            raise Reject("malformed") from None
        _prescan(text)
        doc, problems = _loads(text)
        _check_strings(doc)
    except Reject:
        if scan.error is None:
            raise SelfDisagreement("json refuses a text _Scan accepts")
        raise Reject("malformed", scan.error) from None
    if scan.error is not None:
        raise SelfDisagreement("_Scan refuses a text json accepts, at %d"
                               % scan.error)

    # An integer outside the signed 64-bit range is a problem of the text,
    # as a duplicate is, except as a member of the root's "values", whose
    # range (up to 2^64 - 1) is checked with the schema.
    if isinstance(doc, dict) and isinstance(doc.get("values"), dict):
        rest = [v for k, v in doc.items() if k != "values"]
        rest += [v for v in doc["values"].values() if not _is_int(v)]
    else:
        rest = doc
    if _has_big(rest):
        problems.append("integer outside the signed 64-bit range")
    if bool(problems) != (scan.problem is not None):
        raise SelfDisagreement("json and _Scan disagree on duplicates or "
                               "numbers: %r, %r" % (problems, scan.problem))
    if problems:
        raise Reject("schema", scan.problem)
    _schema(doc, scan)
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
        out = {"result": "reject", "class": e.args[0], "position": None,
               "line": None, "column": None,
               # The reason is English prose the reference does not write;
               # the contract only asks that there is one (section 5).
               "has-reason": True}
        if e.position is not None:
            body = data[:-1] if data.endswith(b"\0") else data
            out["position"] = e.position
            out["line"], out["column"] = line_column(body, e.position)
        return out
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
