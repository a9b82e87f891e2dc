// SPDX-License-Identifier: LGPL-2.1-or-later
//! `Display` follows the process's locale: libexterr's `exterr_format()`
//! looks the message up by id in the gettext catalogue installed with the
//! library, once the program has called `setlocale(LC_ALL, "")`.
//!
//! `setlocale` changes the whole process and the test harness runs tests
//! on threads, so the work is done in a child: this test binary run again
//! with only `child_prints_line` selected and the locale in its
//! environment (which also spares the parent `std::env::set_var`).

use std::process::Command;

use exterr::ExtError;

/// A site whose id has a German translation in libexterr-c/po/de.po.
const V2: &[u8] = br#"{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf","file":"kernel/events/core.c","line":13134,"message":"sample_freq above kernel.perf_event_max_sample_rate","syscall":298,"values":{"sample_freq":1099511627776,"limit":100000},"attr_field":"sample_freq"}"#;
const TAIL: &str = " [perf attr_field=sample_freq sample_freq=1099511627776 limit=100000] (kernel/events/core.c:13134)";
const ENGLISH: &str = "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate";
/// de.po's msgstr for the id; only the message is translated.
const GERMAN: &str = "Invalid argument: sample_freq liegt über kernel.perf_event_max_sample_rate";

/// Marks the child run; unset, `child_prints_line` does nothing.
const CHILD_ENV: &str = "EXTERR_RUST_I18N_CHILD";

#[test]
fn child_prints_line() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    // SAFETY: the child runs this one test, so no other thread is using
    // the locale; the argument is a NUL-terminated string.
    let name = unsafe { libc::setlocale(libc::LC_ALL, c"".as_ptr()) };
    assert!(
        !name.is_null(),
        "setlocale(LC_ALL, \"\"): the environment's locale is missing"
    );
    let e = ExtError::parse(V2).unwrap();
    // Between markers: the harness prints lines of its own.
    println!("<<{e}>>");
}

/// The line the child prints under LANGUAGE=de and the given LC_ALL
/// (glibc honours LANGUAGE in every locale but C).
fn line_under(lc_all: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_prints_line",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .env("LANGUAGE", "de")
        .env("LC_ALL", lc_all)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "child under LC_ALL={lc_all} failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start = text.find("<<").expect("the child printed no line") + 2;
    let len = text[start..].find(">>").expect("the child's line is cut");
    text[start..start + len].to_owned()
}

#[test]
fn display_is_translated_under_the_process_locale() {
    // Exactly the German line: a catalogue the library cannot find (not
    // under the locale directory it was configured with) fails here.
    assert_eq!(
        line_under("C.UTF-8"),
        format!("{GERMAN}{TAIL}"),
        "is exterr-kernel.mo installed where libexterr was configured to look?"
    );
    // The C locale never translates.
    assert_eq!(line_under("C"), format!("{ENGLISH}{TAIL}"));
}

#[test]
fn display_is_english_without_setlocale() {
    // This process never called setlocale: it is in the C locale whatever
    // its environment says, so programs must call it to get translations.
    let e = ExtError::parse(V2).unwrap();
    assert_eq!(e.to_string(), format!("{ENGLISH}{TAIL}"));
}
