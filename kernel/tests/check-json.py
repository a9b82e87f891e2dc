#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check every description a guest test printed ("# exterr-json: ...").

The in-guest tests already check each description with their own strict
parser; this checks them again with a different one, on the host, and adds
the rules about content: the keys every description starts with, paths
relative to the source tree and no absolute path in any value, no kernel
addresses.

Usage: check-json.py CONSOLE_LOG [MIN_COUNT]
"""
import json
import re
import sys

MARK = "# exterr-json: "
HEAD = ["code", "id", "module", "file", "line", "message", "syscall"]
# A kernel pointer as hex, with or without 0x, or as a decimal u64 (but
# not 2^64 - 1, all bits set, which a value may well be).
ADDRESS = re.compile(r"(0x)?ffff[0-9a-f]{12}|18446(?!744073709551615)[0-9]{15}",
                     re.I)
ID = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
# A build or home directory anywhere in a value (a file name, a message).
ABSOLUTE = re.compile(r"(^|[\s\"'=:(])/(home|root|usr|var|tmp|build|src|work|opt|mnt|srv)/")


def strict_object(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def reject_constant(name):
    raise ValueError("non-standard constant " + name)


def has_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    return False


def check(text):
    doc = json.loads(text, object_pairs_hook=strict_object,
                     parse_constant=reject_constant)
    if not isinstance(doc, dict):
        raise ValueError("not an object")
    keys = list(doc)
    # A note (code 0) has its severity right after the code.
    if doc.get("code") == 0:
        if keys[1:2] != ["severity"] or doc["severity"] not in ("info", "warning"):
            raise ValueError("a note without severity")
        del keys[1]
    if keys[:len(HEAD)] != HEAD:
        raise ValueError("keys start %s, want %s" % (keys[:7], HEAD))
    if not isinstance(doc["code"], int) or not -4095 <= doc["code"] <= 0:
        raise ValueError("bad code")
    if not ID.match(doc["id"]) or len(doc["id"]) > 64:
        raise ValueError("bad id %r" % doc["id"])
    if "values" in doc:
        if keys[len(HEAD)] != "values" or not isinstance(doc["values"], dict) \
           or not doc["values"] or \
           not all(isinstance(v, int) and -2**63 <= v < 2**64
                   for v in doc["values"].values()):
            raise ValueError("bad values")
    if doc["file"].startswith("/") or "/../" in doc["file"]:
        raise ValueError("path not relative to the source tree")
    if any(has_surrogate(v) for v in doc.values()):
        raise ValueError("lone surrogate")
    if ADDRESS.search(text):
        raise ValueError("looks like a kernel address")
    if any(isinstance(v, str) and ABSOLUTE.search(v) for v in doc.values()):
        raise ValueError("an absolute path")


def main():
    lines = open(sys.argv[1], "rb").read().decode("utf-8").splitlines()
    minimum = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    seen = bad = 0
    for line in lines:
        if not line.startswith(MARK):
            continue
        text = line[len(MARK):]
        # record-style lines carry a case name before the JSON
        if not text.startswith("{"):
            text = text.split(" ", 1)[1]
        seen += 1
        try:
            check(text)
        except ValueError as e:
            bad += 1
            print("bad description (%s): %s" % (e, text))
    print("%d descriptions checked, %d bad" % (seen, bad))
    if seen < minimum:
        print("expected at least %d descriptions" % minimum)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
