// SPDX-License-Identifier: LGPL-2.1-or-later
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

/// A failed system call: the plain OS error, plus the kernel's
/// description when it had one for this failure.
///
/// Made by [`check`], [`check_syscall`] and [`cvt`]. Its identity is the
/// OS error's: [`raw_os_error()`](Self::raw_os_error) and
/// [`kind()`](Self::kind) are exactly those of
/// `io::Error::from_raw_os_error(errno)`, whether or not a description
/// came with it, so code that matches on `EAGAIN` or
/// `ErrorKind::NotFound` works the same on every kernel.
///
/// # What each conversion keeps
///
/// `std::io::Error` can hold an OS error code or a custom payload, never
/// both, and a code is what `raw_os_error()` reports. This crate never
/// trades the code for the payload, so every `io::Error` it hands out is
/// the plain OS error and the description stays only where there is room
/// for it:
///
/// | from → to | `raw_os_error()`, `kind()` | description |
/// |---|---|---|
/// | `check`/`check_syscall`/`cvt` → `Error` | the errno's | [`ext()`](Self::ext), if one matched |
/// | `Error` → `io::Error` (`From`, `?`) | the errno's | dropped |
/// | [`ExtError`] → `io::Error` (`From`, `?`) | the errno's | dropped |
/// | [`ExtError`] → `Error` (`From`, `?`) | the errno's | kept |
/// | `io::Error` → `Error` (`From`, `?`) | unchanged | none |
/// | `Error` → `Box<dyn Error + Send + Sync>` (`?`) | via `downcast_ref::<Error>()` | kept |
///
/// Fetching takes the description out of the kernel, so once it is
/// dropped it is gone: return `Result<T, exterr::Error>` (or box it, as
/// `anyhow` does) from code that wants to show it.
///
/// `Display` is the description's line (`exterr_format()`) when there is
/// one, otherwise exactly the plain OS error's text. `source()` is the
/// plain `io::Error` when there is a description, so error reporters
/// print both and a walk down the chain finds the `io::Error` with its
/// code; without one, `Error` is as transparent as the `io::Error` it
/// wraps.
///
/// ```
/// use std::io;
/// // close(-1) fails with EBADF, which no subsystem describes.
/// let err = exterr::check(unsafe { libc::close(-1) }).unwrap_err();
/// assert_eq!(err.raw_os_error(), Some(libc::EBADF));
/// assert!(err.ext().is_none());
/// let plain = io::Error::from_raw_os_error(libc::EBADF);
/// assert_eq!(err.to_string(), plain.to_string());
/// let io: io::Error = err.into();
/// assert_eq!((io.raw_os_error(), io.kind()), (plain.raw_os_error(), plain.kind()));
/// ```
#[derive(Debug)]
pub struct Error {
    // What the caller would have had without exterr (for check() and
    // cvt(), io::Error::last_os_error()); From<Error> for io::Error hands
    // it out unchanged, which is what keeps the identity.
    os: io::Error,
    // Invariant: when Some, its errno is os's raw_os_error().
    ext: Option<ExtError>,
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
            return Error::from(os);
        };
        // Any fetch failure (Unsupported above all) just means "no
        // description"; the errno the caller saw is still right.
        let ext = match fetch() {
            Ok(Some(ext)) if ext.errno() == errno && matches_syscall(&ext, syscall) => Some(ext),
            _ => None,
        };
        Error { os, ext }
    }

    /// The errno, as [`io::Error::raw_os_error`] gives it. Always `Some`
    /// for an `Error` made by [`check`] or [`cvt`].
    pub fn raw_os_error(&self) -> Option<i32> {
        self.os.raw_os_error()
    }

    /// The errno's kind, as [`io::Error::kind`] gives it.
    pub fn kind(&self) -> io::ErrorKind {
        self.os.kind()
    }

    /// The kernel's description, if there is one.
    pub fn ext(&self) -> Option<&ExtError> {
        self.ext.as_ref()
    }

    /// The kernel's description, if there is one, by value.
    pub fn into_ext(self) -> Option<ExtError> {
        self.ext
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
        match &self.ext {
            Some(ext) => ext.fmt(f),
            None => self.os.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.ext {
            // Display showed the description; the OS error is what it
            // describes.
            Some(_) => Some(&self.os),
            // Display already is the OS error's: do not repeat it.
            None => self.os.source(),
        }
    }
}

/// No description; the `io::Error` stays as it is.
impl From<io::Error> for Error {
    fn from(os: io::Error) -> Self {
        Error { os, ext: None }
    }
}

/// Keeps the description; the OS error is its errno's.
impl From<ExtError> for Error {
    fn from(ext: ExtError) -> Self {
        Error {
            os: io::Error::from_raw_os_error(ext.errno()),
            ext: Some(ext),
        }
    }
}

/// The plain OS error: `raw_os_error()` and `kind()` are kept, the
/// description is dropped (see [`Error`] for why and what to do instead).
impl From<Error> for io::Error {
    fn from(e: Error) -> Self {
        e.os
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

/// The same as [`check`], under the name the standard library uses
/// internally for this helper, for code written in that style.
///
/// It returns an [`Error`] rather than an `io::Error` so that the
/// description is not lost on the way: `cvt(ret)?` in a function that
/// returns `io::Result` converts it to the plain OS error (errno and kind
/// kept, description dropped), and in one that returns
/// `Result<_, exterr::Error>` or a boxed error keeps it.
///
/// ```
/// use std::io;
/// fn close(fd: i32) -> io::Result<()> {
///     exterr::cvt(unsafe { libc::close(fd) })?;
///     Ok(())
/// }
/// assert_eq!(close(-1).unwrap_err().raw_os_error(), Some(libc::EBADF));
/// ```
pub fn cvt<T: IsMinusOne>(ret: T) -> Result<T, Error> {
    check(ret)
}
