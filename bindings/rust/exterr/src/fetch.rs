// SPDX-License-Identifier: LGPL-2.1-or-later
//! fetch(): take the calling thread's pending description.

use std::fmt;
use std::io;
use std::ptr::{self, NonNull};

use crate::ext_error::ExtError;
use crate::parse::ParseError;
use crate::sys;

// Unit tests run against a faked kernel (see fake_kernel.rs); everything
// else calls libexterr.
#[cfg(test)]
use crate::fake_kernel::{exterr_fetch, exterr_fetch_ex, exterr_supported};
#[cfg(not(test))]
use sys::{exterr_fetch, exterr_fetch_ex, exterr_supported};

/// Why [`fetch`] could not say whether a description is pending.
#[derive(Debug)]
#[non_exhaustive]
pub enum FetchError {
    /// The running kernel has no exterr (`prctl(PR_GET_ERR_DESC)` failed
    /// with `EINVAL`). Fall back to plain errno handling.
    Unsupported,
    /// The description kept changing between sizing and copying it (a
    /// signal handler's failing calls replaced it); libexterr gave up.
    Busy,
    /// The kernel handed out a description (and so dropped it) that does
    /// not parse. `exterr_fetch()` reports only the class, so the
    /// [`ParseError`] has no offset.
    Invalid(ParseError),
    /// Out of memory, a fault, or another error from the kernel; the
    /// description stays pending.
    Os(io::Error),
}

impl FetchError {
    fn from_code(neg: i32) -> Self {
        let e = neg.saturating_neg();
        match e {
            libc::EOPNOTSUPP => Self::Unsupported,
            libc::EAGAIN => Self::Busy,
            libc::EBADMSG | libc::EPROTO | libc::E2BIG => Self::Invalid(ParseError::from_code(
                neg,
                "the kernel's description does not parse",
            )),
            _ => Self::Os(io::Error::from_raw_os_error(e)),
        }
    }
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported => f.write_str("this kernel has no extended error descriptions"),
            Self::Busy => f.write_str("the error description kept changing while being read"),
            Self::Invalid(e) => write!(f, "the kernel's error description is invalid: {e}"),
            Self::Os(e) => write!(f, "reading the error description failed: {e}"),
        }
    }
}

impl std::error::Error for FetchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
            Self::Os(e) => Some(e),
            _ => None,
        }
    }
}

/// Takes the calling thread's pending description out of the kernel
/// (libexterr's `exterr_fetch()`).
///
/// `Ok(None)` when nothing is pending. Fetching consumes the description:
/// a second call returns `Ok(None)`. `errno` is left as it was.
/// Descriptions are per kernel thread; see the [crate docs](crate#threads).
///
/// ```
/// match exterr::fetch() {
///     Ok(Some(err)) => println!("last described failure: {err}"),
///     Ok(None) => println!("nothing pending"),
///     Err(exterr::FetchError::Unsupported) => println!("kernel without exterr"),
///     Err(e) => println!("{e}"),
/// }
/// ```
pub fn fetch() -> Result<Option<ExtError>, FetchError> {
    let mut raw: *mut sys::exterr = ptr::null_mut();
    // SAFETY: raw is a valid out pointer.
    let ret = unsafe { exterr_fetch(&mut raw) };
    take(ret, raw)
}

/// Like [`fetch`], but a note on a successful call counts too
/// (libexterr 1.1's `exterr_fetch_ex(&err, EXTERR_FETCH_NOTES)`).
///
/// A note is a description with [`errno`](ExtError::errno) 0 and a
/// [`severity`](ExtError::severity) of `Info` or `Warning`: what the
/// kernel did with a request that succeeded, e.g. a value it clamped.
/// Call it right after the successful call. The description of a failed
/// call comes out here as well (severity `Error`), so one call reads
/// whatever is pending. [`fetch`], [`check`](crate::check) and
/// [`cvt`](crate::cvt) never ask for notes: a pending note stays pending
/// for them and they see `Ok(None)` / no description.
///
/// On a kernel from before notes libexterr drops the request and this
/// is the same as [`fetch`].
///
/// ```
/// match exterr::fetch_notes() {
///     Ok(Some(d)) if d.is_note() => println!("{}: {d}", d.severity()),
///     Ok(Some(err)) => println!("last described failure: {err}"),
///     Ok(None) => println!("nothing pending"),
///     Err(e) => println!("{e}"),
/// }
/// ```
pub fn fetch_notes() -> Result<Option<ExtError>, FetchError> {
    let mut raw: *mut sys::exterr = ptr::null_mut();
    // SAFETY: raw is a valid out pointer; the flag is one libexterr knows.
    let ret = unsafe { exterr_fetch_ex(&mut raw, sys::EXTERR_FETCH_NOTES) };
    take(ret, raw)
}

