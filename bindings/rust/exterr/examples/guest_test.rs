// SPDX-License-Identifier: LGPL-2.1-or-later
//! In-guest test: run inside a VM booted with the exterr kernel, as a
//! statically linked binary (see bindings/rust/README.md):
//!
//!   guest_test                       expect the described perf error
//!   guest_test --expect-unsupported  expect a kernel without exterr
//!
//! `exterr::supported()` must agree with the kernel in both modes, and on
//! the patched kernel it is asked between the failing call and the fetch,
//! which only works if asking consumes nothing. Without exterr, `fetch()`
//! and `fetch_notes()` must both report `Unsupported`.
//!
//! It asks perf_event_open() for sigtrap without remove_on_exec, which
//! perf_copy_attr() rejects with EINVAL, described as attr_field=sigtrap.
//! Exit status 0 when the expectation holds, 1 otherwise.

use std::process::ExitCode;

/// perf_event_attr up to PERF_ATTR_SIZE_VER7 (128 bytes), the size that
/// added sigtrap; built here so the test does not depend on a libc crate
/// version that knows the newest fields.
#[repr(C)]
#[derive(Default)]
struct PerfEventAttr {
    type_: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    /// The bitfield word: disabled is bit 0, remove_on_exec bit 36,
    /// sigtrap bit 37 (include/uapi/linux/perf_event.h).
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    config1: u64,
    config2: u64,
    branch_sample_type: u64,
    sample_regs_user: u64,
    sample_stack_user: u32,
    clockid: i32,
    sample_regs_intr: u64,
    aux_watermark: u32,
    sample_max_stack: u16,
    reserved_2: u16,
    aux_sample_size: u32,
    reserved_3: u32,
    sig_data: u64,
}

const _: () = assert!(std::mem::size_of::<PerfEventAttr>() == 128);

const PERF_TYPE_SOFTWARE: u32 = 1;
const PERF_COUNT_SW_CPU_CLOCK: u64 = 0;
const FLAG_DISABLED: u64 = 1 << 0;
const FLAG_SIGTRAP: u64 = 1 << 37;

/// perf_event_open() for this thread on any CPU; returns the raw result.
fn open_sigtrap_without_remove_on_exec() -> libc::c_long {
    let attr = PerfEventAttr {
        type_: PERF_TYPE_SOFTWARE,
        size: std::mem::size_of::<PerfEventAttr>() as u32,
        config: PERF_COUNT_SW_CPU_CLOCK,
        // remove_on_exec (bit 36) stays 0: that is the error.
        flags: FLAG_DISABLED | FLAG_SIGTRAP,
        ..Default::default()
    };
    // SAFETY: attr is a valid, fully initialized perf_event_attr of the
    // size it declares; the other arguments are plain integers.
    unsafe {
        libc::syscall(
            libc::SYS_perf_event_open,
            &attr as *const PerfEventAttr,
            0,
            -1,
            -1,
            0,
        )
    }
}

fn expect_description() -> Result<(), String> {
    let ret = open_sigtrap_without_remove_on_exec();
    // Asked between the failure and the fetch on purpose: supported()
    // must leave both errno and the pending description alone.
    if !exterr::supported() {
        return Err("supported() is false on the patched kernel".into());
    }
    let err = match exterr::check_syscall(ret, libc::SYS_perf_event_open) {
        Ok(fd) => {
            // SAFETY: fd is a descriptor we own.
            unsafe { libc::close(fd as libc::c_int) };
            return Err("perf_event_open unexpectedly succeeded".into());
        }
        Err(e) => {
            // The identity must not depend on whether a description came.
            if e.raw_os_error() != Some(libc::EINVAL) {
                return Err(format!("raw_os_error {:?}, not EINVAL", e.raw_os_error()));
            }
            match e.into_ext() {
                Some(ext) => ext,
                None => return Err("no description, only EINVAL".into()),
            }
        }
    };
    println!("{err}");
    if err.errno() != libc::EINVAL {
        return Err(format!("errno {} instead of EINVAL", err.errno()));
    }
    match err.field("attr_field").map(|f| f.value()) {
        Some("sigtrap") => Ok(()),
        other => Err(format!("attr_field is {other:?}, not \"sigtrap\"")),
    }
}

fn expect_unsupported() -> Result<(), String> {
    let ret = open_sigtrap_without_remove_on_exec();
    let errno = std::io::Error::last_os_error().raw_os_error();
    if ret != -1 || errno != Some(libc::EINVAL) {
        return Err(format!(
            "perf_event_open gave {ret} (errno {errno:?}), not EINVAL"
        ));
    }
    if exterr::supported() {
        return Err("supported() is true on a kernel without exterr".into());
    }
    match exterr::fetch() {
        Err(exterr::FetchError::Unsupported) => {}
        other => return Err(format!("fetch() gave {other:?}, not Unsupported")),
    }
    // Asking for notes too must not change the answer.
    match exterr::fetch_notes() {
        Err(exterr::FetchError::Unsupported) => {
            println!("no exterr in this kernel, as expected");
            Ok(())
        }
        other => Err(format!("fetch_notes() gave {other:?}, not Unsupported")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => expect_description(),
        ["--expect-unsupported"] => expect_unsupported(),
        _ => Err("usage: guest_test [--expect-unsupported]".into()),
    };
    println!("libexterr {}", exterr::version());
    match result {
        Ok(()) => {
            println!("guest_test: PASS");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            println!("guest_test: FAIL: {msg}");
            ExitCode::FAILURE
        }
    }
}
