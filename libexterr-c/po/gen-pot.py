#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the gettext template of the kernel's error messages.

Usage: gen-pot.py [--check] [-o FILE] [PATCH_DIR]

The template has one entry per error site of the kernel series
(PATCH_DIR, default kernel/patches, applied in the order of its
"series" file): msgid is the site's stable id, the English message is
the extracted comment ("#."), the reference is the source file. The
message catalogue of libexterr (text domain "exterr-kernel") is keyed by
id, so a reworded English message does not lose its translations.

No kernel tree is needed: the patches are applied to a sparse picture
of each file (the lines the hunks show, at the place they have after
every patch), and the sites are read from the final picture. That
picture is checked as it is built: every line a later hunk expects must
be the one an earlier hunk left there.

Sites read: the C macros ext_err, ext_err_val1/2, ext_err_note1/2,
perf_attr_err[_val1/2], perf_arg_err[_val1/2], perf_err,
perf_allow_kernel_attr, perf_allow_cpu_arg, perf_allow_tracepoint_attr,
v4l2_ext_err, v4l2_ext_err_acc, v4l2_ext_err_val2, v4l2_ext_err_ioctl,
check_fmt_of (whose message is fixed), the uapi domain's uapi_err,
uapi_err_val1/2, uapi_arg_err[_val1/2], uapi_copy_err (fixed message)
and its wrappers clone_flags_err, resolve_err[_ptr], and the Rust macro
ext_err!. Left out: the test module's domain "test" (ids "test.*"), code
in comments (Rust doc examples included), and tools/ and Documentation/
(user space and prose).

--check compares the result with the committed template (-o, default
exterr-kernel.pot next to this script) instead of writing it, and exits
1 when they differ. --check-po LL.po checks a catalogue against the
sites instead: the same ids, each with the current English message as
its "#." comment (msgmerge -U LL.po exterr-kernel.pot brings them over)
and a translation that is neither empty nor fuzzy.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOMAIN = "exterr-kernel"

# Macro name: (index of the id argument, index of the message argument,
# or a fixed message).
C_MACROS = {
    "ext_err": (2, 3),
    "ext_err_val1": (2, 3),
    "ext_err_val2": (2, 3),
    "ext_err_note1": (2, 3),
    "ext_err_note2": (2, 3),
    "perf_attr_err": (2, 3),
    "perf_attr_err_val1": (2, 3),
    "perf_attr_err_val2": (2, 3),
    "perf_arg_err": (2, 3),
    "perf_arg_err_val1": (2, 3),
    "perf_arg_err_val2": (2, 3),
    "perf_err": (1, 2),
    # perf_event_open()'s permission checks (perf_allow_kernel_or()).
    "perf_allow_kernel_attr": (1, 2),
    "perf_allow_cpu_arg": (1, 2),
    # perf_allow_tracepoint()'s check, in the tracepoint PMU.
    "perf_allow_tracepoint_attr": (1, 2),
    "v4l2_ext_err": (4, 5),
    "v4l2_ext_err_acc": (5, 6),
    "v4l2_ext_err_val2": (4, 5),
    "v4l2_ext_err_ioctl": (2, 3),
    "check_fmt_of": (5, "buffer type not supported by this device node"),
    # The uapi domain (versioned, extensible structs) and its wrappers.
    "uapi_err": (3, 4),
    "uapi_err_val1": (3, 4),
    "uapi_err_val2": (3, 4),
    "uapi_arg_err": (3, 4),
    "uapi_arg_err_val1": (3, 4),
    "uapi_arg_err_val2": (3, 4),
    "uapi_copy_err": (3, "bytes beyond this kernel's struct are not zero"),
    "clone_flags_err": (1, 2),
    "resolve_err": (1, 2),
    "resolve_err_ptr": (1, 2),
}
ID_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
SKIP_DIRS = ("tools/", "Documentation/")
EXCLUDED_DOMAINS = ("test",)


class Error(Exception):
    pass