/// The result of `exterr_fetch()`/`exterr_fetch_ex()`, owned.
fn take(ret: i32, raw: *mut sys::exterr) -> Result<Option<ExtError>, FetchError> {
    if ret == -libc::ENODATA {
        return Ok(None);
    }
    if ret < 0 {
        return Err(FetchError::from_code(ret));
    }
    match NonNull::new(raw) {
        // SAFETY: a fresh result that we now own.
        Some(raw) => unsafe { ExtError::from_raw(raw) }
            .map(Some)
            .map_err(FetchError::Invalid),
        None => Ok(None),
    }
}

/// Whether the running kernel has exterr (libexterr's
/// `exterr_supported()`, since libexterr 1.1).
///
/// Unlike finding out with [`fetch`], asking does not take the pending
/// description: it only asks the kernel for its size. So it can sit
/// between a failing call and the [`check`](crate::check) that reads the
/// description, and it leaves `errno` as it was.
///
/// ```
/// if !exterr::supported() {
///     eprintln!("no extended error descriptions here; errno alone it is");
/// }
/// ```
pub fn supported() -> bool {
    // SAFETY: no arguments; it only makes a prctl() query.
    let ret = unsafe { exterr_supported() };
    // The C API answers 1 or 0; anything else (a negative errno from some
    // future failure mode) cannot mean "supported".
    ret > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_kernel;

    const DESC: &[u8] = br#"{"code":-13,"module":"m","file":"f.c","line":1,"message":"x"}"#;

    #[test]
    fn supported_does_not_take_the_pending_description() {
        fake_kernel::pending(DESC);
        fake_kernel::set_errno(libc::EACCES);
        assert!(supported());
        assert!(supported());
        assert_eq!(
            io::Error::last_os_error().raw_os_error(),
            Some(libc::EACCES)
        );
        let err = crate::check(-1i32).unwrap_err();
        assert_eq!(err.ext().map(ExtError::errno), Some(libc::EACCES));
    }

    #[test]
    fn supported_is_false_without_exterr() {
        fake_kernel::unsupported();
        assert!(!supported());
        assert!(matches!(fetch(), Err(FetchError::Unsupported)));
    }

    #[test]
    fn supported_with_nothing_pending() {
        fake_kernel::nothing_pending();
        assert!(supported());
        assert!(matches!(fetch(), Ok(None)));
    }
}

#[cfg(test)]
mod note_tests {
    use super::*;
    use crate::{fake_kernel, Severity};

    const NOTE: &[u8] = br#"{"code":0,"severity":"warning","id":"vivid.fmt.replaced","module":"vivid","file":"v.c","line":660,"message":"pixelformat not supported, replaced by YUYV","syscall":16,"values":{"requested":1482184792,"granted":1448695129},"field":"pixelformat"}"#;

    #[test]
    fn only_fetch_notes_takes_a_note() {
        fake_kernel::pending(NOTE);
        assert!(matches!(fetch(), Ok(None)), "fetch() must not see a note");
        fake_kernel::set_errno(libc::EINVAL);
        let err = crate::check(-1i32).unwrap_err();
        assert!(err.ext().is_none(), "check() must not take a note");
        assert_eq!(err.raw_os_error(), Some(libc::EINVAL));
        let note = fetch_notes().unwrap().expect("the note is still pending");
        assert!(note.is_note());
        assert_eq!(note.errno(), 0);
        assert_eq!(note.severity(), Severity::Warning);
        assert_eq!(note.id(), Some("vivid.fmt.replaced"));
        assert_eq!(note.value("granted").map(|v| v.as_i128()), Some(1448695129));
        assert_eq!(
            note.to_string(),
            "warning: pixelformat not supported, replaced by YUYV [vivid field=pixelformat requested=1482184792 granted=1448695129] (v.c:660)"
        );
        assert!(matches!(fetch_notes(), Ok(None)), "fetching consumed it");
    }

    #[test]
    fn fetch_notes_takes_errors_too() {
        fake_kernel::pending(DESC);
        let err = fetch_notes().unwrap().unwrap();
        assert_eq!(
            (err.errno(), err.severity()),
            (libc::EACCES, Severity::Error)
        );
        assert!(!err.is_note());
        assert!(matches!(fetch_notes(), Ok(None)));
    }

    #[test]
    fn fetch_notes_without_exterr() {
        fake_kernel::unsupported();
        assert!(matches!(fetch_notes(), Err(FetchError::Unsupported)));
    }

    #[test]
    fn fetch_notes_leaves_errno_alone() {
        fake_kernel::pending(NOTE);
        fake_kernel::set_errno(libc::ENOTTY);
        assert!(fetch_notes().unwrap().is_some());
        assert_eq!(
            io::Error::last_os_error().raw_os_error(),
            Some(libc::ENOTTY)
        );
    }

    const DESC: &[u8] = br#"{"code":-13,"module":"m","file":"f.c","line":1,"message":"x"}"#;
}
