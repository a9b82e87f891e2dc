"""str() of a description follows the process's locale.

libexterr's exterr_format() looks the message up by its id in the gettext
catalogue (the bundled wheel's own exterr/locale, or the one installed
with the system libexterr) once the program has called
``locale.setlocale(locale.LC_ALL, "")``, which is C's setlocale. Each case
runs in a child interpreter: setlocale changes the whole process, and the
other tests expect the C locale's English lines.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# A site whose id has a German translation in libexterr-c/po/de.po.
V2_JSON = (
    '{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf",'
    '"file":"kernel/events/core.c","line":13134,'
    '"message":"sample_freq above kernel.perf_event_max_sample_rate","syscall":298,'
    '"values":{"sample_freq":1099511627776,"limit":100000},"attr_field":"sample_freq"}'
)
TAIL = (
    " [perf attr_field=sample_freq sample_freq=1099511627776 limit=100000]"
    " (kernel/events/core.c:13134)"
)
ENGLISH = "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate" + TAIL
# de.po's msgstr for the id; strerror's part stays English.
GERMAN = "Invalid argument: sample_freq liegt \u00fcber kernel.perf_event_max_sample_rate" + TAIL

CHILD = """
import locale, sys
import exterr
if sys.argv[1] == "setlocale":
    locale.setlocale(locale.LC_ALL, "")
sys.stdout.buffer.write(str(exterr.parse(sys.argv[2])).encode("utf-8"))
"""


def line_under(tmp_path: Path, lc_all: str, setlocale: bool = True) -> str:
    """str() of V2_JSON in a child with LANGUAGE=de and this LC_ALL."""
    env = dict(os.environ, LANGUAGE="de", LC_ALL=lc_all)
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, "setlocale" if setlocale else "no", V2_JSON],
        cwd=tmp_path,  # the installed package, never a source tree
        env=env,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc.stdout.decode("utf-8")


def test_german_under_a_german_locale(tmp_path: Path) -> None:
    # Exactly the German line: a build without translations, or a
    # catalogue the extension cannot find, gives the English one.
    assert line_under(tmp_path, "C.UTF-8") == GERMAN


def test_english_under_the_c_locale(tmp_path: Path) -> None:
    # The C locale ignores LANGUAGE.
    assert line_under(tmp_path, "C") == ENGLISH


def test_english_without_setlocale(tmp_path: Path) -> None:
    # Python sets only LC_CTYPE at startup; LC_MESSAGES stays "C" until
    # the program calls setlocale, so the environment alone changes nothing.
    assert line_under(tmp_path, "C.UTF-8", setlocale=False) == ENGLISH
