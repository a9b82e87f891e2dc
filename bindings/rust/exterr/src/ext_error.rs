// SPDX-License-Identifier: LGPL-2.1-or-later
//! ExtError: one parsed description, owning libexterr's struct.

use std::fmt;
use std::io;
use std::ptr::NonNull;

use crate::field::Field;
use crate::parse::ParseError;
use crate::sys;
use crate::text;
use crate::value::{Severity, Value};

/// `EXTERR_HAS()`: whether the library that built `r` has `member`, one of
/// the members added after libexterr 1.0. Computed from the size alone;
/// the member is not touched.
macro_rules! has {
    ($r:expr, $member:ident) => {
        std::mem::offset_of!(sys::exterr, $member) + member_size(|e: &sys::exterr| &e.$member)
            <= $r.size
    };
}

/// `size_of` the member that `get` projects to, without a value at hand.
fn member_size<T>(_get: fn(&sys::exterr) -> &T) -> usize {
    std::mem::size_of::<T>()
}

/// The kernel's description of a failed system call, or (from
/// [`fetch_notes`](crate::fetch_notes)) a note on a successful one.
///
/// Made by [`fetch`](crate::fetch), [`check`](crate::check) or
/// [`ExtError::parse`]. `Display` prints libexterr's one-line form
/// (`exterr_format()`):
///
/// ```
/// let err = exterr::ExtError::parse(
///     br#"{"code":-2,"module":"demo","file":"lib/x.c","line":3,"message":"no such widget"}"#,
/// )?;
/// assert_eq!(err.to_string(), "No such file or directory: no such widget [demo] (lib/x.c:3)");
/// assert_eq!((err.module(), err.file(), err.line(), err.syscall()), ("demo", "lib/x.c", 3, None));
/// # Ok::<(), exterr::ParseError>(())
/// ```
///
/// # Ownership and threads
///
/// An `ExtError` owns the `struct exterr` that libexterr allocated (one
/// block holding the struct, the field array and every string) and frees
/// it on drop; the accessors borrow from it, so nothing is copied. It is
/// `Send` and `Sync`: the block is never written after `exterr_parse()`
/// returns, libexterr's readers (`exterr_format()`) only read it, and
/// `exterr_free()` is `free()`, which any thread may call.
pub struct ExtError {
    raw: NonNull<sys::exterr>,
}

// SAFETY: see "Ownership and threads" above: immutable after creation,
// uniquely owned, freed with the thread-agnostic free().
unsafe impl Send for ExtError {}
// SAFETY: &ExtError only allows reads of immutable memory.
unsafe impl Sync for ExtError {}

impl ExtError {
    /// Takes ownership of a struct from `exterr_parse()`/`exterr_fetch()`.
    ///
    /// Fails (and frees it) if any text is not UTF-8, which libexterr
    /// promises never happens; checking once keeps the accessors simple.
    ///
    /// # Safety
    /// `raw` is a valid result of libexterr that nobody else frees.
    pub(crate) unsafe fn from_raw(raw: NonNull<sys::exterr>) -> Result<Self, ParseError> {
        let err = ExtError { raw };
        if err.all_utf8() {
            Ok(err)
        } else {
            Err(ParseError::not_utf8())
        }
    }

    fn all_utf8(&self) -> bool {
        let r = self.inner();
        // SAFETY: strings of a live struct.
        let fixed =
            unsafe { text::is_utf8(r.module) && text::is_utf8(r.message) && text::is_utf8(r.file) };
        fixed
            && std::str::from_utf8(self.json_bytes()).is_ok()
            && self.fields().iter().all(Field::is_utf8)
            && self.values().iter().all(Value::is_utf8)
            // SAFETY: a string of a live struct, or NULL.
            && unsafe { text::is_utf8(self.raw_id()) }
    }

    fn inner(&self) -> &sys::exterr {
        // SAFETY: valid until drop, never mutated. An older libexterr's
        // struct is shorter, but the same block goes on with its strings
        // (at least the JSON text), so the bytes are there; the members
        // it lacks are only read after has!() says they exist.
        unsafe { self.raw.as_ref() }
    }

    /// The positive errno the system call failed with, e.g. 22 (`EINVAL`);
    /// 0 for a note.
    pub fn errno(&self) -> i32 {
        self.inner().error
    }

    /// What was wrong, in English.
    pub fn message(&self) -> &str {
        // SAFETY: owned by self.
        unsafe { text::str_at(self.inner().message) }
    }

    /// The subsystem or module that reported it, e.g. `"perf"`.
    pub fn module(&self) -> &str {
        // SAFETY: owned by self.
        unsafe { text::str_at(self.inner().module) }
    }

