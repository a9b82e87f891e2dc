"""Importing exterr enables the kernel's descriptions for the process.

The kernel records descriptions only for processes that called
prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0) (docs/contract.md section 1.2).
libexterr makes that call from a constructor when it is loaded, and the
extension holds libexterr's code (the bundled build compiles fetch.c in)
or loads libexterr.so (EXTERR_USE_SYSTEM_LIB=1), so ``import exterr``
must make it, whichever way the package was built.

This host's kernel fails the call with EINVAL and leaves no trace of it,
so a child interpreter first installs a seccomp filter that kills the
process on exactly that call and then imports exterr: dying of SIGSYS in
the import shows that the installed extension made it. Two controls show
that the filter kills that call and nothing else.
"""

from __future__ import annotations

import platform
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# The child: install the filter, then do what argv[1] says; exit 0 if it
# survives, 77 if the filter cannot be installed here.
CHILD = r"""
import ctypes, resource, sys

# The kill is expected: no core file for it.
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
PR_SET_ERR_DESC_ENABLED, PR_GET_ERR_DESC_ENABLED = 0x45525245, 0x45525246
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06
KILL_PROCESS, ALLOW = 0x80000000, 0x7FFF0000
arch, nr = int(sys.argv[2]), int(sys.argv[3])
lo, hi = (0, 4) if sys.byteorder == "little" else (4, 0)

class Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8),
                ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]

class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

# (offset in struct seccomp_data, value): all must match for the kill.
words = [(4, arch), (0, nr), (16 + lo, PR_SET_ERR_DESC_ENABLED),
         (24 + lo, 1), (24 + hi, 0)]
words += [(16 + 8 * i + half, 0) for i in (2, 3, 4) for half in (lo, hi)]
code = []
for i, (offset, value) in enumerate(words):
    # The first word that differs jumps past the rest and the kill.
    code += [(LD_W_ABS, 0, 0, offset), (JEQ_K, 0, 2 * (len(words) - i) - 1, value)]
code += [(RET_K, 0, 0, KILL_PROCESS), (RET_K, 0, 0, ALLOW)]
insns = (Filter * len(code))(*code)
prog = Prog(len(code), insns)

libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
if (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
                   ctypes.addressof(prog), 0, 0) != 0):
    sys.exit(77)

if sys.argv[1] == "enable":
    libc.prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0)
elif sys.argv[1] == "others":
    libc.prctl(PR_SET_ERR_DESC_ENABLED, 2, 0, 0, 0)
    libc.prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 1)
    libc.prctl(PR_GET_ERR_DESC_ENABLED, 0, 0, 0, 0)
    import json
elif sys.argv[1] == "import":
    import exterr
    exterr.supported()
"""

# AUDIT_ARCH_* and __NR_prctl of the architectures the filter knows.
ARCHES = {
    "x86_64": (0xC000003E, 157),
    "aarch64": (0xC00000B7, 167),
}


def run_child(what: str, cwd: Path) -> int:
    """The child's return code: negative for the signal that killed it."""
    arch, nr = ARCHES[platform.machine()]
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, what, str(arch), str(nr)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode == 77:
        pytest.skip("no seccomp filter can be installed here")
    assert proc.returncode in (0, -signal.SIGSYS), proc.stderr
    return proc.returncode


@pytest.fixture
def where(tmp_path: Path) -> Path:
    if platform.machine() not in ARCHES:
        pytest.skip(f"no seccomp filter written for {platform.machine()}")
    # Not the source tree: the child imports the installed package.
    return tmp_path


def test_filter_kills_the_enable_call(where: Path) -> None:
    assert run_child("enable", where) == -signal.SIGSYS


def test_filter_spares_other_calls(where: Path) -> None:
    assert run_child("others", where) == 0


def test_import_enables_descriptions(where: Path) -> None:
    assert run_child("import", where) == -signal.SIGSYS, (
        "import exterr did not call prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0): "
        "is libexterr's fetch.c (its constructor) in the extension?"
    )