# --- applying the series to sparse files -----------------------------------

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_patch(path):
    """Yields (old path, new path, hunks) per file of one patch; a hunk is
    (old start, old lines, new start, new lines)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("diff --git "):
            i += 1
            continue
        i += 1
        old = new = None
        while i < len(lines) and not lines[i].startswith(("@@", "diff --git ")):
            if lines[i].startswith("--- "):
                old = lines[i][4:]
            elif lines[i].startswith("+++ "):
                new = lines[i][4:]
            i += 1
        hunks = []
        while i < len(lines) and lines[i].startswith("@@"):
            m = HUNK_RE.match(lines[i])
            if not m:
                raise Error("%s: bad hunk header %r" % (path, lines[i]))
            os_, ol, ns, nl = (int(m.group(1)), int(m.group(2) or 1),
                               int(m.group(3)), int(m.group(4) or 1))
            i += 1
            olds, news = [], []
            while len(olds) < ol or len(news) < nl:
                if i >= len(lines):
                    raise Error("%s: hunk cut short" % path)
                line = lines[i]
                i += 1
                if line.startswith("\\"):	# \ No newline at end of file
                    continue
                tag, text = line[:1], line[1:]
                if tag == " " or line == "":
                    olds.append(text)
                    news.append(text)
                elif tag == "-":
                    olds.append(text)
                elif tag == "+":
                    news.append(text)
                else:
                    raise Error("%s: bad hunk line %r" % (path, line))
            if len(olds) != ol or len(news) != nl:
                raise Error("%s: hunk does not match its header" % path)
            while i < len(lines) and lines[i].startswith("\\"):
                i += 1
            hunks.append((os_, olds, ns, news))
        if old is None and new is None:
            continue			# mode change or binary: no text
        yield strip_ab(old), strip_ab(new), hunks


def strip_ab(name):
    if name is None or name == "/dev/null":
        return None
    return name.split("/", 1)[1] if name[:2] in ("a/", "b/") else name


def apply_hunks(known, hunks, where):
    """known: {line number: text} of one file before; returns it after."""
    out = {}
    ranges = []
    for os_, olds, ns, news in hunks:
        start = os_ if olds else os_ + 1
        for k, text in enumerate(olds):
            have = known.get(start + k)
            if have is not None and have != text:
                raise Error("%s:%d: the patch expects %r, the series so far "
                            "has %r" % (where, start + k, text, have))
        ranges.append((start, start + len(olds), len(news) - len(olds)))
        nstart = ns if news else ns + 1
        for k, text in enumerate(news):
            out[nstart + k] = text
    for line, text in known.items():
        shift = 0
        for start, end, delta in ranges:
            if start <= line < end:
                break
            if line >= end:
                shift += delta
        else:
            out[line + shift] = text
    return out


def apply_series(patch_dir):
    with open(os.path.join(patch_dir, "series"), encoding="utf-8") as f:
        names = [l.strip() for l in f
                 if l.strip() and not l.lstrip().startswith("#")]
    files = {}
    for name in names:
        for old, new, hunks in parse_patch(os.path.join(patch_dir, name)):
            known = files.pop(old, {}) if old else {}
            if new is None:
                continue		# deleted
            files[new] = apply_hunks(known, hunks, "%s: %s" % (name, new))
    return files


def runs(known):
    """The contiguous stretches of known lines: (first line, [texts])."""
    out = []
    for line in sorted(known):
        if out and out[-1][0] + len(out[-1][1]) == line:
            out[-1][1].append(known[line])
        else:
            out.append((line, [known[line]]))
    return out


# --- reading the sites ------------------------------------------------------

C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\x07", "b": "\b",
             "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
             "0": "\0", "e": "\x1b"}


def unescape(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        c = body[i + 1]
        if c == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        elif c in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + len(m.group(0))
        elif c == "\n":			# Rust: continued line
            i += 2
            while i < len(body) and body[i] in " \t\n":
                i += 1
        else:
            out.append(C_ESCAPES.get(c, c))
            i += 2
    return "".join(out)


TOKEN_RE = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>b?"(?:\\.|[^"\\])*")
  | (?P<char>'(?:\\.[^']*|[^'\\\n])')
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<other>.)
""", re.X | re.S)


def tokens(text, first_line):
    """(kind, value, line) of C or Rust text; comments and space dropped."""
    line = first_line
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup
        value = m.group(0)
        if kind not in ("space", "comment"):
            if kind == "string":
                value = unescape(value[value.index('"') + 1:-1])
            yield kind, value, line
        line += m.group(0).count("\n")


