// SPDX-License-Identifier: LGPL-2.1-or-later
//! Domain keys of a description (`attr_field`, `ioctl`, ...).

use std::fmt;

use crate::sys;
use crate::text;

/// One domain key of an [`ExtError`](crate::ExtError): every JSON key
/// besides the fixed `code`, `module`, `file`, `line`, `message`,
/// `syscall`, `id`, `severity` and `values`, in document order.
///
/// It borrows the C library's memory, so it only exists as a reference
/// into [`ExtError::fields`](crate::ExtError::fields).
///
/// ```
/// let err = exterr::ExtError::parse(
///     br#"{"code":-22,"module":"m","file":"f.c","line":1,"message":"x","n":7}"#,
/// )?;
/// let n = err.field("n").unwrap();
/// assert_eq!((n.name(), n.kind(), n.value()), ("n", exterr::FieldKind::Integer, "7"));
/// assert_eq!(n.as_i64(), Some(7));
/// # Ok::<(), exterr::ParseError>(())
/// ```
// repr(transparent) lets ExtError hand out the C array itself as &[Field]:
// no copy, and the slice is exactly as long as nr_fields says.
#[repr(transparent)]
pub struct Field(sys::exterr_field);

// SAFETY: a Field is only reachable through &ExtError; its pointers name
// immutable bytes inside the ExtError's allocation (see ExtError).
unsafe impl Send for Field {}
// SAFETY: as above; nothing mutates a parsed description.
unsafe impl Sync for Field {}

impl Field {
    /// Views the C array `fields[..n]` as `&[Field]`.
    ///
    /// # Safety
    /// `fields` points to `n` initialized entries (or `n` is 0) that live
    /// as long as `'a`.
    pub(crate) unsafe fn slice<'a>(fields: *const sys::exterr_field, n: usize) -> &'a [Field] {
        if n == 0 || fields.is_null() {
            return &[];
        }
        // SAFETY: the caller's promise; Field is repr(transparent).
        unsafe { std::slice::from_raw_parts(fields.cast::<Field>(), n) }
    }

    /// Whether the name and value are UTF-8 (checked once, on creation).
    pub(crate) fn is_utf8(&self) -> bool {
        // SAFETY: pointers of a live entry, see Field::slice.
        unsafe { text::is_utf8(self.0.name) && text::is_utf8(self.0.value) }
    }

    /// The JSON key.
    pub fn name(&self) -> &str {
        // SAFETY: NUL-terminated and owned by the ExtError we borrow.
        unsafe { text::str_at(self.0.name) }
    }

    /// The JSON type of the value.
    pub fn kind(&self) -> FieldKind {
        FieldKind::from_raw(self.0.type_)
    }

    /// The value as text (docs/contract.md section 3): a string decoded,
    /// an integer in decimal, a real as `%.17g`, `true`/`false`/`null`,
    /// objects and arrays as compact JSON.
    pub fn value(&self) -> &str {
        // SAFETY: as for name().
        unsafe { text::str_at(self.0.value) }
    }

    /// The value of an [`Integer`](FieldKind::Integer) field.
    pub fn as_i64(&self) -> Option<i64> {
        (self.kind() == FieldKind::Integer).then_some(self.0.integer)
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("name", &self.name())
            .field("kind", &self.kind())
            .field("value", &self.value())
            .finish()
    }
}

/// The JSON type of a [`Field`]'s value.
///
/// ```
/// assert_eq!(exterr::FieldKind::Boolean.name(), "boolean");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldKind {
    /// A JSON string.
    String,
    /// A JSON number without fraction or exponent that fits 64 bits.
    Integer,
    /// Any other JSON number.
    Real,
    /// `true` or `false`.
    Boolean,
    /// `null`.
    Null,
    /// A JSON object (value text is compact JSON).
    Object,
    /// A JSON array (value text is compact JSON).
    Array,
    /// A type added to libexterr after this crate was written.
    Unknown(u32),
}

impl FieldKind {
    fn from_raw(t: sys::exterr_field_type) -> Self {
        match t {
            sys::EXTERR_FIELD_STRING => Self::String,
            sys::EXTERR_FIELD_INTEGER => Self::Integer,
            sys::EXTERR_FIELD_REAL => Self::Real,
            sys::EXTERR_FIELD_BOOLEAN => Self::Boolean,
            sys::EXTERR_FIELD_NULL => Self::Null,
            sys::EXTERR_FIELD_OBJECT => Self::Object,
            sys::EXTERR_FIELD_ARRAY => Self::Array,
            other => Self::Unknown(other),
        }
    }

    fn to_raw(self) -> sys::exterr_field_type {
        match self {
            Self::String => sys::EXTERR_FIELD_STRING,
            Self::Integer => sys::EXTERR_FIELD_INTEGER,
            Self::Real => sys::EXTERR_FIELD_REAL,
            Self::Boolean => sys::EXTERR_FIELD_BOOLEAN,
            Self::Null => sys::EXTERR_FIELD_NULL,
            Self::Object => sys::EXTERR_FIELD_OBJECT,
            Self::Array => sys::EXTERR_FIELD_ARRAY,
            Self::Unknown(t) => t,
        }
    }

    /// The contract's type name (`"string"`, `"integer"`, `"real"`,
    /// `"boolean"`, `"null"`, `"object"`, `"array"`), as libexterr's
    /// `exterr_field_type_name()` gives it; `"unknown"` otherwise.
    pub fn name(self) -> &'static str {
        // SAFETY: the function returns static strings for any input.
        unsafe { text::static_str(sys::exterr_field_type_name(self.to_raw())) }
    }
}

impl fmt::Display for FieldKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
