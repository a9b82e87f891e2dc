#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the hand-written cases: inputs a kernel never emits.

Usage: gen-handwritten.py [--force | --check]

Every input is spelled out here as bytes, so binary ones (NULs, invalid
UTF-8) and large ones (64 KiB) are reviewable and reproducible. For each
case this writes cases/<name>/input, and expected.json from reference.py
only when the case has none yet: an expected.json is reviewed by hand
against docs/contract.md once, and must not silently follow a later change
of the reference. --force rewrites every expected.json (then review the
diff). --check writes nothing and exits 1 when a committed input differs
from what this script makes. Cases written by hand without this script are
left alone.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402

CASES = os.path.join(HERE, "cases")
MAX = reference.MAX_JSON


def desc(*extra, drop=(), **core):
    """A compact description; values are raw JSON text, keys kept in order.

    desc() is a valid description; keyword arguments replace a core value,
    drop removes core keys, extra appends (key, raw value) pairs. Raw bytes
    that are not UTF-8 are written as lone surrogates \\udcXX (Python's
    surrogateescape), so an invalid byte reads like the byte it is.
    """
    pairs = {"code": "-22", "module": '"perf"',
             "file": '"kernel/events/core.c"', "line": "12883",
             "message": '"sample_freq above kernel.perf_event_max_sample_rate"',
             "syscall": "298"}
    pairs.update(core)
    items = [(k, v) for k, v in pairs.items() if k not in drop]
    items += list(extra)
    text = "{" + ",".join('"%s":%s' % kv for kv in items) + "}"
    return text.encode("utf-8", "surrogateescape")


def sized(size, tail=b""):
    """A valid description of exactly size bytes (before tail)."""
    pad = size - len(desc(message='""'))
    data = desc(message='"' + "x" * pad + '"')
    assert len(data) == size
    return data + tail


def nested(depth):
    """A description whose deepest value sits at nesting depth `depth`."""
    # The root object is level 1; each array adds one.
    return desc(("deep", "[" * (depth - 1) + "]" * (depth - 1)))


