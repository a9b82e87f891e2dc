//! check()/cvt(): from a libc-style `-1` + errno to a described error.

use std::fmt;
use std::io;

use crate::ext_error::ExtError;
use crate::fetch::fetch;

/// Return types of libc-style calls that signal failure with `-1`.
pub trait IsMinusOne: Copy {
    /// Whether the value is `-1`.
    fn is_minus_one(self) -> bool;
}

macro_rules! impl_is_minus_one {
    ($($t:ty)*) => {$(
        impl IsMinusOne for $t {
            fn is_minus_one(self) -> bool {
                self == -1
            }
        }
    )*};
}

impl_is_minus_one! { i8 i16 i32 i64 isize }

/// A failed system call: the kernel's description when it has one,
/// otherwise the plain OS error.
#[derive(Debug)]
pub enum Error {
    /// The kernel described the failure.
    Ext(ExtError),
    /// Only errno is known (no exterr in the kernel, nothing described,
    /// or the pending description belonged to another failure).
    Io(io::Error),
}

impl Error {
    /// Reads `errno` now (like `io::Error::last_os_error()`) and the
    /// thread's pending description if it matches; call it right after
    /// the failing call.
    ///
    /// A pending description whose errno (or, with `syscall`, system call
    /// number) does not match is stale: it is consumed and dropped.
    pub fn last_os_error(syscall: Option<i64>) -> Error {
        let os = io::Error::last_os_error();
        let Some(errno) = os.raw_os_error() else {
            return Error::Io(os);
        };
        // Any fetch failure (Unsupported above all) just means "no
        // description"; the errno the caller saw is still right.
        match fetch() {
            Ok(Some(ext)) if ext.errno() == errno && matches_syscall(&ext, syscall) => {
                Error::Ext(ext)
            }
            _ => Error::Io(os),
        }
    }

    /// The positive errno, whichever variant this is.
    pub fn raw_os_error(&self) -> Option<i32> {
        match self {
            Error::Ext(e) => Some(e.errno()),
            Error::Io(e) => e.raw_os_error(),
        }
    }

    /// The kernel's description, if there is one.
    pub fn ext(&self) -> Option<&ExtError> {
        match self {
            Error::Ext(e) => Some(e),
            Error::Io(_) => None,
        }
    }
}

fn matches_syscall(ext: &ExtError, want: Option<i64>) -> bool {
    // A description without "syscall" cannot be checked: accept it.
    match (want, ext.syscall()) {
        (Some(want), Some(got)) => want == i64::from(got),
        _ => true,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Ext(e) => e.fmt(f),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Ext(e) => e.source(),
            Error::Io(e) => e.source(),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<ExtError> for Error {
    fn from(e: ExtError) -> Self {
        Error::Ext(e)
    }
}

/// `Io` as is; `Ext` with the description inside, as
/// [`ExtError::into_io_error`] makes it.
impl From<Error> for io::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Ext(e) => e.into_io_error(),
            Error::Io(e) => e,
        }
    }
}

/// Passes a successful return through; on `-1`, reads errno and the
/// thread's description (see [`Error::last_os_error`]).
///
/// ```
/// // close(-1) fails with EBADF; no subsystem describes it.
/// let err = exterr::check(unsafe { libc::close(-1) }).unwrap_err();
/// assert_eq!(err.raw_os_error(), Some(libc::EBADF));
/// assert!(err.ext().is_none());
/// assert_eq!(exterr::check(0i32).unwrap(), 0);
/// ```
pub fn check<T: IsMinusOne>(ret: T) -> Result<T, Error> {
    if ret.is_minus_one() {
        Err(Error::last_os_error(None))
    } else {
        Ok(ret)
    }
}

/// Like [`check`], but a description recorded by another system call
/// than `syscall` (a `libc::SYS_*` number) is treated as stale.
///
/// ```
/// let ret = unsafe { libc::syscall(libc::SYS_close, -1) };
/// let err = exterr::check_syscall(ret, libc::SYS_close).unwrap_err();
/// assert_eq!(err.raw_os_error(), Some(libc::EBADF));
/// ```
pub fn check_syscall<T: IsMinusOne>(ret: T, syscall: i64) -> Result<T, Error> {
    if ret.is_minus_one() {
        Err(Error::last_os_error(Some(syscall)))
    } else {
        Ok(ret)
    }
}

/// [`check`] for `io::Result` code: a description travels inside the
/// `io::Error` (downcast it, or use [`IoErrorExt`]).
///
/// ```
/// use exterr::IoErrorExt;
/// let err = exterr::cvt(unsafe { libc::close(-1) }).unwrap_err();
/// assert_eq!(err.errno(), Some(libc::EBADF));
/// ```
pub fn cvt<T: IsMinusOne>(ret: T) -> io::Result<T> {
    check(ret).map_err(io::Error::from)
}

/// Reads errno and descriptions out of an `io::Error`, whether it holds
/// an OS code or an [`ExtError`] (whose `raw_os_error()` is `None`,
/// because `io::Error` cannot keep both).
pub trait IoErrorExt {
    /// `raw_os_error()`, or the errno of an `ExtError` inside.
    fn errno(&self) -> Option<i32>;
    /// The `ExtError` inside, if any.
    fn ext_error(&self) -> Option<&ExtError>;
}

impl IoErrorExt for io::Error {
    fn errno(&self) -> Option<i32> {
        self.raw_os_error()
            .or_else(|| self.ext_error().map(ExtError::errno))
    }

    fn ext_error(&self) -> Option<&ExtError> {
        self.get_ref()?.downcast_ref::<ExtError>()
    }
}