def call_args(toks, i):
    """toks[i] is "(": the arguments up to the matching ")", each a list of
    tokens, and the index after it; None when the text ends first."""
    depth, args, cur = 0, [], []
    for j in range(i, len(toks)):
        kind, value, _ = toks[j]
        if kind == "other" and value in "([{":
            depth += 1
            if depth == 1:
                continue
        elif kind == "other" and value in ")]}":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, j + 1
        elif kind == "other" and value == "," and depth == 1:
            args.append(cur)
            cur = []
            continue
        cur.append(toks[j])
    return None, len(toks)


def literal(arg):
    """The string of an argument made only of (adjacent) literals."""
    if arg and all(k == "string" for k, _, _ in arg):
        return "".join(v for _, v, _ in arg)
    return None


def sites_of(path, known):
    rust = path.endswith(".rs")
    for first, texts in runs(known):
        toks = list(tokens("\n".join(texts), first))
        i = 0
        while i < len(toks):
            kind, value, line = toks[i]
            i += 1
            if kind != "name":
                continue
            if rust:
                if (value != "ext_err" or i + 1 >= len(toks)
                        or toks[i][1] != "!" or toks[i + 1][1] != "("):
                    continue
                args, _ = call_args(toks, i + 1)
                strings = [literal(a) for a in args or []]
                strings = [s for s in strings if s is not None]
                if len(strings) < 2:
                    if any(v == "$" for a in args or [] for _, v, _ in a):
                        continue	# inside macro_rules!: parameters
                    raise Error("%s:%d: ext_err! without an id and a "
                                "message literal" % (path, line))
                yield strings[0], strings[1], line
                continue
            if value not in C_MACROS or i >= len(toks) or toks[i][1] != "(":
                continue
            if i >= 3 and toks[i - 2][1] == "define":
                continue		# the macro's own definition
            args, _ = call_args(toks, i)
            if args is None:
                raise Error("%s:%d: %s( runs past what the patches show"
                            % (path, line, value))
            id_at, msg_at = C_MACROS[value]
            if id_at >= len(args):
                continue
            site_id = literal(args[id_at])
            if site_id is None:
                continue		# inside another macro: id is a parameter
            if isinstance(msg_at, str):
                msg = msg_at
            else:
                msg = literal(args[msg_at]) if msg_at < len(args) else None
            if msg is None:
                if site_id.split(".")[0] in EXCLUDED_DOMAINS:
                    continue
                raise Error("%s:%d: %s: the message is not a string literal"
                            % (path, line, site_id))
            yield site_id, msg, line


def catalogue(patch_dir):
    """{id: (message, sorted files)} of the sites of the series."""
    files = apply_series(patch_dir)
    out = {}
    for path in sorted(files):
        if path.startswith(SKIP_DIRS) or not path.endswith((".c", ".h", ".rs")):
            continue
        for site_id, msg, line in sites_of(path, files[path]):
            if site_id.split(".")[0] in EXCLUDED_DOMAINS:
                continue
            if not ID_RE.match(site_id) or len(site_id) > 64:
                raise Error("%s:%d: %r is not a site id" %
                            (path, line, site_id))
            if site_id in out and out[site_id][0] != msg:
                raise Error("%s:%d: %s has two messages: %r and %r" %
                            (path, line, site_id, out[site_id][0], msg))
            prev = out.get(site_id, (msg, []))[1]
            out[site_id] = (msg, sorted(set(prev + [path])))
    return out


# --- writing the template ---------------------------------------------------

def po_string(s):
    s = s.replace("\\", "\\\\").replace('"', '\\"')
    s = s.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return '"%s"' % s


def comment_text(s):
    """The English message on one comment line, controls made visible."""
    return "".join(c if ord(c) >= 0x20 and c != "\x7f"
                   else "\\x%02x" % ord(c) for c in s)


