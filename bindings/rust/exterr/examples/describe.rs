//! describe FILE...: the conformance suite's canonical object through this
//! binding.
//!
//! For each FILE, its bytes go to `ExtError::parse` as they are and the
//! object of docs/contract.md section 5 is printed as one line of JSON, in
//! order: the same command line and output as conformance/c/describe.c,
//! which conformance/run compares it with. Only the public API is used (the
//! canonicalisation of tests/conformance.rs).
//!
//! Exit status 0 when a result (ok or reject) was printed for every FILE,
//! 1 otherwise: a FILE that cannot be read gets the line
//! `{"describe-error": "..."}` and a message on stderr.

use std::io::{self, Write};
use std::process::ExitCode;

use exterr::ExtError;
use serde_json::{json, Value};

fn canonical(input: &[u8]) -> Value {
    match ExtError::parse(input) {
        Ok(err) => json!({
            "result": "ok",
            "error": err.errno(),
            "module": err.module(),
            "message": err.message(),
            "file": err.file(),
            "line": err.line(),
            "syscall": err.syscall().unwrap_or(-1),
            "fields": err.fields().iter().map(|f| json!({
                "name": f.name(),
                "type": f.kind().name(),
                "value": f.value(),
            })).collect::<Vec<_>>(),
            "format": err.to_string(),
        }),
        Err(e) => json!({"result": "reject", "class": e.class().name()}),
    }
}

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
