"""The binding against a real kernel, run inside the test guest by guest/run.

perf_event_open() is called through ctypes (libc's syscall()) with an
attribute the kernel rejects: sigtrap without remove_on_exec, EINVAL from
perf_copy_attr(). On the patched kernel, exterr.call()/exterr.translate()
must raise an OSError that says what the original said and is also an
ExtendedError naming attr_field=sigtrap, and supported() must be True
without consuming a description; with --expect-unsupported (the unpatched
kernel) supported() must be False, fetch() must raise exterr.Unsupported
and the OSError must come through unchanged.

Prints one "ok ..." line per check and exits 0, or prints "FAIL ..." and
exits 1.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
import traceback

import exterr

SYS_perf_event_open = 298  # x86_64
PERF_TYPE_SOFTWARE = 1
PERF_COUNT_SW_CPU_CLOCK = 0
PERF_ATTR_SIZE_VER8 = 136  # linux 6.12 include/uapi/linux/perf_event.h

# The one-bit flags of struct perf_event_attr, in declaration order
# (precise_ip is two bits wide); 38 bits, then __reserved_1:26.
_FLAG_BITS = [
    ("disabled", 1), ("inherit", 1), ("pinned", 1), ("exclusive", 1),
    ("exclude_user", 1), ("exclude_kernel", 1), ("exclude_hv", 1),
    ("exclude_idle", 1), ("mmap", 1), ("comm", 1), ("freq", 1),
    ("inherit_stat", 1), ("enable_on_exec", 1), ("task", 1),
    ("watermark", 1), ("precise_ip", 2), ("mmap_data", 1),
    ("sample_id_all", 1), ("exclude_host", 1), ("exclude_guest", 1),
    ("exclude_callchain_kernel", 1), ("exclude_callchain_user", 1),
    ("mmap2", 1), ("comm_exec", 1), ("use_clockid", 1),
    ("context_switch", 1), ("write_backward", 1), ("namespaces", 1),
    ("ksymbol", 1), ("bpf_event", 1), ("aux_output", 1), ("cgroup", 1),
    ("text_poke", 1), ("build_id", 1), ("inherit_thread", 1),
    ("remove_on_exec", 1), ("sigtrap", 1), ("__reserved_1", 26),
]


class PerfEventAttr(ctypes.Structure):
    """struct perf_event_attr as of PERF_ATTR_SIZE_VER8 (linux 6.12)."""

    _fields_ = [
        ("type", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
        ("config", ctypes.c_uint64),
        ("sample_period", ctypes.c_uint64),
        ("sample_type", ctypes.c_uint64),
        ("read_format", ctypes.c_uint64),
        *[(name, ctypes.c_uint64, width) for name, width in _FLAG_BITS],
        ("wakeup_events", ctypes.c_uint32),
        ("bp_type", ctypes.c_uint32),
        ("config1", ctypes.c_uint64),
        ("config2", ctypes.c_uint64),
        ("branch_sample_type", ctypes.c_uint64),
        ("sample_regs_user", ctypes.c_uint64),
        ("sample_stack_user", ctypes.c_uint32),
        ("clockid", ctypes.c_int32),
        ("sample_regs_intr", ctypes.c_uint64),
        ("aux_watermark", ctypes.c_uint32),
        ("sample_max_stack", ctypes.c_uint16),
        ("__reserved_2", ctypes.c_uint16),
        ("aux_sample_size", ctypes.c_uint32),
        ("aux_action", ctypes.c_uint32),
        ("sig_data", ctypes.c_uint64),
        ("config3", ctypes.c_uint64),
    ]


# dlopen(NULL): the interpreter's own namespace, which has libc's syscall().
# (ctypes.util.find_library would need ldconfig or gcc, which the guest lacks.)
_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long


def perf_event_open(attr: PerfEventAttr, pid: int = 0, cpu: int = -1,
                    group_fd: int = -1, flags: int = 0) -> int:
    """The raw system call; OSError(errno) on failure, like an os function."""
    ctypes.set_errno(0)
    fd = _syscall(ctypes.c_long(SYS_perf_event_open), ctypes.byref(attr),
                  ctypes.c_int(pid), ctypes.c_int(cpu), ctypes.c_int(group_fd),
                  ctypes.c_ulong(flags))
    if fd < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return int(fd)


def sigtrap_attr(remove_on_exec: bool) -> PerfEventAttr:
    attr = PerfEventAttr()
    attr.size = ctypes.sizeof(attr)
    attr.type = PERF_TYPE_SOFTWARE
    attr.config = PERF_COUNT_SW_CPU_CLOCK
    attr.exclude_kernel = 1
    attr.sigtrap = 1
    attr.remove_on_exec = 1 if remove_on_exec else 0
    return attr


class Failed(Exception):
    pass


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failed(what)
    print("ok", what, flush=True)


def common() -> None:
    check(ctypes.sizeof(PerfEventAttr) == PERF_ATTR_SIZE_VER8,
          f"sizeof(struct perf_event_attr) == {PERF_ATTR_SIZE_VER8}")
    raw = bytes(sigtrap_attr(False))
    flags = int.from_bytes(raw[40:48], "little")
    check(flags == (1 << 5) | (1 << 37), "exclude_kernel is bit 5, sigtrap bit 37")
    check(exterr.call(os.getpid) == os.getpid(), "call(os.getpid) passes the result through")


def patched() -> None:
    check(exterr.supported() is True, "supported() is True")
    check(exterr.fetch() is None, "fetch() is None with nothing pending")

    # A request the kernel accepts: the result comes back as it is.
    fd = exterr.call(perf_event_open, sigtrap_attr(True))
    check(fd >= 0, f"call(perf_event_open, sigtrap+remove_on_exec) returned fd {fd}")
    os.close(fd)

    # An os-level failure the kernel does not describe stays itself.
    try:
        exterr.call(os.open, "/nonexistent/exterr", os.O_RDONLY)
    except exterr.ExtendedError:
        raise Failed("open() of a missing file became an ExtendedError")
    except FileNotFoundError as e:
        check(type(e) is FileNotFoundError, "call(os.open, missing) raises FileNotFoundError unchanged")

    try:
        exterr.call(perf_event_open, sigtrap_attr(False))
    except exterr.ExtendedError as err:
        desc = err.exterr
        print(str(desc), flush=True)
        check(isinstance(err, OSError) and type(err).__name__ == "ExtendedOSError",
              "the ExtendedError is an instance of the original's class, OSError")
        check(str(err) == "[Errno 22] Invalid argument" and err.args == (errno.EINVAL, "Invalid argument"),
              "str(err) and args are the original OSError's")
        check(err.errno == errno.EINVAL, "ExtendedError.errno == EINVAL")
        check(err.module == "perf", "module == 'perf'")
        check(err.syscall == SYS_perf_event_open, "syscall == 298")
        check(err.file == "kernel/events/core.c" and err.line > 0, f"at {err.file}:{err.line}")
        check(err.fields.get("attr_field") == "sigtrap", "fields['attr_field'] == 'sigtrap'")
        check(err.message == "sigtrap requires remove_on_exec", f"message {err.message!r}")
        check(str(desc).startswith(
            "Invalid argument: sigtrap requires remove_on_exec [perf attr_field=sigtrap] "
            "(kernel/events/core.c:"), "str(err.exterr) is exterr_format()'s line")
        check(exterr.description_of(err) is desc, "description_of(err) is err.exterr")
        check(getattr(err, "__notes__", None) == [f"exterr: {desc}"], "the traceback note")
        context = err.__context__
        check(err.__cause__ is None and type(context) is OSError and context.errno == errno.EINVAL,
              "__context__ is the original OSError(EINVAL), __cause__ its own (None)")
    except OSError as e:
        raise Failed(f"perf_event_open raised a plain {type(e).__name__}: {e}")
    else:
        raise Failed("perf_event_open with sigtrap alone succeeded")
    check(exterr.fetch() is None, "translate consumed the description")

    # The same through the context manager, and fetch() by hand.
    try:
        with exterr.translate():
            perf_event_open(sigtrap_attr(False))
    except exterr.ExtendedError as err:
        check(err.fields["attr_field"] == "sigtrap", "translate(): attr_field == 'sigtrap'")
    else:
        raise Failed("translate(): perf_event_open with sigtrap alone succeeded")
    try:
        perf_event_open(sigtrap_attr(False))
    except OSError as e:
        check(e.errno == errno.EINVAL, "raw perf_event_open fails with EINVAL")
    check(exterr.supported() is True, "supported() with a description pending")
    got = exterr.fetch()
    check(got is not None and got.fields_raw == (("attr_field", "string", "sigtrap"),),
          "fetch() after the failure and supported(): fields_raw (attr_field, string, sigtrap)")


def unpatched() -> None:
    check(exterr.supported() is False, "supported() is False")
    try:
        exterr.fetch()
    except exterr.Unsupported as e:
        check(e.errno == errno.EOPNOTSUPP, f"fetch() raises Unsupported: {e}")
    else:
        raise Failed("fetch() did not raise Unsupported")
    try:
        exterr.call(perf_event_open, sigtrap_attr(False))
    except exterr.ExtendedError:
        raise Failed("an ExtendedError on a kernel without exterr")
    except OSError as e:
        check(type(e) is OSError and e.errno == errno.EINVAL,
              "call(perf_event_open, sigtrap alone) raises the plain OSError(EINVAL)")
    else:
        raise Failed("perf_event_open with sigtrap alone succeeded")


def main(argv: list[str]) -> int:
    print(f"python {sys.version.split()[0]}, exterr {exterr.__version__} "
          f"(libexterr {exterr.library_version()}), kernel {os.uname().release}", flush=True)
    try:
        common()
        if argv[1:] == ["--expect-unsupported"]:
            unpatched()
        elif argv[1:] == []:
            patched()
        else:
            print(f"usage: {argv[0]} [--expect-unsupported]")
            return 2
    except Failed as f:
        print("FAIL", f, flush=True)
        return 1
    except BaseException:
        traceback.print_exc()
        print("FAIL unexpected exception", flush=True)
        return 1
    print("all guest checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