def render(sites):
    out = [
        "# Messages of the Linux kernel's extended error descriptions,",
        "# keyed by the stable site id (text domain %s)." % DOMAIN,
        "# Generated by libexterr-c/po/gen-pot.py from kernel/patches;",
        "# do not edit. The English message of each site is its \"#.\"",
        "# comment.",
        "# SPDX-License-Identifier: LGPL-2.1-or-later",
        "#",
        "#, fuzzy",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: exterr-kernel\\n"',
        '"Report-Msgid-Bugs-To: \\n"',
        '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"',
        '"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"',
        '"Language-Team: LANGUAGE <LL@li.org>\\n"',
        '"Language: \\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        "",
    ]
    for site_id in sorted(sites):
        msg, paths = sites[site_id]
        out.append("#. %s" % comment_text(msg))
        out.append("#: %s" % " ".join(paths))
        out.append("msgid %s" % po_string(site_id))
        out.append('msgstr ""')
        out.append("")
    return "\n".join(out[:-1]) + "\n"


# --- checking a catalogue ---------------------------------------------------

def read_po(path):
    """[(comments, msgid, msgstr)] of a PO file of this template's shape;
    obsolete entries ("#~") come back with msgid None."""
    with open(path, encoding="utf-8") as f:
        blocks = f.read().strip("\n").split("\n\n")
    out = []
    for block in blocks:
        comments, strings, cur = [], {}, None
        for line in block.split("\n"):
            if line.startswith("#~"):
                cur = None
                strings["obsolete"] = True
            elif line.startswith("#"):
                comments.append(line)
            elif line.startswith(("msgid ", "msgstr ", "msgctxt ")):
                cur, rest = line.split(" ", 1)
                if cur in strings:
                    raise Error("%s: two entries without a blank line "
                                "between them, before %r" % (path, line))
                strings[cur] = po_unquote(rest, path)
            elif line.startswith('"') and cur:
                strings[cur] += po_unquote(line, path)
            elif line.strip():
                raise Error("%s: cannot read %r" % (path, line))
        if strings.get("obsolete"):
            out.append((comments, None, None))
        elif "msgid" in strings:
            out.append((comments, strings["msgid"], strings.get("msgstr")))
    return out


def po_unquote(s, path):
    s = s.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise Error("%s: bad string %r" % (path, s))
    return unescape(s[1:-1])


def check_po(path, sites):
    problems = []
    seen = set()
    for comments, msgid, msgstr in read_po(path):
        if msgid is None:
            problems.append("an obsolete entry (#~) is left")
            continue
        if msgid == "":
            continue			# the header
        seen.add(msgid)
        if msgid not in sites:
            problems.append("%s: no such site" % msgid)
            continue
        english = "#. " + comment_text(sites[msgid][0])
        if english not in comments:
            problems.append("%s: the English message is now %r" %
                            (msgid, sites[msgid][0]))
        if any(c.startswith("#,") and "fuzzy" in c for c in comments):
            problems.append("%s: fuzzy" % msgid)
        if not msgstr:
            problems.append("%s: not translated" % msgid)
    for msgid in sorted(set(sites) - seen):
        problems.append("%s: missing" % msgid)
    for p in problems:
        sys.stderr.write("gen-pot: %s: %s\n" % (path, p))
    if not problems:
        print("gen-pot: %s: all %d messages translated and current" %
              (path, len(seen)))
    return 1 if problems else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the committed template")
    ap.add_argument("--check-po", metavar="PO",
                    help="check a catalogue against the sites")
    ap.add_argument("-o", "--output",
                    default=os.path.join(HERE, DOMAIN + ".pot"))
    ap.add_argument("patch_dir", nargs="?",
                    default=os.path.join(ROOT, "kernel", "patches"))
    args = ap.parse_args(argv)
    try:
        sites = catalogue(args.patch_dir)
        if args.check_po:
            return check_po(args.check_po, sites)
    except (Error, OSError) as e:
        sys.stderr.write("gen-pot: %s\n" % e)
        return 2
    text = render(sites)
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                committed = f.read()
        except OSError as e:
            sys.stderr.write("gen-pot: %s\n" % e)
            return 1
        if committed != text:
            sys.stderr.write("gen-pot: %s is not current; run %s\n" %
                             (args.output, os.path.relpath(__file__)))
            return 1
        print("gen-pot: %s is current (%d messages)" %
              (args.output, text.count("\nmsgid ") - 1))
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print("gen-pot: wrote %s (%d messages)" %
          (args.output, text.count("\nmsgid ") - 1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
