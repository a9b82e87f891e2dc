// SPDX-License-Identifier: LGPL-2.1-or-later
//! Behaviour of the safe API that the conformance cases do not cover.

use std::io;

use exterr::{ExtError, FetchError, FieldKind, ParseErrorClass, Severity};

const PERF: &[u8] = br#"{"code":-22,"module":"perf","file":"kernel/events/core.c","line":12593,"message":"sigtrap requires remove_on_exec","syscall":298,"attr_field":"sigtrap"}"#;

#[test]
fn accessors() {
    let e = ExtError::parse(PERF).unwrap();
    assert_eq!(e.errno(), libc::EINVAL);
    assert_eq!(e.module(), "perf");
    assert_eq!(e.file(), "kernel/events/core.c");
    assert_eq!(e.line(), 12593);
    assert_eq!(e.syscall(), Some(298));
    assert_eq!(e.json().as_bytes(), PERF);
    let f = e.field("attr_field").unwrap();
    assert_eq!(
        (f.kind(), f.value(), f.as_i64()),
        (FieldKind::String, "sigtrap", None)
    );
    assert!(e.field("module").is_none(), "fixed keys are not fields");
    assert!(format!("{e:?}").contains("attr_field"));
}

/// A v2 description: id, values (both ends of the range) after a domain key.
const V2: &[u8] = br#"{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf","file":"kernel/events/core.c","line":13134,"message":"sample_freq above kernel.perf_event_max_sample_rate","syscall":298,"values":{"sample_freq":18446744073709551615,"limit":-9223372036854775808,"zero":0},"attr_field":"sample_freq"}"#;

#[test]
fn v1_description_has_no_id_values_or_note() {
    let e = ExtError::parse(PERF).unwrap();
    assert_eq!(e.id(), None);
    assert_eq!(e.severity(), Severity::Error);
    assert!(!e.is_note());
    assert!(e.values().is_empty());
    assert!(e.value("attr_field").is_none(), "a field is not a value");
}

#[test]
fn id_and_severity_of_an_error() {
    let e = ExtError::parse(V2).unwrap();
    assert_eq!(e.id(), Some("perf.sample_freq.above_max_rate"));
    assert_eq!(
        (e.severity(), e.severity().name()),
        (Severity::Error, "error")
    );
    assert!(!e.is_note());
    // id, severity and values are not domain keys.
    let names: Vec<&str> = e.fields().iter().map(|f| f.name()).collect();
    assert_eq!(names, ["attr_field"]);
    assert!(format!("{e:?}").contains("perf.sample_freq.above_max_rate"));
}

#[test]
fn values_are_exact_over_the_whole_range() {
    let e = ExtError::parse(V2).unwrap();
    let got: Vec<(&str, i128, String)> = e
        .values()
        .iter()
        .map(|v| (v.name(), v.as_i128(), v.to_string()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "sample_freq",
                18446744073709551615,
                "18446744073709551615".into()
            ),
            ("limit", -9223372036854775808, "-9223372036854775808".into()),
            ("zero", 0, "0".into()),
        ]
    );
    let max = e.value("sample_freq").unwrap();
    assert_eq!(
        (max.as_u64(), max.as_i64(), max.is_negative()),
        (Some(u64::MAX), None, false)
    );
    let min = e.value("limit").unwrap();
    assert_eq!(
        (min.as_i64(), min.as_u64(), min.is_negative()),
        (Some(i64::MIN), None, true)
    );
    let zero = e.value("zero").unwrap();
    assert_eq!((zero.as_i64(), zero.as_u64()), (Some(0), Some(0)));
    assert!(e.value("nope").is_none());
    assert!(format!("{max:?}").contains("18446744073709551615"));
}

#[test]
fn value_lookup_agrees_with_exterr_value() {
    let e = ExtError::parse(V2).unwrap();
    for v in e.values() {
        let name = std::ffi::CString::new(v.name()).unwrap();
        let c = unsafe { exterr::sys::exterr_value(e.as_raw(), name.as_ptr()) };
        let c = unsafe { c.as_ref() }.unwrap();
        let exact = if c.negative != 0 {
            i128::from(c.value)
        } else {
            i128::from(c.uvalue)
        };
        assert_eq!(e.value(v.name()).unwrap().as_i128(), exact);
    }
    let c = unsafe { exterr::sys::exterr_value(e.as_raw(), c"attr_field".as_ptr()) };
    assert!(c.is_null());
}

#[test]
fn format_line_appends_values_after_the_fields() {
    let e = ExtError::parse(V2).unwrap();
    assert_eq!(
        e.to_string(),
        "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq sample_freq=18446744073709551615 limit=-9223372036854775808 zero=0] (kernel/events/core.c:13134)"
    );
}

