// SPDX-License-Identifier: LGPL-2.1-or-later
//! C string helpers. libexterr promises UTF-8 (the kernel escapes invalid
//! bytes as U+FFFD and jansson rejects invalid input), and ExtError checks
//! every string once when it is built, so the accessors can hand out
//! `&str` without failing.

use std::ffi::{c_char, CStr};

/// The text at `p`, or "" for NULL or (never expected) non-UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn str_at<'a>(p: *const c_char) -> &'a str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the caller's promise.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

/// Whether `p` is NULL or valid UTF-8; NULL reads as "" above.
///
/// # Safety
/// As for [`str_at`].
pub(crate) unsafe fn is_utf8(p: *const c_char) -> bool {
    // SAFETY: the caller's promise.
    p.is_null() || unsafe { CStr::from_ptr(p) }.to_str().is_ok()
}

/// A string with static storage, such as the library's name tables.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that is never freed.
pub(crate) unsafe fn static_str(p: *const c_char) -> &'static str {
    // SAFETY: the caller's promise.
    unsafe { str_at(p) }
}
