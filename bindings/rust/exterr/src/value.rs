// SPDX-License-Identifier: LGPL-2.1-or-later
//! Runtime values (`"values"`) and the severity of a description
//! (libexterr 1.1, contract mechanism v2).

use std::fmt;

use crate::sys;
use crate::text;

/// One runtime value of an [`ExtError`](crate::ExtError): a member of the
/// description's `"values"` object, such as perf's `sample_freq` and
/// `limit`.
///
/// A value is an integer from -2^63 to 2^64 - 1, wider than any one
/// 64-bit type, so [`as_i128`](Self::as_i128) is the exact value, always;
/// [`as_i64`](Self::as_i64) and [`as_u64`](Self::as_u64) are there for the
/// common case of a value known to fit one of them. `Display` writes it in
/// decimal, as `exterr_format()` and the conformance suite do.
///
/// It borrows the C library's memory, so it only exists as a reference
/// into [`ExtError::values`](crate::ExtError::values).
///
/// ```
/// let err = exterr::ExtError::parse(
///     br#"{"code":-22,"module":"m","file":"f.c","line":1,"message":"x","values":{"big":18446744073709551615,"low":-9223372036854775808}}"#,
/// )?;
/// let big = err.value("big").unwrap();
/// assert_eq!((big.name(), big.as_i128()), ("big", u64::MAX as i128));
/// assert_eq!((big.as_u64(), big.as_i64()), (Some(u64::MAX), None));
/// let low = err.value("low").unwrap();
/// assert_eq!((low.as_i64(), low.as_u64()), (Some(i64::MIN), None));
/// assert_eq!(low.to_string(), "-9223372036854775808");
/// # Ok::<(), exterr::ParseError>(())
/// ```
// repr(transparent), as Field: ExtError hands out the C array as &[Value].
#[repr(transparent)]
pub struct Value(sys::exterr_value);

// SAFETY: as for Field: only reachable through &ExtError, and the name
// points into the ExtError's immutable allocation.
unsafe impl Send for Value {}
// SAFETY: as above; nothing mutates a parsed description.
unsafe impl Sync for Value {}

impl Value {
    /// Views the C array `values[..n]` as `&[Value]`.
    ///
    /// # Safety
    /// `values` points to `n` initialized entries (or `n` is 0, or it is
    /// NULL) that live as long as `'a`.
    pub(crate) unsafe fn slice<'a>(values: *const sys::exterr_value, n: usize) -> &'a [Value] {
        if n == 0 || values.is_null() {
            return &[];
        }
        // SAFETY: the caller's promise; Value is repr(transparent).
        unsafe { std::slice::from_raw_parts(values.cast::<Value>(), n) }
    }

    /// Whether the name is UTF-8 (checked once, on creation).
    pub(crate) fn is_utf8(&self) -> bool {
        // SAFETY: the pointer of a live entry, see Value::slice.
        unsafe { text::is_utf8(self.0.name) }
    }

    /// The member's name in `"values"`.
    pub fn name(&self) -> &str {
        // SAFETY: NUL-terminated and owned by the ExtError we borrow.
        unsafe { text::str_at(self.0.name) }
    }

    /// Whether the value is below 0.
    pub fn is_negative(&self) -> bool {
        self.0.negative != 0
    }

    /// The exact value, -2^63 to 2^64 - 1.
    pub fn as_i128(&self) -> i128 {
        // libexterr: `value` is exact when negative, `uvalue` otherwise.
        if self.is_negative() {
            i128::from(self.0.value)
        } else {
            i128::from(self.0.uvalue)
        }
    }

    /// The value if it fits an `i64` (it does unless above 2^63 - 1).
    pub fn as_i64(&self) -> Option<i64> {
        i64::try_from(self.as_i128()).ok()
    }

    /// The value if it fits a `u64` (it does unless negative).
    pub fn as_u64(&self) -> Option<u64> {
        u64::try_from(self.as_i128()).ok()
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_i128(), f)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Value")
            .field("name", &self.name())
            .field("value", &self.as_i128())
            .finish()
    }
}

/// What a description is: an [`Error`](Severity::Error) of a failed call,
/// or a note on a successful one (errno 0), [`Info`](Severity::Info) or
/// [`Warning`](Severity::Warning). Only [`fetch_notes`](crate::fetch_notes)
/// fetches notes; [`ExtError::parse`](crate::ExtError::parse) parses both.
///
/// ```
/// let note = exterr::ExtError::parse(
///     br#"{"code":0,"severity":"warning","module":"m","file":"f.c","line":1,"message":"clamped"}"#,
/// )?;
/// assert_eq!(note.severity(), exterr::Severity::Warning);
/// assert_eq!(note.severity().name(), "warning");
/// assert!(note.is_note() && note.errno() == 0);
/// # Ok::<(), exterr::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// The description of a failed call (a negative `"code"`). Also what
    /// every description reads as with a libexterr older than notes.
    Error,
    /// A note (`"severity":"info"`).
    Info,
    /// A note (`"severity":"warning"`).
    Warning,
}

impl Severity {
    /// From libexterr's `enum exterr_severity`. A value added after this
    /// crate is still a note, so it reads as `Info`, as `exterr_format()`
    /// (which writes `note:` for anything but `ERROR` and `WARNING`) has it.
    pub(crate) fn from_raw(raw: sys::exterr_severity) -> Self {
        match raw {
            sys::EXTERR_SEVERITY_ERROR => Self::Error,
            sys::EXTERR_SEVERITY_WARNING => Self::Warning,
            _ => Self::Info,
        }
    }

    /// The contract's name: `"error"`, `"info"` or `"warning"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Info => "info",
            Self::Warning => "warning",
        }
    }

    /// Whether this is a note's severity (`Info` or `Warning`).
    pub fn is_note(self) -> bool {
        self != Self::Error
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
