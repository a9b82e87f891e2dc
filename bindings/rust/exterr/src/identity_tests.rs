// SPDX-License-Identifier: LGPL-2.1-or-later
//! Every way out of a failed call keeps the plain OS error's identity
//! (`raw_os_error()` and `kind()` of `io::Error::from_raw_os_error`), and
//! the description survives wherever the type allows (issue 19). The
//! kernel is faked (fake_kernel.rs) so a description can come with the
//! failure on any host.

use std::error::Error as _;
use std::io;

use crate::fake_kernel;
use crate::{check, check_syscall, cvt, fetch, Error, ExtError};

/// Errnos of different kinds: NotFound, InvalidInput, PermissionDenied,
/// WouldBlock.
const ERRNOS: [i32; 4] = [libc::ENOENT, libc::EINVAL, libc::EACCES, libc::EAGAIN];

/// The system call number the faked descriptions name.
const SYSCALL: i64 = 257;

fn description(errno: i32) -> Vec<u8> {
    format!(
        r#"{{"code":-{errno},"module":"fake","file":"fs/fake.c","line":7,"message":"faked for errno {errno}","syscall":{SYSCALL},"k":"v"}}"#
    )
    .into_bytes()
}

/// A failed call on a patched kernel that described it.
fn fail_described(errno: i32) {
    fake_kernel::pending(&description(errno));
    fake_kernel::set_errno(errno);
}

#[track_caller]
fn assert_identity(what: &str, errno: i32, raw: Option<i32>, kind: io::ErrorKind) {
    let plain = io::Error::from_raw_os_error(errno);
    assert_eq!(
        raw,
        plain.raw_os_error(),
        "{what}: raw_os_error, errno {errno}"
    );
    assert_eq!(kind, plain.kind(), "{what}: kind, errno {errno}");
}

#[track_caller]
fn assert_described(what: &str, errno: i32, e: &Error) {
    assert_identity(what, errno, e.raw_os_error(), e.kind());
    let ext = e.ext().unwrap_or_else(|| panic!("{what}: no description"));
    assert_eq!(ext.errno(), errno, "{what}");
    assert_eq!(ext.message(), format!("faked for errno {errno}"), "{what}");
    assert_eq!(ext.field("k").map(|f| f.value()), Some("v"), "{what}");
    assert_eq!(e.to_string(), ext.to_string(), "{what}: Display");
    // The chain leads to the OS error, code and all.
    let os = e.source().and_then(|s| s.downcast_ref::<io::Error>());
    let os = os.unwrap_or_else(|| panic!("{what}: source is not the io::Error"));
    assert_identity(
        &format!("{what}: source"),
        errno,
        os.raw_os_error(),
        os.kind(),
    );
}

/// An io::Error that must be nothing but the OS code.
#[track_caller]
fn assert_plain_io(what: &str, errno: i32, io: &io::Error) {
    let plain = io::Error::from_raw_os_error(errno);
    assert_identity(what, errno, io.raw_os_error(), io.kind());
    assert_eq!(format!("{io:?}"), format!("{plain:?}"), "{what}: Debug");
    assert_eq!(io.to_string(), plain.to_string(), "{what}: Display");
}

/// An Error without a description must look like the plain error.
#[track_caller]
fn assert_undescribed(what: &str, errno: i32, e: Error) {
    let plain = io::Error::from_raw_os_error(errno);
    assert_identity(what, errno, e.raw_os_error(), e.kind());
    assert!(e.ext().is_none(), "{what}: unexpected description");
    assert_eq!(e.to_string(), plain.to_string(), "{what}: Display");
    assert!(e.source().is_none(), "{what}: source");
    assert_plain_io(&format!("{what} -> io::Error"), errno, &io::Error::from(e));
}

#[test]
fn check_and_cvt_keep_identity_and_description() {
    for errno in ERRNOS {
        fail_described(errno);
        assert_described("check", errno, &check(-1i32).unwrap_err());
        assert!(matches!(fetch(), Ok(None)), "check consumed it");

        fail_described(errno);
        let e = check_syscall(-1i64, SYSCALL).unwrap_err();
        assert_described("check_syscall", errno, &e);

        fail_described(errno);
        let e = cvt(-1isize).unwrap_err();
        assert_described("cvt", errno, &e);
        assert_plain_io("io::Error::from(cvt)", errno, &io::Error::from(e));
    }
}

