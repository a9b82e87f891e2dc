// SPDX-License-Identifier: LGPL-2.1-or-later
//! Safe access to exterr, the Linux kernel's extended description of the
//! last failed system call.
//!
//! A kernel with the exterr series keeps, for each thread, a description
//! of the last error that a subsystem chose to explain: errno, a message,
//! the reporting module, the source location and domain keys such as
//! perf's `attr_field`. This crate fetches it through libexterr
//! ([`fetch`]), parses descriptions ([`ExtError::parse`]) and turns a
//! failing libc-style return into an [`Error`] ([`check`], [`cvt`]): the
//! plain OS error, with the description when the kernel had one. Its
//! `raw_os_error()` and `kind()` are always the plain error's; converting
//! it to an `io::Error` keeps those and drops the description (see
//! [`Error`] for every conversion).
//!
//! ```
//! let json = br#"{"code":-22,"module":"perf","file":"kernel/events/core.c","line":12593,"message":"sigtrap requires remove_on_exec","syscall":298,"attr_field":"sigtrap"}"#;
//! let err = exterr::ExtError::parse(json)?;
//! assert_eq!(err.errno(), 22);
//! assert_eq!(err.field("attr_field").map(|f| f.value()), Some("sigtrap"));
//! assert_eq!(
//!     err.to_string(),
//!     "Invalid argument: sigtrap requires remove_on_exec [perf attr_field=sigtrap] (kernel/events/core.c:12593)"
//! );
//! # Ok::<(), exterr::ParseError>(())
//! ```
//!
//! Since libexterr 1.1 a description may also carry a stable
//! [`id`](ExtError::id), runtime [`values`](ExtError::values) (integers
//! from -2^63 to 2^64 - 1, exact as `i128`) and a
//! [`severity`](ExtError::severity): besides errors there are notes on
//! successful calls, which only [`fetch_notes`] fetches. With an older
//! libexterr linked these read as `None`, empty and `Severity::Error`.
//!
//! # Threads
//!
//! The kernel records descriptions only for processes that enabled them
//! with `prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0)`. A program using this
//! crate need not: libexterr makes that call from a constructor when it is
//! loaded (or, linked statically, with the object file of its fetch), for
//! every thread of the process, its children and the programs it executes.
//! Older kernels fail it with `EINVAL`, which is ignored. Code that calls
//! `prctl(PR_GET_ERR_DESC)` itself without libexterr must enable them first.
//!
//! Descriptions belong to a kernel thread (`task_struct`), not to a
//! process, and a Rust `std::thread` is one kernel thread. [`fetch`] only
//! ever sees what the calling thread's own system calls left behind, so
//! fetch on the thread that made the failing call, right after it, before
//! anything else can fail. In async code that means in the same poll, with
//! no `.await` in between: a work-stealing runtime may resume a task on
//! another thread. A child of `fork()` starts with nothing pending and a
//! successful `execve()` clears it.
//!
//! A description stays pending across successful calls and is replaced by
//! the next described failure, so one can be stale; [`check`] compares the
//! errno and [`check_syscall`] also the system call number.
//!
//! [`ExtError`] owns the C library's parsed struct; it is `Send` and `Sync`
//! (see its documentation), so it can be returned across threads and
//! stored in `Box<dyn Error + Send + Sync>`.

#![deny(missing_docs)]
#![warn(rust_2018_idioms)]

mod check;
mod ext_error;
#[cfg(test)]
mod fake_kernel;
mod fetch;
mod field;
mod parse;
mod text;
mod value;

#[cfg(test)]
mod identity_tests;

pub use check::{check, check_syscall, cvt, Error, IsMinusOne};
pub use ext_error::ExtError;
pub use fetch::{fetch, fetch_notes, supported, FetchError};
pub use field::{Field, FieldKind};
pub use parse::{ParseError, ParseErrorClass};
pub use value::{Severity, Value};

/// Re-export of the raw bindings, for code that mixes in C calls.
pub use exterr_sys as sys;

/// The version of the libexterr linked at run time, e.g. `"1.1.0"`.
///
/// ```
/// assert!(exterr::version().starts_with("1."));
/// ```
pub fn version() -> &'static str {
    // SAFETY: exterr_version() returns a pointer to a static string.
    unsafe { text::static_str(sys::exterr_version()) }
}