#[test]
fn notes_have_a_severity_and_errno_0() {
    let note = |sev: &str| {
        ExtError::parse(format!(
            r#"{{"code":0,"severity":"{sev}","module":"vivid","file":"drivers/media/test-drivers/vivid/vivid-vid-cap.c","line":660,"message":"pixelformat not supported, replaced by YUYV","values":{{"requested":1482184792,"granted":1448695129}},"field":"pixelformat"}}"#
        ).as_bytes())
        .unwrap()
    };
    let info = note("info");
    assert_eq!(
        (info.errno(), info.severity(), info.is_note()),
        (0, Severity::Info, true)
    );
    assert_eq!(info.severity().to_string(), "info");
    assert_eq!(
        info.to_string(),
        "note: pixelformat not supported, replaced by YUYV [vivid field=pixelformat requested=1482184792 granted=1448695129] (drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)"
    );
    let warning = note("warning");
    assert_eq!(
        (warning.errno(), warning.severity()),
        (0, Severity::Warning)
    );
    assert!(warning.is_note() && warning.severity().is_note());
    assert!(warning
        .to_string()
        .starts_with("warning: pixelformat not supported"));
    assert_eq!(
        warning.value("granted").and_then(|v| v.as_u64()),
        Some(1448695129)
    );
}