CASES_BY_NAME = {
    # --- accepted: shapes and field types --------------------------------
    "ok-minimal": b'{"code":-22,"module":"m","file":"f.c","line":1,"message":"x"}',
    "ok-contract-example": desc(("attr_field", '"sample_freq"')),
    "ok-syscall-zero": desc(syscall="0"),
    "ok-syscall-int-max": desc(syscall="2147483647"),
    "ok-field-string": desc(("attr_field", '"sigtrap"')),
    "ok-field-integer": desc(("n", "42"), ("neg", "-7"), ("zero", "-0")),
    "ok-field-integer-64bit-limits": desc(("min", "-9223372036854775808"),
                                          ("max", "9223372036854775807")),
    "ok-field-real": desc(("half", "1.5"), ("tenth", "0.1"),
                          ("whole", "100.0"), ("big", "1e20"),
                          ("upper", "1E2"), ("small", "1.5e-7"),
                          ("negzero", "-0.0"), ("e16", "1e16"),
                          ("e17", "1e17"), ("max", "1.7976931348623157e308"),
                          ("denormal", "5e-324"), ("underflow", "1e-400")),
    "ok-field-boolean": desc(("yes", "true"), ("no", "false")),
    "ok-field-null": desc(("nothing", "null")),
    "ok-field-object": desc(("obj", '{"z":1,"a":[true,null],"s":"q\\"\\\\/\\u0001\\u001f\\n\\u00e9","r":2.50,"e":{}}')),
    "ok-field-array": desc(("arr", '[1,-2,3.0,"x",false,null,[],{"k":"v"}]'),
                           ("empty", "[]")),
    "ok-field-object-whitespace-dropped": desc(("obj", '{ "a" : [ 1 , 2 ] }')),
    "ok-unknown-keys-in-order": desc(("zeta", '"1"'), ("alpha", '"2"'),
                                     ("mid", "3"), ("Alpha", '"4"')),
    "ok-core-keys-any-order": b'{"attr_field":"x","message":"m","syscall":1,'
                              b'"line":2,"z":0,"file":"f","module":"mod",'
                              b'"code":-1}',
    "ok-duplicate-names-in-different-objects": desc(("a", '{"x":1}'),
                                                    ("b", '{"x":2}')),
    "ok-empty-key": desc(("", '"v"')),
    "ok-empty-core-strings": desc(module='""', file='""', message='""'),
    # --- accepted: limits of code, line, syscall --------------------------
    "ok-code-minus-1": desc(code="-1"),
    "ok-code-minus-4095-unknown": desc(code="-4095"),
    "ok-code-minus-4000-unknown": desc(code="-4000"),
    "ok-code-minus-41-glibc-gap": desc(code="-41"),
    "ok-code-minus-133": desc(code="-133"),
    "ok-code-minus-512-kernel-internal": desc(code="-512"),
    "ok-line-zero": desc(line="0"),
    "ok-line-int-max": desc(line="2147483647"),
    "ok-line-minus-zero": desc(line="-0"),
    # --- accepted: framing ------------------------------------------------
    "ok-trailing-nul": desc() + b"\0",
    "ok-whitespace-around": b" \t\r\n" + desc() + b"\n \t\r",
    "ok-whitespace-then-trailing-nul": desc() + b" \n\0",
    "ok-whitespace-between-tokens": b'{ "code" : -22 ,\n\t"module":"m",\r\n'
                                    b'"file" :"f","line": 1 ,"message":"x" }',
    # --- accepted: strings, escapes, format -------------------------------
    "ok-escapes": desc(message='"q\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9\\u00E9 \\u20ac"'),
    "ok-surrogate-pair": desc(message='"smile \\ud83d\\ude00 \\uD834\\uDD1E"'),
    "ok-raw-utf8": desc(message='"caf\u00e9 \u20ac \U0001f600 \u2028 \u0085"'),
    "ok-raw-del-in-string": desc(message='"del\x7fhere"'),
    "ok-hostile-message": desc(message='"line1\\nline2\\ttab\\rcr\\u0001\\u001b[31m\\u007f end \\"q\\" \\\\"'),
    "ok-hostile-module-and-file": desc(module='"mo\\ndule"', file='"fi\\tle\\u0002.c"'),
    "ok-format-bare-values": desc(("a", '"ABCxyz019_.:/+-"'), ("b", '"x"')),
    "ok-format-quoted-values": desc(("empty", '""'), ("space", '"a b"'),
                                    ("quote", '"say \\"hi\\""'),
                                    ("backslash", '"c:\\\\dir"'),
                                    ("control", '"l1\\nl2\\t\\u0007\\u007f"'),
                                    ("equals", '"a=b"'), ("bracket", '"[x]"'),
                                    ("utf8", '"\\u00e9t\\u00e9"'),
                                    ("comma", '"a,b"')),
    "ok-format-non-string-values-bare": desc(("i", "-5"), ("r", "0.5"),
                                             ("t", "true"), ("n", "null"),
                                             ("o", '{"k":"a b"}'),
                                             ("s", '["x y"]')),
    "ok-format-object-keeps-raw-del": desc(("o", '{"k":"\\u007f"}')),
    "ok-format-control-in-key": desc(("ke\\ny", '"v"')),
    "ok-brackets-inside-strings": desc(message='"' + "[{" * 40 + '"'),
    "ok-escaped-quote-then-brackets": desc(message='"\\"[[[[\\\\"',
                                           deep='"' + "]" * 40 + '"'),
    # --- accepted: size and depth limits ----------------------------------
    "ok-size-65536": sized(MAX),
    "ok-size-65536-plus-nul": sized(MAX, b"\0"),
    "ok-depth-32": nested(32),
    # --- too big ------------------------------------------------------------
    "too-big-65537": sized(MAX + 1),
    "too-big-65537-plus-nul": sized(MAX + 1, b"\0"),
    "too-big-garbage": b"x" * 70000,
    # --- malformed: framing -----------------------------------------------
    "malformed-empty": b"",
    "malformed-only-nul": b"\0",
    "malformed-whitespace-only": b" \n\t ",
    "malformed-two-trailing-nuls": desc() + b"\0\0",
    "malformed-nul-then-whitespace": desc() + b"\0\n",
    "malformed-raw-nul-in-string": desc(message='"a\0b"'),
    "malformed-raw-nul-between-tokens": desc().replace(b",", b",\0", 1),
    "malformed-escaped-nul": desc(message='"a\\u0000b"'),
    "malformed-escaped-nul-in-key": desc(("a\\u0000", "1")),
    "malformed-bom": b"\xef\xbb\xbf" + desc(),
    "malformed-trailing-garbage": desc() + b"x",
    "malformed-two-objects": desc() + desc(),
    "malformed-truncated": desc()[:40],
    "malformed-truncated-in-string": desc()[:desc().index(b"sample_freq") + 6],
    "malformed-missing-closing-brace": desc()[:-1],
    "malformed-trailing-comma": desc()[:-1] + b",}",
    "malformed-single-quotes": desc().replace(b'"perf"', b"'perf'"),
    "malformed-unquoted-key": desc().replace(b'"module"', b"module"),
    "malformed-comment": desc().replace(b"{", b"{/* c */", 1),
    "malformed-vertical-tab-whitespace": b"\x0b" + desc(),
    "malformed-form-feed-whitespace": desc().replace(b",", b",\x0c", 1),
    "malformed-unbalanced": desc(("a", "[1}")),
    "malformed-literal-typo": desc(("a", "tru")),
    # --- malformed: strings -----------------------------------------------
    "malformed-raw-newline-in-string": desc(message='"a\nb"'),
    "malformed-raw-tab-in-string": desc(message='"a\tb"'),
    "malformed-bad-escape": desc(message='"\\x41"'),
    "malformed-short-unicode-escape": desc(message='"\\u12"'),
    "malformed-lone-high-surrogate": desc(message='"\\ud800"'),
    "malformed-lone-low-surrogate": desc(message='"\\udc00"'),
    "malformed-reversed-surrogates": desc(message='"\\ude00\\ud83d"'),
    "malformed-high-surrogate-then-letter": desc(message='"\\ud800\\u0041"'),
    "malformed-lone-surrogate-in-key": desc(("\\udfff", "1")),
    "malformed-lone-surrogate-in-dropped-duplicate": desc(("a", '"\\ud800"'), ("a", "1")),
    # --- malformed: UTF-8 -------------------------------------------------
    "malformed-invalid-utf8-byte": desc(message='"a\udcffb"'),
    "malformed-utf8-overlong": desc(message='"\udcc0\udcaf"'),
    "malformed-utf8-encoded-surrogate": desc(message='"\udced\udca0\udc80"'),
    "malformed-utf8-above-u10ffff": desc(message='"\udcf4\udc90\udc80\udc80"'),
    "malformed-utf8-truncated-sequence": desc(message='"\udce2\udc82"'),
    "malformed-latin1": desc(message='"caf\udce9"'),
    "malformed-non-ascii-digit": desc(line="\u0661"),
    # --- malformed: numbers -----------------------------------------------
    "malformed-nan": desc(("x", "NaN")),
    "malformed-infinity": desc(("x", "Infinity")),
    "malformed-negative-infinity": desc(("x", "-Infinity")),
    "malformed-leading-zero": desc(line="012883"),
    "malformed-plus-sign": desc(line="+1"),
    "malformed-hex-number": desc(line="0x10"),
    "malformed-trailing-dot": desc(("x", "1.")),
    "malformed-leading-dot": desc(("x", ".5")),
    "malformed-bare-minus": desc(("x", "-")),
    # --- malformed: depth -------------------------------------------------
    "malformed-depth-33": nested(33),
    "malformed-depth-33-objects": desc(("o", '{"a":' * 32 + "1" + "}" * 32)),
    "malformed-depth-10000": b"[" * 10000 + b"]" * 10000,
    # --- malformed wins over schema problems earlier in the text ----------
    "malformed-duplicate-key-then-truncated": desc(code="-1")[:-1] + b',"code":-2,',
    "malformed-int-overflow-then-truncated": desc(("x", "99999999999999999999"))[:-1] + b",",
    "malformed-duplicate-key-then-invalid-utf8": desc(("code", "-1"), ("x", '"\udcff"')),
    "malformed-real-overflow-then-truncated": desc(("x", "1e999"))[:-1] + b",",
    "malformed-overflowing-number-where-colon-belongs": b'{"code"1e999:-22}',
    # --- schema: shape ----------------------------------------------------
    "schema-top-level-array": b'[{"code":-22}]',
    "schema-top-level-string": b'"perf"',
    "schema-top-level-number": b"-22",
    "schema-top-level-null": b"null",
    "schema-empty-object": b"{}",
    "schema-missing-code": desc(drop=("code",)),
    "schema-missing-module": desc(drop=("module",)),
    "schema-missing-file": desc(drop=("file",)),
    "schema-missing-line": desc(drop=("line",)),
    "schema-missing-message": desc(drop=("message",)),
    # --- schema: types ----------------------------------------------------
    "schema-code-string": desc(code='"-22"'),
    "schema-code-real": desc(code="-22.0"),
    "schema-code-boolean": desc(code="true"),
    "schema-module-integer": desc(module="1"),
    "schema-file-null": desc(file="null"),
    "schema-message-object": desc(message='{"text":"x"}'),
    "schema-message-array": desc(message='["x"]'),
    "schema-line-string": desc(line='"12"'),
    "schema-line-real": desc(line="1.0"),
    "schema-syscall-null": desc(syscall="null"),
    "schema-syscall-string": desc(syscall='"298"'),
    # --- schema: ranges ---------------------------------------------------
    "schema-code-zero": desc(code="0"),
    "schema-code-positive": desc(code="22"),
    "schema-code-minus-4096": desc(code="-4096"),
    "schema-code-beyond-64bit": desc(code="-99999999999999999999"),
    "schema-line-negative": desc(line="-1"),
    "schema-line-int-max-plus-1": desc(line="2147483648"),
    "schema-syscall-minus-1": desc(syscall="-1"),
    "schema-syscall-int-max-plus-1": desc(syscall="2147483648"),
    "schema-integer-above-int64": desc(("x", "9223372036854775808")),
    "schema-integer-below-int64": desc(("x", "-9223372036854775809")),
    "schema-integer-beyond-64bit-nested": desc(("x", "[1,{\"y\":18446744073709551616}]")),
    "schema-real-beyond-double": desc(("x", "1e400")),
    # --- schema: duplicates -----------------------------------------------
    "schema-duplicate-core-key": desc(("code", "-1")),
    "schema-duplicate-domain-key": desc(("a", "1"), ("a", "1")),
    "schema-duplicate-key-nested": desc(("o", '{"k":1,"k":2}')),
    # --- v2: ids, runtime values, notes (contract section 2) ---------------
    "v2-ok-id": desc(("attr_field", '"sample_freq"'),
                     id='"perf.sample_freq.above_max_rate"'),
    "v2-ok-values": desc(("values", '{"sample_freq":1099511627776,"limit":100000}'),
                         ("attr_field", '"sample_freq"'), id='"perf.x.y"'),
    "v2-ok-values-64bit-limits": desc(("values", '{"max":18446744073709551615,'
                                       '"min":-9223372036854775808,"zero":-0,'
                                       '"above_int64":9223372036854775808}')),
    "v2-ok-values-empty": desc(("values", "{}")),
    "v2-ok-values-whitespace": b'{ "code" : -22 , "module" : "m" , "file" : "f.c" , '
                               b'"line" : 1 , "message" : "x" , "values" : '
                               b'{ "a" : 18446744073709551615 , "b" : -1 } }',
    "v2-ok-values-name-escaped": desc(("values", '{"a\\"b\\u0001":7}')),
    "v2-ok-note-info": desc(("values", '{"requested":1482184792,"granted":1448695129}'),
                            ("field", '"pixelformat"'), code="0",
                            severity='"info"', id='"v4l2.vivid.fmt.pixelformat_replaced"',
                            module='"vivid"', syscall="16"),
    "v2-ok-note-warning": desc(code="0", severity='"warning"'),
    "v2-ok-nested-values-key": desc(("x", '{"values":{"a":1}}')),
    "v2-schema-note-without-severity": desc(code="0", id='"a.b"'),
    "v2-schema-severity-on-error": desc(severity='"info"'),
    "v2-schema-severity-error": desc(code="0", severity='"error"'),
    "v2-schema-severity-not-string": desc(code="0", severity="1"),
    "v2-schema-id-not-string": desc(id="7"),
    "v2-schema-id-null": desc(id="null"),
    "v2-schema-values-array": desc(("values", "[1]")),
    "v2-schema-values-real": desc(("values", '{"a":1.5}')),
    "v2-schema-values-exponent": desc(("values", '{"a":1e3}')),
    "v2-schema-values-string": desc(("values", '{"a":"1"}')),
    "v2-schema-values-nested": desc(("values", '{"a":{"b":1}}')),
    "v2-schema-values-above-uint64": desc(("values", '{"a":18446744073709551616}')),
    "v2-schema-values-below-int64": desc(("values", '{"a":-9223372036854775809}')),
    "v2-schema-values-duplicate": desc(("values", '{"a":1,"a":2}')),
    "v2-schema-uint64-outside-values": desc(("x", "18446744073709551615")),
    "v2-schema-uint64-nested-values": desc(("x", '[{"values":{"a":18446744073709551615}}]')),
    "v2-malformed-values-truncated": desc(("values", '{"a":1'))[:-1],
    # --- positions: where a rejection is (contract section 3) -------------
    # Multi-byte characters before the error: the column counts characters
    # (here 3 fewer than the bytes before it), the position bytes.
    "schema-line-string-after-utf8": desc(module='"p\u00e9rf\u20ac"', line='"12"'),
    "malformed-leading-zero-after-utf8": desc(message='"caf\u00e9 \U0001f600"', syscall="0298"),
    # Errors on a later line; "\r" is a character of its line, only "\n"
    # starts the next one.
    "schema-syscall-negative-after-newlines": b'{"code":-22,\n"module":"m",\n'
                                              b'  "file":"f.c",\n"line":1,\n'
                                              b'"message":"x",\n\t"syscall": -1}',
    "malformed-missing-comma-after-crlf": b'{"code":-22,\r\n"module":"m",\r\n'
                                          b'"file":"f.c",\r\n"line":1,\r\n'
                                          b'"message":"x"\r\n"syscall":1}',
    # Schema errors deep inside: at the duplicate key, at the one bad
    # member of "values".
    "schema-duplicate-key-deeply-nested": desc(("o", '{"a":{"b":[{"k":1},{"k":1,"k":2}]}}')),
    "v2-schema-values-second-member-real": desc(("values", '{"a":1,\n "b":1.5}')),
    # A missing key belongs at the '}' closing the root, wherever it is.
    "schema-missing-message-brace-on-own-line": desc(drop=("message",))[:-1] + b"\n  }\n",
    "v2-schema-note-without-severity-trailing-nul": desc(code="0")[:-1] + b" }\0",
    # The very last byte, and the end itself: a wrong bracket closing the
    # root; a text cut right after a high surrogate escape (a premature
    # end, at the length); one cut inside a UTF-8 sequence (ill-formed,
    # at its first byte).
    "malformed-wrong-closing-bracket-last-byte": desc()[:-1] + b"]",
    "malformed-truncated-after-high-surrogate": desc(message='"smile \\ud83d')[:-len(b',"syscall":298}')],
    "malformed-truncated-in-utf8-sequence": desc(message='"caf\udce2\udc82')[:-len(b',"syscall":298}')],
}


def write(name, data, force):
    folder = os.path.join(CASES, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "input"), "wb") as f:
        f.write(data)
    expected = os.path.join(folder, "expected.json")
    if os.path.exists(expected) and not force:
        return False
    with open(expected, "w", encoding="utf-8") as f:
        f.write(reference.dumps(reference.describe(data)))
    return True


def check():
    stale = 0
    for name, data in sorted(CASES_BY_NAME.items()):
        try:
            with open(os.path.join(CASES, name, "input"), "rb") as f:
                same = f.read() == data
        except FileNotFoundError:
            same = False
        if not same:
            print("STALE: cases/%s/input differs from gen-handwritten.py"
                  % name)
            stale += 1
    print("%d generated inputs up to date, %d stale"
          % (len(CASES_BY_NAME) - stale, stale))
    return 1 if stale else 0


def main(argv):
    if "--check" in argv[1:]:
        return check()
    force = "--force" in argv[1:]
    new = [name for name, data in sorted(CASES_BY_NAME.items())
           if write(name, data, force)]
    for name in new:
        print("wrote cases/%s/expected.json: review it against the contract"
              % name)
    print("%d hand-written cases" % len(CASES_BY_NAME))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