    /// The kernel source file, relative to the source tree.
    pub fn file(&self) -> &str {
        // SAFETY: owned by self.
        unsafe { text::str_at(self.inner().file) }
    }

    /// The kernel source line.
    pub fn line(&self) -> u32 {
        // The parser rejects lines outside 0..=INT_MAX.
        u32::try_from(self.inner().line).unwrap_or(0)
    }

    /// The number of the system call that recorded it, when the kernel
    /// said. Compare it with the call you made to spot a stale one.
    pub fn syscall(&self) -> Option<i32> {
        let nr = self.inner().syscall;
        (nr >= 0).then_some(nr)
    }

    /// The domain keys, in document order.
    ///
    /// ```
    /// let err = exterr::ExtError::parse(
    ///     br#"{"code":-22,"module":"v4l2","file":"f.c","line":1,"message":"x","ioctl":"VIDIOC_S_FMT","field":"width"}"#,
    /// )?;
    /// let names: Vec<&str> = err.fields().iter().map(|f| f.name()).collect();
    /// assert_eq!(names, ["ioctl", "field"]);
    /// # Ok::<(), exterr::ParseError>(())
    /// ```
    pub fn fields(&self) -> &[Field] {
        let r = self.inner();
        // SAFETY: nr_fields entries owned by self.
        unsafe { Field::slice(r.fields, r.nr_fields) }
    }

    /// The first domain key called `name`, as `exterr_field()` finds it.
    /// The fixed keys (`code`, `module`, ...) are not fields.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields().iter().find(|f| f.name() == name)
    }

    /// The site's stable identifier (`"id"`, e.g.
    /// `"perf.sample_freq.above_max_rate"`), the thing to key on in
    /// programs and translations. `None` when the kernel gave none (a v1
    /// kernel) or the linked libexterr predates it.
    ///
    /// ```
    /// let err = exterr::ExtError::parse(
    ///     br#"{"code":-22,"id":"demo.widget.missing","module":"demo","file":"f.c","line":1,"message":"x"}"#,
    /// )?;
    /// assert_eq!(err.id(), Some("demo.widget.missing"));
    /// # Ok::<(), exterr::ParseError>(())
    /// ```
    pub fn id(&self) -> Option<&str> {
        let p = self.raw_id();
        // SAFETY: NULL or a string owned by self.
        (!p.is_null()).then(|| unsafe { text::str_at(p) })
    }

    fn raw_id(&self) -> *const std::ffi::c_char {
        let r = self.inner();
        if has!(r, id) {
            r.id
        } else {
            std::ptr::null()
        }
    }

    /// [`Severity::Error`] for the description of a failed call, `Info`
    /// or `Warning` for a note. `Error` with a libexterr older than notes.
    pub fn severity(&self) -> Severity {
        let r = self.inner();
        if has!(r, severity) {
            Severity::from_raw(r.severity)
        } else {
            Severity::Error
        }
    }

    /// Whether this is a note on a successful call (then
    /// [`errno`](Self::errno) is 0), not an error. Only
    /// [`fetch_notes`](crate::fetch_notes) hands notes out; a note is no
    /// failure, so do not convert one to an `io::Error` (it would be
    /// "os error 0").
    pub fn is_note(&self) -> bool {
        self.severity().is_note()
    }

    /// The runtime values (`"values"`), in document order; empty when the
    /// description has none or the linked libexterr predates them.
    ///
    /// ```
    /// let err = exterr::ExtError::parse(
    ///     br#"{"code":-22,"module":"perf","file":"f.c","line":1,"message":"x","values":{"sample_freq":1099511627776,"limit":100000}}"#,
    /// )?;
    /// let values: Vec<(&str, i128)> = err.values().iter().map(|v| (v.name(), v.as_i128())).collect();
    /// assert_eq!(values, [("sample_freq", 1 << 40), ("limit", 100000)]);
    /// # Ok::<(), exterr::ParseError>(())
    /// ```
    pub fn values(&self) -> &[Value] {
        let r = self.inner();
        if !(has!(r, nr_values) && has!(r, values)) {
            return &[];
        }
        // SAFETY: nr_values entries owned by self.
        unsafe { Value::slice(r.values, r.nr_values) }
    }

    /// The value called `name`, as `exterr_value()` finds it.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.values().iter().find(|v| v.name() == name)
    }

    /// The JSON text the description was parsed from (without a trailing
    /// NUL).
    pub fn json(&self) -> &str {
        std::str::from_utf8(self.json_bytes()).unwrap_or("")
    }

    fn json_bytes(&self) -> &[u8] {
        let r = self.inner();
        if r.json.is_null() {
            return &[];
        }
        // SAFETY: json_len bytes owned by self.
        unsafe { std::slice::from_raw_parts(r.json.cast::<u8>(), r.json_len) }
    }

    /// The underlying C struct, for passing to libexterr functions. It
    /// stays owned by `self`.
    pub fn as_raw(&self) -> *const sys::exterr {
        self.raw.as_ptr()
    }

    /// The `exterr_format()` line (the same as `to_string()`).
    fn format_line(&self) -> String {
        let p = self.as_raw();
        // Size first, then fill: snprintf() semantics.
        // SAFETY: valid struct; NULL/0 asks for the length only.
        let len = unsafe { sys::exterr_format(p, std::ptr::null_mut(), 0) };
        let Ok(len) = usize::try_from(len) else {
            return format!("error {} (unformattable description)", self.errno());
        };
        let mut buf = vec![0u8; len + 1];
        // SAFETY: buf holds len + 1 bytes, as passed.
        unsafe { sys::exterr_format(p, buf.as_mut_ptr().cast(), buf.len()) };
        buf.truncate(len);
        // Escaping only touches ASCII, so valid input stays valid UTF-8.
        String::from_utf8(buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

impl Drop for ExtError {
    fn drop(&mut self) {
        // SAFETY: we own it; nothing borrowed outlives self.
        unsafe { sys::exterr_free(self.raw.as_ptr()) }
    }
}

impl fmt::Display for ExtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format_line())
    }
}