#[test]
fn v2_schema_errors() {
    let class = |b: &[u8]| ExtError::parse(b).unwrap_err().class();
    // A note needs a severity; an error must not have one.
    assert_eq!(
        class(br#"{"code":0,"module":"m","file":"f","line":0,"message":""}"#),
        ParseErrorClass::Schema
    );
    assert_eq!(
        class(br#"{"code":-1,"severity":"info","module":"m","file":"f","line":0,"message":""}"#),
        ParseErrorClass::Schema
    );
    // One past either end of the range.
    assert_eq!(
        class(br#"{"code":-1,"module":"m","file":"f","line":0,"message":"","values":{"n":18446744073709551616}}"#),
        ParseErrorClass::Schema
    );
    assert_eq!(
        class(br#"{"code":-1,"module":"m","file":"f","line":0,"message":"","values":{"n":-9223372036854775809}}"#),
        ParseErrorClass::Schema
    );
}

#[test]
fn first_of_duplicate_field_names_wins_like_exterr_field() {
    // Duplicate keys are a schema error, so a name is unique; this pins
    // that field() and the C lookup agree on an ordinary description.
    let e = ExtError::parse(
        br#"{"code":-1,"module":"m","file":"f","line":0,"message":"","a":1,"b":2}"#,
    )
    .unwrap();
    let c = unsafe { exterr::sys::exterr_field(e.as_raw(), c"b".as_ptr()) };
    let c = unsafe { std::ffi::CStr::from_ptr(c) }.to_str().unwrap();
    assert_eq!(e.field("b").unwrap().value(), c);
}

#[test]
fn json_excludes_trailing_nul() {
    let mut buf = PERF.to_vec();
    buf.push(0);
    assert_eq!(ExtError::parse(&buf).unwrap().json().as_bytes(), PERF);
}

#[test]
fn parse_error_classes() {
    let class = |b: &[u8]| ExtError::parse(b).unwrap_err().class();
    assert_eq!(class(b""), ParseErrorClass::Malformed);
    assert_eq!(class(b"{\"a\":1}\0\0"), ParseErrorClass::Malformed);
    assert_eq!(class(b"[]"), ParseErrorClass::Schema);
    let mut big = b"{\"message\":\"".to_vec();
    big.resize(65537, b'a');
    assert_eq!(class(&big), ParseErrorClass::TooBig);
    // Too big has no place in the text (libexterr's line 0).
    assert_eq!(ExtError::parse(&big).unwrap_err().offset(), None);
}

#[test]
fn parse_error_details() {
    let e = ExtError::parse(b"{\"code\":-22,\n x}").unwrap_err();
    assert_eq!(e.errno(), libc::EBADMSG);
    // libexterr points at the first offending byte: the 'x'.
    assert_eq!(e.offset(), Some(14));
    assert_eq!(e.line_column(), Some((2, 2)));
    let shown = e.to_string();
    assert!(
        shown.starts_with("malformed description at byte 14 (line 2, column 2): "),
        "{shown}"
    );

    let input = br#"{"code":-22}"#;
    let e = ExtError::parse(input).unwrap_err();
    assert_eq!(
        (e.errno(), e.class()),
        (libc::EPROTO, ParseErrorClass::Schema)
    );
    // Where libexterr places a schema error is its business (1.1 started
    // to); the binding only must not invent a place outside the input.
    assert!(e.offset().is_none_or(|o| o <= input.len()), "{e:?}");
    assert!(!e.reason().is_empty());
    assert_eq!(io::Error::from(e).kind(), io::ErrorKind::InvalidData);
}

#[test]
fn display_is_exterr_format() {
    let e = ExtError::parse(
        br#"{"code":-4095,"module":"m\n","file":"f","line":1,"message":"a\u0001b","k":"x y"}"#,
    )
    .unwrap();
    assert_eq!(e.to_string(), "Error 4095: a\\x01b [m\\n k=\"x y\"] (f:1)");
}

#[test]
fn from_ext_error_keeps_raw_os_error() {
    let io: io::Error = ExtError::parse(PERF).unwrap().into();
    assert_eq!(io.raw_os_error(), Some(libc::EINVAL));
    assert_eq!(io.kind(), io::ErrorKind::InvalidInput);
}

#[test]
fn error_from_ext_error_keeps_both() {
    let err = exterr::Error::from(ExtError::parse(PERF).unwrap());
    assert_eq!(err.raw_os_error(), Some(libc::EINVAL));
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    assert_eq!(
        err.ext().unwrap().field("attr_field").unwrap().value(),
        "sigtrap"
    );
    assert!(err.to_string().starts_with("Invalid argument: sigtrap"));
    // The chain leads to the plain OS error, code and all.
    let source = std::error::Error::source(&err).unwrap();
    let os = source.downcast_ref::<io::Error>().unwrap();
    assert_eq!(os.raw_os_error(), Some(libc::EINVAL));
    let io: io::Error = err.into();
    assert_eq!(io.raw_os_error(), Some(libc::EINVAL));
    assert!(io.get_ref().is_none(), "nothing but the OS code");
}

#[test]
fn send_sync_and_across_threads() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<ExtError>();
    assert_send_sync::<exterr::Error>();
    assert_send_sync::<FetchError>();
    let e = ExtError::parse(PERF).unwrap();
    let line = std::thread::spawn(move || e.to_string()).join().unwrap();
    assert!(line.ends_with("(kernel/events/core.c:12593)"));
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(ExtError::parse(PERF).unwrap());
    assert!(boxed.downcast_ref::<ExtError>().is_some());
}

/// Whether the running kernel has exterr, asked without libexterr.
fn kernel_has_exterr() -> bool {
    let r = unsafe { libc::prctl(exterr::sys::PR_GET_ERR_DESC as libc::c_int, 0, 0, 0, 0) };
    !(r == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL))
}

#[test]
fn fetch_matches_the_kernel() {
    let r = exterr::fetch();
    if kernel_has_exterr() {
        assert!(!matches!(r, Err(FetchError::Unsupported)), "{r:?}");
    } else {
        assert!(matches!(r, Err(FetchError::Unsupported)), "{r:?}");
    }
}

#[test]
fn fetch_notes_matches_the_kernel_and_leaves_errno_alone() {
    let has = kernel_has_exterr();
    unsafe { *libc::__errno_location() = libc::ENOTTY };
    let r = exterr::fetch_notes();
    assert_eq!(
        io::Error::last_os_error().raw_os_error(),
        Some(libc::ENOTTY)
    );
    assert_eq!(matches!(r, Err(FetchError::Unsupported)), !has, "{r:?}");
}

#[test]
fn supported_matches_the_kernel_and_leaves_errno_alone() {
    // The probe sets errno itself, so it goes first.
    let has = kernel_has_exterr();
    unsafe { *libc::__errno_location() = libc::ENOTTY };
    assert_eq!(exterr::supported(), has);
    assert_eq!(
        io::Error::last_os_error().raw_os_error(),
        Some(libc::ENOTTY)
    );
    // fetch() draws the same line. (That asking consumes nothing is
    // tested against the fake kernel and in the guest test.)
    let unsupported = matches!(exterr::fetch(), Err(FetchError::Unsupported));
    assert_eq!(exterr::supported(), !unsupported);
}

#[test]
fn fetch_leaves_errno_alone() {
    unsafe { *libc::__errno_location() = libc::ENOTTY };
    let _ = exterr::fetch();
    assert_eq!(
        io::Error::last_os_error().raw_os_error(),
        Some(libc::ENOTTY)
    );
}

#[test]
fn check_without_description_is_the_plain_error() {
    let err = exterr::check(unsafe { libc::dup(-1) }).unwrap_err();
    assert_eq!(err.raw_os_error(), Some(libc::EBADF));
    assert_eq!(err.kind(), io::Error::from_raw_os_error(libc::EBADF).kind());
    assert!(err.ext().is_none());
    let io: io::Error = err.into();
    assert_eq!(io.raw_os_error(), Some(libc::EBADF));
    assert_eq!(exterr::check(5i64).unwrap(), 5);
    assert_eq!(exterr::cvt(0isize).unwrap(), 0);
}

#[test]
fn version_matches_header_major() {
    let major: u32 = exterr::version()
        .split('.')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(major, exterr::sys::EXTERR_VERSION_MAJOR);
}
