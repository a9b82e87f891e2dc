# SPDX-License-Identifier: GPL-2.0
"""gdb -batch -nx -x bench/profiler/trace.py, run by bench/profile.

Attach to the gdbstub of a guest booted by kernel/vm-run --gdb, break at
the guest program's syscall instruction when a register holds one of the
profiled arguments, and single-step from there until the CPU is back in
user space, writing the address of every instruction executed. Repeat
for every profiled call until the guest ends (its connection closes).

Environment:
  KPROFILE_SOCKET  the gdbstub's Unix socket
  KPROFILE_OUT     directory for CASE.REP.pcs (one hex address a line:
                   the syscall instruction first, then each kernel one)
                   and steps.txt
  KPROFILE_BREAK   address of the syscall instruction (kprofile_syscall)
  KPROFILE_CASES   "NAME:NR:REG:VALUE,...": the call with syscall number
                   NR (in rax) and VALUE in REG is case NAME
  KPROFILE_MAX     give up on a call after this many steps
  KPROFILE_MODULES address of the kernel's module list (System.map's
                   "modules"): at the first profiled call, the name, text
                   address and text size of each loaded module are
                   written to modules.txt, so that module code can be
                   told by function too (no kallsyms in this kernel)
"""
import os
import struct
import sys

import gdb

USER_TOP = 0x0000800000000000   # x86-64 user addresses lie below
MASK = (1 << 64) - 1


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & MASK


def read(addr, size):
    return bytes(gdb.selected_inferior().read_memory(addr, size))


def u64(addr):
    return struct.unpack("<Q", read(addr, 8))[0]


def modules(head, path):
    """Write "NAME TEXT_BASE TEXT_SIZE" of each module in the list at @head.

    struct module begins with the state (an int) and its list_head (at
    8), then its name (at 24); its mem[] array, cache-line aligned, starts
    with mem[MOD_TEXT]: { void *base; unsigned int size; struct
    mod_tree_node { struct module *mod; ... } }, so mem[MOD_TEXT] is the
    first 64-byte aligned spot whose third word points back at the module
    and whose first is a page-aligned module address.
    """
    with open(path, "w") as f:
        node, seen = u64(head), 0
        while node != head and seen < 64:
            mod = node - 8
            name = read(mod + 24, 56).split(b"\0")[0].decode()
            for off in range(64, 4096, 64):
                base = u64(mod + off)
                if (u64(mod + off + 16) == mod and base & 0xfff == 0 and
                        base >= 0xffffffff80000000):
                    size = struct.unpack("<I", read(mod + off + 8, 4))[0]
                    f.write(f"{name} {base:#x} {size:#x}\n")
                    break
            else:
                f.write(f"{name} ? ?\n")
            node, seen = u64(node), seen + 1


def fail(msg):
    print("trace.py: " + msg, file=sys.stderr)
    gdb.execute("kill")     # QEMU exits; vm-run then fails too
    gdb.execute("quit 1")


def main():
    out = os.environ["KPROFILE_OUT"]
    bp = int(os.environ["KPROFILE_BREAK"], 0)
    limit = int(os.environ.get("KPROFILE_MAX", "200000"))
    cases = []
    for c in os.environ["KPROFILE_CASES"].split(","):
        name, nr, r, value = c.split(":")
        cases.append((name, int(nr, 0), r, int(value, 0)))

    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("target remote " + os.environ["KPROFILE_SOCKET"])
    # QEMU's single-step flags: 1 step, 2 no interrupts, 4 no timers while
    # stepping. Ask for all three rather than rely on the default, so no
    # interrupt handler lands in a profile.
    gdb.execute("maintenance packet Qqemu.sstep=0x7", to_string=True)
    got = gdb.execute("maintenance packet qqemu.sstep", to_string=True)
    if '"0x7"' not in got:
        fail("QEMU did not take single-step flags 0x7: " + got.strip())
    cond = " || ".join(f"($rax == {nr} && ${r} == {v})" for _, nr, r, v in cases)
    # A hardware breakpoint: QEMU implements it in TCG on the virtual
    # address, so it can be set before the guest has mapped the program.
    gdb.execute(f"hbreak *{bp:#x} if {cond}", to_string=True)

    mods = os.environ.get("KPROFILE_MODULES")
    reps = {}
    steps = open(os.path.join(out, "steps.txt"), "w")
    while True:
        try:
            gdb.execute("continue", to_string=True)
        except gdb.error:
            break           # the guest ended: QEMU closed the connection
        pc = reg("pc")
        if pc != bp:
            fail(f"stopped at {pc:#x}, not at the breakpoint")
        name = next((n for n, nr, r, v in cases
                     if reg("rax") == nr and reg(r) == v), None)
        if name is None:
            fail("breakpoint hit by no profiled case")
        if mods:
            modules(int(mods, 0), os.path.join(out, "modules.txt"))
            mods = None
        arch = gdb.selected_frame().architecture()
        resume = arch.disassemble(bp, count=2)[1]["addr"]
        reps[name] = reps.get(name, 0) + 1
        # Only this vCPU runs while stepping.
        gdb.execute("set scheduler-locking on")
        pcs = [bp]
        while True:
            gdb.execute("stepi", to_string=True)
            pc = reg("pc")
            if pc < USER_TOP:
                break
            pcs.append(pc)
            if len(pcs) > limit:
                fail(f"{name}: no return to user space in {limit} steps")
        gdb.execute("set scheduler-locking off")
        path = os.path.join(out, f"{name}.{reps[name]}.pcs")
        with open(path, "w") as f:
            f.write("".join(f"{p:x}\n" for p in pcs))
        # Where the call came back to: anywhere but the instruction after
        # the syscall means another task ran in between.
        steps.write(f"{name} {reps[name]} {len(pcs)} return={pc:#x} "
                    f"expected={resume:#x}\n")
        steps.flush()
    steps.close()
    if not reps:
        print("trace.py: no profiled call was seen", file=sys.stderr)
        gdb.execute("quit 1")


main()