impl fmt::Debug for ExtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExtError")
            .field("errno", &self.errno())
            .field("module", &self.module())
            .field("message", &self.message())
            .field("file", &self.file())
            .field("line", &self.line())
            .field("syscall", &self.syscall())
            .field("fields", &self.fields())
            .field("id", &self.id())
            .field("severity", &self.severity())
            .field("values", &self.values())
            .finish()
    }
}

impl std::error::Error for ExtError {}

/// The plain OS error: `raw_os_error()` and `kind()` are those of
/// `io::Error::from_raw_os_error(errno)`, as for any failed system call;
/// the description is dropped, because `io::Error` cannot hold a code and
/// a payload at once. Convert to [`Error`](crate::Error) instead to keep
/// both.
///
/// ```
/// use exterr::ExtError;
/// let ext = ExtError::parse(br#"{"code":-22,"module":"m","file":"f.c","line":1,"message":"x"}"#)?;
/// let io: std::io::Error = ext.into();
/// assert_eq!(io.raw_os_error(), Some(22));
/// assert_eq!(io.kind(), std::io::ErrorKind::InvalidInput);
/// # Ok::<(), exterr::ParseError>(())
/// ```
impl From<ExtError> for io::Error {
    fn from(err: ExtError) -> Self {
        io::Error::from_raw_os_error(err.errno())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V2: &[u8] = br#"{"code":0,"severity":"warning","id":"demo.widget.clamped","module":"demo","file":"d.c","line":1,"message":"clamped","values":{"n":-1}}"#;

    /// A copy of `err`'s struct as a libexterr that ends at `size` would
    /// have built it: every member past `size` is garbage. Its strings
    /// still point into `err`, which must outlive it.
    fn as_if_older(err: &ExtError, size: usize) -> ExtError {
        let n = std::mem::size_of::<sys::exterr>();
        // SAFETY: a fresh block of n bytes, filled from a valid struct of
        // n bytes, then its tail scribbled over; exterr_free() is free().
        unsafe {
            let p = libc::malloc(n).cast::<sys::exterr>();
            let mut copy = *err.raw.as_ptr();
            copy.size = size;
            p.write(copy);
            let tail = p.cast::<u8>().add(size);
            tail.write_bytes(0x5a, n - size);
            ExtError::from_raw(NonNull::new(p).unwrap()).unwrap()
        }
    }

    #[test]
    fn members_past_the_library_struct_are_absent() {
        let err = ExtError::parse(V2).unwrap();
        assert_eq!(err.inner().size, std::mem::size_of::<sys::exterr>());
        assert_eq!(err.id(), Some("demo.widget.clamped"));
        assert_eq!(err.severity(), Severity::Warning);
        assert_eq!(err.values().len(), 1);

        // libexterr 1.0: the struct ends after json_len.
        let v1 = as_if_older(&err, std::mem::offset_of!(sys::exterr, id));
        assert_eq!(
            (v1.id(), v1.severity(), v1.is_note()),
            (None, Severity::Error, false)
        );
        assert!(v1.values().is_empty() && v1.value("n").is_none());
        assert_eq!((v1.module(), v1.message()), ("demo", "clamped"));

        // A struct that ends inside a member has not got it either.
        let part = as_if_older(&err, std::mem::offset_of!(sys::exterr, values) + 1);
        assert_eq!(part.id(), Some("demo.widget.clamped"));
        assert_eq!(part.severity(), Severity::Warning);
        assert!(part.values().is_empty());
    }
}
