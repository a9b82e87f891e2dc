// SPDX-License-Identifier: LGPL-2.1-or-later
//! Linking the crate enables the kernel's descriptions for the process.
//!
//! The kernel records descriptions only for processes that called
//! `prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0)` (docs/contract.md section
//! 1.2). libexterr makes that call from a constructor when it is loaded
//! (shared) or linked in with its fetch (static), so a program using this
//! crate has descriptions on every thread without asking.
//!
//! The host's kernel fails the call with `EINVAL` and leaves no trace, so
//! this test binary runs itself again under a seccomp filter that kills
//! the process on exactly that call: the child dying of `SIGSYS` shows
//! that starting it made the call. The same filter for `arg2 == 2` must
//! let the child run, which shows the filter kills that call alone.

use std::io;
use std::os::unix::process::CommandExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

const PR_SET_ERR_DESC_ENABLED: u32 = 0x4552_5245;

/// AUDIT_ARCH_* of the architectures the filter is written for.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_003E);
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_00B7);
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const AUDIT_ARCH: Option<u32> = None;

/// A filter that kills the process on
/// `prctl(PR_SET_ERR_DESC_ENABLED, arg2, 0, 0, 0)` and allows the rest.
fn filter(arch: u32, arg2: u32) -> Vec<libc::sock_filter> {
    const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K

    // Offsets in struct seccomp_data (little-endian: an argument's low
    // half first) and the value each 32-bit word must have.
    let words: [(u32, u32); 11] = [
        (4, arch),
        (0, libc::SYS_prctl as u32),
        (16, PR_SET_ERR_DESC_ENABLED), // an int: the high half is ignored
        (24, arg2),
        (28, 0),
        (32, 0),
        (36, 0),
        (40, 0),
        (44, 0),
        (48, 0),
        (52, 0),
    ];
    let insn = |code, jf, k| libc::sock_filter { code, jt: 0, jf, k };
    let mut prog = Vec::new();
    for (i, &(offset, value)) in words.iter().enumerate() {
        // The first word that differs jumps past the rest and the kill.
        let past = u8::try_from(2 * (words.len() - i) - 1).unwrap();
        prog.push(insn(LD_W_ABS, 0, offset));
        prog.push(insn(JEQ_K, past, value));
    }
    prog.push(insn(RET_K, 0, libc::SECCOMP_RET_KILL_PROCESS));
    prog.push(insn(RET_K, 0, libc::SECCOMP_RET_ALLOW));
    prog
}

/// Runs this test binary, listing its tests, under the filter for `arg2`:
/// `Ok(None)` when it exited 0, `Ok(Some(signal))` when a signal ended it.
fn run_under_filter(arch: u32, arg2: u32) -> io::Result<Option<i32>> {
    let mut prog = filter(arch, arg2);
    let fprog = libc::sock_fprog {
        len: u16::try_from(prog.len()).unwrap(),
        filter: prog.as_mut_ptr(),
    };
    // An address, not a pointer: the closure must be Send and Sync.
    let fprog_addr = &fprog as *const libc::sock_fprog as usize;
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.arg("--list")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: the closure runs in the child between fork and exec and
    // makes only system calls (async-signal-safe); fprog and prog, which
    // fprog_addr points to, outlive the spawn.
    unsafe {
        cmd.pre_exec(move || {
            // The kill is expected: no core file for it.
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || libc::prctl(
                    libc::PR_SET_SECCOMP,
                    libc::SECCOMP_MODE_FILTER,
                    fprog_addr as *const libc::sock_fprog,
                ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let status = cmd.status()?;
    drop(prog);
    match (status.code(), status.signal()) {
        (Some(0), _) => Ok(None),
        (_, Some(sig)) => Ok(Some(sig)),
        _ => Err(io::Error::other(format!("child: {status}"))),
    }
}

#[test]
fn loading_libexterr_enables_descriptions() {
    let Some(arch) = AUDIT_ARCH else {
        eprintln!("skipped: no seccomp filter written for this architecture");
        return;
    };
    match run_under_filter(arch, 2) {
        Ok(None) => {}
        // No seccomp here (a kernel without it, a sandbox that forbids it).
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::EACCES)) => {
            eprintln!("skipped: no seccomp filter here: {e}");
            return;
        }
        r => panic!("under the filter for arg2 == 2 the child must run: {r:?}"),
    }
    assert_eq!(
        run_under_filter(arch, 1).unwrap(),
        Some(libc::SIGSYS),
        "loading libexterr did not call prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0)"
    );
}

/// Keeps libexterr a dependency of this binary: a program that calls
/// nothing of it need not load it (`--as-needed`), and would not enable
/// anything; one that fetches does.
#[test]
fn this_binary_uses_libexterr() {
    let _ = exterr::supported();
}