#[test]
fn question_mark_keeps_identity() {
    fn io_check() -> io::Result<i32> {
        Ok(check(-1i32)?)
    }
    fn io_cvt() -> io::Result<i32> {
        Ok(cvt(-1i32)?)
    }
    fn exterr_cvt() -> Result<i32, Error> {
        let fd = cvt(-1i32)?;
        Ok(fd + 1)
    }
    fn boxed() -> Result<i32, Box<dyn std::error::Error + Send + Sync>> {
        Ok(cvt(-1i32)?)
    }
    fn io_from_ext(errno: i32) -> io::Result<()> {
        Err(ExtError::parse(&description(errno)).unwrap())?
    }
    fn exterr_from_ext(errno: i32) -> Result<(), Error> {
        Err(ExtError::parse(&description(errno)).unwrap())?
    }
    for errno in ERRNOS {
        fail_described(errno);
        assert_plain_io("? check -> io", errno, &io_check().unwrap_err());
        fail_described(errno);
        assert_plain_io("? cvt -> io", errno, &io_cvt().unwrap_err());
        fail_described(errno);
        assert_described("? cvt -> Error", errno, &exterr_cvt().unwrap_err());
        fail_described(errno);
        let b = boxed().unwrap_err();
        let e = b.downcast_ref::<Error>().expect("? cvt -> Box<dyn Error>");
        assert_described("? cvt -> Box<dyn Error>", errno, e);
        assert_plain_io("? ExtError -> io", errno, &io_from_ext(errno).unwrap_err());
        let e = exterr_from_ext(errno).unwrap_err();
        assert_described("? ExtError -> Error", errno, &e);
    }
}

#[test]
fn from_conversions_keep_identity() {
    for errno in ERRNOS {
        let ext = || ExtError::parse(&description(errno)).unwrap();
        assert_plain_io(
            "From<ExtError> for io::Error",
            errno,
            &io::Error::from(ext()),
        );
        let e = Error::from(ext());
        assert_described("From<ExtError> for Error", errno, &e);
        assert_plain_io("From<Error> for io::Error", errno, &io::Error::from(e));
        let e = Error::from(io::Error::from_raw_os_error(errno));
        assert_undescribed("From<io::Error> for Error", errno, e);
        assert_eq!(
            Error::from(ext()).into_ext().map(|x| x.errno()),
            Some(errno)
        );
    }
}

#[test]
fn without_a_description_it_is_the_plain_error() {
    for errno in ERRNOS {
        fake_kernel::unsupported();
        fake_kernel::set_errno(errno);
        assert_undescribed("check, no exterr", errno, check(-1i32).unwrap_err());
        fake_kernel::set_errno(errno);
        assert_undescribed("cvt, no exterr", errno, cvt(-1i32).unwrap_err());

        fake_kernel::nothing_pending();
        fake_kernel::set_errno(errno);
        assert_undescribed("check, nothing pending", errno, check(-1i32).unwrap_err());
        fake_kernel::set_errno(errno);
        assert_undescribed("cvt, nothing pending", errno, cvt(-1i32).unwrap_err());

        // A description of another errno is stale: dropped, not shown.
        fake_kernel::pending(&description(libc::EBADF));
        fake_kernel::set_errno(errno);
        assert_undescribed("cvt, stale errno", errno, cvt(-1i32).unwrap_err());
        assert!(matches!(fetch(), Ok(None)), "the stale one was consumed");

        // So is one that another system call recorded.
        fail_described(errno);
        let e = check_syscall(-1i32, SYSCALL + 1).unwrap_err();
        assert_undescribed("check_syscall, stale syscall", errno, e);
    }
}

#[test]
fn success_leaves_the_description_pending() {
    fake_kernel::pending(&description(libc::EINVAL));
    assert_eq!(cvt(3i32).unwrap(), 3);
    assert_eq!(check(0i64).unwrap(), 0);
    assert_eq!(fetch().unwrap().unwrap().errno(), libc::EINVAL);
}
