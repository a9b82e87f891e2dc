// SPDX-License-Identifier: LGPL-2.1-or-later
//! ExtError: one parsed description, owning libexterr's struct.

use std::fmt;
use std::io;
use std::ptr::NonNull;

use crate::field::Field;
use crate::parse::ParseError;
use crate::sys;
use crate::text;

/// The kernel's description of a failed system call.
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
    }

    fn inner(&self) -> &sys::exterr {
        // SAFETY: valid until drop, never mutated.
        unsafe { self.raw.as_ref() }
    }

    /// The positive errno the system call failed with, e.g. 22 (`EINVAL`).
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
