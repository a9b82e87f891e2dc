// SPDX-License-Identifier: LGPL-2.1-or-later
//! describe FILE...: the conformance suite's canonical object through this
//! binding.
//!
//! For each FILE, its bytes go to `ExtError::parse` as they are and the
//! object of docs/contract.md section 5 is printed as one line of JSON, in
//! order: the same command line and output as conformance/c/describe.c,
//! which conformance/run compares it with. Only the public API is used:
//! the canonicalisation is tests/common/canonical.rs, which
//! tests/conformance.rs uses too.
//!
//! Exit status 0 when a result (ok or reject) was printed for every FILE,
//! 1 otherwise: a FILE that cannot be read gets the line
//! `{"describe-error": "..."}` and a message on stderr.

use std::io::{self, Write};
use std::process::ExitCode;

use serde_json::json;

#[path = "../tests/common/canonical.rs"]
mod canonical;
use canonical::canonical;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: describe FILE...");
        return ExitCode::FAILURE;
    }
    let mut status = ExitCode::SUCCESS;
    let mut out = io::BufWriter::new(io::stdout().lock());
    for path in &paths {
        let obj = match std::fs::read(path) {
            Ok(input) => canonical(&input),
            Err(e) => {
                eprintln!("describe: {path}: {e}");
                status = ExitCode::FAILURE;
                json!({"describe-error": e.to_string()})
            }
        };
        if writeln!(out, "{obj}").is_err() {
            eprintln!("describe: cannot write the result");
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        eprintln!("describe: cannot write the result");
        return ExitCode::FAILURE;
    }
    status
}
