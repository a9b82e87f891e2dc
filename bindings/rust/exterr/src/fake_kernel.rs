// SPDX-License-Identifier: LGPL-2.1-or-later
//! Test seam: stand-ins for libexterr's kernel-facing calls, compiled
//! only into this crate's unit tests.
//!
//! The host that runs the tests has no exterr, so without this no test
//! could see `check()` or `cvt()` receive a description. `fetch.rs` calls
//! these functions instead of `sys::exterr_fetch`, `sys::exterr_fetch_ex`
//! and `sys::exterr_supported` under `cfg(test)`; they act like libexterr
//! on a patched kernel that has the description given to [`pending`]
//! waiting. A pending note (`"code":0`) is handed out only with
//! `EXTERR_FETCH_NOTES`, as the kernel does (contract section 1). A thread that sets up no
//! fake kernel gets the real library, so the other unit tests are
//! unaffected. The state is per thread, like the kernel's, and
//! the test harness runs each test on its own thread. It stands in above
//! `prctl()`: libexterr's `PR_SET_ERR_DESC_ENABLED` call when it is loaded
//! never reaches it (`tests/enable.rs` checks that call).

use std::cell::RefCell;
use std::ffi::{c_int, c_uint};

use crate::sys;

enum Kernel {
    /// Pass through to libexterr and the real kernel.
    Real,
    /// A kernel without exterr.
    Unsupported,
    /// A patched kernel; `Some` is the description waiting to be fetched.
    Patched(Option<Vec<u8>>),
}

thread_local! {
    static KERNEL: RefCell<Kernel> = const { RefCell::new(Kernel::Real) };
}

/// From now on this thread runs on a patched kernel with `json` pending.
pub(crate) fn pending(json: &[u8]) {
    KERNEL.with(|k| *k.borrow_mut() = Kernel::Patched(Some(json.to_vec())));
}

/// From now on this thread runs on a patched kernel with nothing pending.
pub(crate) fn nothing_pending() {
    KERNEL.with(|k| *k.borrow_mut() = Kernel::Patched(None));
}

/// From now on this thread runs on a kernel without exterr.
pub(crate) fn unsupported() {
    KERNEL.with(|k| *k.borrow_mut() = Kernel::Unsupported);
}

/// Sets this thread's errno, as a failing system call would.
pub(crate) fn set_errno(errno: i32) {
    // SAFETY: __errno_location() is the calling thread's errno slot.
    unsafe { *libc::__errno_location() = errno };
}

/// `exterr_supported()`: asks the faked kernel, leaving what is pending.
///
/// # Safety
/// None needed; `unsafe` to match `sys::exterr_supported`.
pub(crate) unsafe fn exterr_supported() -> c_int {
    KERNEL.with(|k| match &*k.borrow() {
        // SAFETY: no arguments.
        Kernel::Real => unsafe { sys::exterr_supported() },
        Kernel::Unsupported => 0,
        Kernel::Patched(_) => 1,
    })
}

/// `exterr_fetch()`: `exterr_fetch_ex()` without flags.
///
/// # Safety
/// As for `sys::exterr_fetch`: `errp` is a valid out pointer.
pub(crate) unsafe fn exterr_fetch(errp: *mut *mut sys::exterr) -> c_int {
    // SAFETY: the caller's promise.
    unsafe { fetch_ex(errp, 0, true) }
}

/// `exterr_fetch_ex()`: hands out (and so clears) the pending description
/// through the real parser, with the same return codes as libexterr; a
/// note only with `EXTERR_FETCH_NOTES` (else `-ENODATA`, and it stays).
///
/// # Safety
/// As for `sys::exterr_fetch_ex`: `errp` is a valid out pointer.
pub(crate) unsafe fn exterr_fetch_ex(errp: *mut *mut sys::exterr, flags: c_uint) -> c_int {
    // SAFETY: the caller's promise.
    unsafe { fetch_ex(errp, flags, false) }
}

/// Both of the above; `plain` passes a real kernel's to `exterr_fetch()`.
///
/// # Safety
/// `errp` is a valid out pointer.
unsafe fn fetch_ex(errp: *mut *mut sys::exterr, flags: c_uint, plain: bool) -> c_int {
    let notes = flags & sys::EXTERR_FETCH_NOTES != 0;
    let json = KERNEL.with(|k| match &mut *k.borrow_mut() {
        Kernel::Real => None,
        Kernel::Unsupported => Some(Err(-libc::EOPNOTSUPP)),
        Kernel::Patched(None) => Some(Err(-libc::ENODATA)),
        Kernel::Patched(Some(json)) if !notes && is_note(json) => Some(Err(-libc::ENODATA)),
        Kernel::Patched(p) => Some(p.take().ok_or(-libc::ENODATA)),
    });
    match json {
        // SAFETY: the caller's promise.
        None if plain => unsafe { sys::exterr_fetch(errp) },
        // SAFETY: the caller's promise.
        None => unsafe { sys::exterr_fetch_ex(errp, flags) },
        Some(Err(code)) => {
            // SAFETY: the caller's promise.
            unsafe { *errp = std::ptr::null_mut() };
            code
        }
        Some(Ok(json)) => {
            // libexterr's fetch leaves errno alone; parsing may not.
            // SAFETY: __errno_location() is this thread's errno slot.
            let saved = unsafe { *libc::__errno_location() };
            // SAFETY: json is valid for its length; errp per the caller.
            let ret = unsafe { sys::exterr_parse(json.as_ptr().cast(), json.len(), errp) };
            set_errno(saved);
            ret
        }
    }
}

/// Whether `json` is a note, as the faked kernel decides what to keep.
fn is_note(json: &[u8]) -> bool {
    // SAFETY: __errno_location() is this thread's errno slot.
    let saved = unsafe { *libc::__errno_location() };
    let note = crate::ExtError::parse(json).is_ok_and(|d| d.is_note());
    set_errno(saved);
    note
}
