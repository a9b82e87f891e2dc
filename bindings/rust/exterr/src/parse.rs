// SPDX-License-Identifier: LGPL-2.1-or-later
//! ExtError::parse() and its error.

use std::ffi::CStr;
use std::fmt;
use std::io;
use std::ptr::{self, NonNull};

use crate::ext_error::ExtError;
use crate::sys;
use crate::text;

/// Why a description was rejected: the conformance class of
/// docs/contract.md section 3, as libexterr's `exterr_error_class()`
/// names it.
///
/// ```
/// let e = exterr::ExtError::parse(b"{").unwrap_err();
/// assert_eq!(e.class(), exterr::ParseErrorClass::Malformed);
/// assert_eq!(e.class().name(), "malformed");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorClass {
    /// Not one strict JSON text in valid UTF-8 (`-EBADMSG`).
    Malformed,
    /// Valid JSON that breaks the schema (`-EPROTO`).
    Schema,
    /// Longer than `EXTERR_MAX_JSON` bytes (`-E2BIG`).
    TooBig,
    /// A bad argument to the C library (`-EINVAL`); not produced through
    /// this crate's API.
    InvalidArgument,
    /// Out of memory (`-ENOMEM`).
    OutOfMemory,
    /// Any other error code.
    Other,
}

impl ParseErrorClass {
    fn from_name(name: &str) -> Self {
        match name {
            "malformed" => Self::Malformed,
            "schema" => Self::Schema,
            "too-big" => Self::TooBig,
            "invalid-argument" => Self::InvalidArgument,
            "out-of-memory" => Self::OutOfMemory,
            _ => Self::Other,
        }
    }

    /// The conformance name: `"malformed"`, `"schema"`, `"too-big"`,
    /// `"invalid-argument"`, `"out-of-memory"` or `"error"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Malformed => "malformed",
            Self::Schema => "schema",
            Self::TooBig => "too-big",
            Self::InvalidArgument => "invalid-argument",
            Self::OutOfMemory => "out-of-memory",
            Self::Other => "error",
        }
    }
}

impl fmt::Display for ParseErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A description that libexterr would not accept.
///
/// ```
/// let e = exterr::ExtError::parse(b"{\"code\":-22,\n x}").unwrap_err();
/// assert_eq!(e.class(), exterr::ParseErrorClass::Malformed);
/// assert_eq!(e.offset(), Some(14)); // the 'x'
/// assert_eq!(e.line_column(), Some((2, 2)));
/// assert!(!e.reason().is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    errno: i32,
    class: ParseErrorClass,
    offset: Option<usize>,
    line_column: Option<(u32, u32)>,
    reason: String,
}

impl ParseError {
    /// From a negative errno without `exterr_parse_ex()` details, as
    /// `exterr_fetch()` returns it.
    pub(crate) fn from_code(neg: i32, reason: &str) -> Self {
        ParseError {
            errno: neg.saturating_neg(),
            class: class_of(neg),
            offset: None,
            line_column: None,
            reason: reason.to_owned(),
        }
    }

    fn from_perr(neg: i32, perr: &sys::exterr_parse_error) -> Self {
        // line 0 means "no place in the text" (too big; schema errors in
        // libexterr versions that do not place them).
        let placed = perr.line > 0;
        // SAFETY: the library NUL-terminates reason; the array is in
        // bounds either way since we zeroed it before the call.
        let reason = unsafe { CStr::from_ptr(perr.reason.as_ptr()) };
        ParseError {
            errno: neg.saturating_neg(),
            class: class_of(neg),
            offset: placed.then_some(perr.position),
            line_column: placed.then(|| (perr.line as u32, perr.column.max(0) as u32)),
            reason: reason.to_string_lossy().into_owned(),
        }
    }

    pub(crate) fn not_utf8() -> Self {
        Self::from_code(-libc::EBADMSG, "libexterr returned text that is not UTF-8")
    }

    /// The class of the failure.
    pub fn class(&self) -> ParseErrorClass {
        self.class
    }

    /// The positive errno libexterr returned (`EBADMSG`, `EPROTO`, ...).
    pub fn errno(&self) -> i32 {
        self.errno
    }

    /// The byte offset into the input where parsing failed, when
    /// libexterr gives the failure a place: syntax errors always have one,
    /// schema errors when the library places them (the libexterr 1.1
    /// sources do), too-big input never.
    ///
    /// For syntax errors this is the first offending byte (the input's
    /// length when it ends too early), as libexterr's validator reports it.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The 1-based line and column (in characters) of [`offset`](Self::offset).
    pub fn line_column(&self) -> Option<(u32, u32)> {
        self.line_column
    }

    /// libexterr's English explanation.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

fn class_of(neg: i32) -> ParseErrorClass {
    // SAFETY: returns a static string for any input.
    ParseErrorClass::from_name(unsafe { text::static_str(sys::exterr_error_class(neg)) })
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} description", self.class)?;
        if let (Some(off), Some((line, col))) = (self.offset, self.line_column) {
            write!(f, " at byte {off} (line {line}, column {col})")?;
        }
        if !self.reason.is_empty() {
            write!(f, ": {}", self.reason)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// `InvalidData` (or `OutOfMemory`) with the `ParseError` inside.
impl From<ParseError> for io::Error {
    fn from(err: ParseError) -> Self {
        let kind = match err.class {
            ParseErrorClass::OutOfMemory => io::ErrorKind::OutOfMemory,
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, err)
    }
}

impl ExtError {
    /// Parses a description in the format `prctl(PR_GET_ERR_DESC)`
    /// returns, strictly (docs/contract.md section 3). One trailing NUL
    /// byte is accepted, so a kernel buffer can be passed as is.
    ///
    /// ```
    /// use exterr::{ExtError, ParseErrorClass};
    /// let ok = ExtError::parse(b"{\"code\":-1,\"module\":\"m\",\"file\":\"f\",\"line\":0,\"message\":\"\"}\0");
    /// assert!(ok.is_ok());
    /// let missing = ExtError::parse(br#"{"code":-22}"#).unwrap_err();
    /// assert_eq!(missing.class(), ParseErrorClass::Schema);
    /// ```
    pub fn parse(json: &[u8]) -> Result<ExtError, ParseError> {
        // Zeroed, so reason is an empty C string even if nothing is
        // written; size tells the library how much of it we have.
        // SAFETY: all-zero bytes are a valid exterr_parse_error.
        let mut perr: sys::exterr_parse_error = unsafe { std::mem::zeroed() };
        perr.size = std::mem::size_of::<sys::exterr_parse_error>();
        let mut raw: *mut sys::exterr = ptr::null_mut();
        // SAFETY: json is valid for len bytes (an empty slice's dangling
        // pointer is never read), raw and perr are valid out pointers.
        let ret =
            unsafe { sys::exterr_parse_ex(json.as_ptr().cast(), json.len(), &mut raw, &mut perr) };
        match NonNull::new(raw) {
            // SAFETY: a fresh result that we now own.
            Some(raw) if ret == 0 => unsafe { ExtError::from_raw(raw) },
            _ => Err(ParseError::from_perr(
                if ret < 0 { ret } else { -libc::EIO },
                &perr,
            )),
        }
    }
}
