//! fetch(): take the calling thread's pending description.

use std::fmt;
use std::io;
use std::ptr::{self, NonNull};

use crate::ext_error::ExtError;
use crate::parse::ParseError;
use crate::sys;

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
    let ret = unsafe { sys::exterr_fetch(&mut raw) };
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
