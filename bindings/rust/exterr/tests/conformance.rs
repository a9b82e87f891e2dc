// SPDX-License-Identifier: LGPL-2.1-or-later
//! The conformance suite (docs/contract.md section 5) through this
//! binding: each case folder's `input` is parsed with ExtError::parse and
//! the canonical object is rebuilt from the public API only.
//!
//! Two sets run: the repository's `conformance/cases/` (found relative to
//! CARGO_MANIFEST_DIR at run time, so cases added later need no rebuild)
//! and this crate's own `tests/cases/`, which keeps the harness itself
//! tested while the shared suite is young. EXTERR_CONFORMANCE_REQUIRED=1
//! makes a missing or empty shared suite a failure.
//! EXTERR_CONFORMANCE_SKIP=name,name leaves out cases by folder name (for
//! cases that libexterr itself fails too, while that gets sorted out).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "common/canonical.rs"]
mod canonical;
use canonical::canonical;

/// Case folders under `root`, sorted; empty when `root` does not exist.
fn cases(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    let skip = std::env::var("EXTERR_CONFORMANCE_SKIP").unwrap_or_default();
    let skipped = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| skip.split(',').any(|s| s == n))
    };
    let mut dirs: Vec<PathBuf> = entries
        .map(|e| e.expect("reading the cases folder").path())
        .filter(|p| p.join("expected.json").is_file() && !skipped(p))
        .collect();
    dirs.sort();
    dirs
}

/// The top-level keys that differ, each value cut short: some inputs are
/// tens of kilobytes.
fn differences(expected: &Value, got: &Value) -> String {
    let cut = |v: Option<&Value>| {
        let s = v.map_or("(missing)".to_string(), Value::to_string);
        if s.len() > 200 {
            format!(
                "{}... ({} bytes)",
                s.chars().take(200).collect::<String>(),
                s.len()
            )
        } else {
            s
        }
    };
    let (Some(e), Some(g)) = (expected.as_object(), got.as_object()) else {
        return format!(
            "  expected {}\n  got      {}",
            cut(Some(expected)),
            cut(Some(got))
        );
    };
    let mut keys: Vec<&String> = e.keys().chain(g.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| e.get(*k) != g.get(*k))
        .map(|k| {
            format!(
                "  {k}: expected {}\n  {k}: got      {}",
                cut(e.get(k)),
                cut(g.get(k))
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs every case and reports all failures at once, not the first.
fn run(root: &Path) -> usize {
    let dirs = cases(root);
    let mut failures = Vec::new();
    for dir in &dirs {
        let input =
            fs::read(dir.join("input")).unwrap_or_else(|e| panic!("{}: input: {e}", dir.display()));
        let text = fs::read_to_string(dir.join("expected.json")).unwrap();
        let expected: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: expected.json: {e}", dir.display()));
        let got = canonical(&input);
        if got != expected {
            failures.push(format!(
                "{}:\n{}",
                dir.display(),
                differences(&expected, &got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
    dirs.len()
}

#[test]
fn shared_conformance_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../conformance/cases");
    let n = run(&root);
    eprintln!("{n} shared conformance cases passed ({})", root.display());
    if n == 0 && std::env::var_os("EXTERR_CONFORMANCE_REQUIRED").is_some_and(|v| v == "1") {
        panic!("no conformance cases in {}", root.display());
    }
}

#[test]
fn crate_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    assert!(run(&root) > 0, "no cases in {}", root.display());
}
