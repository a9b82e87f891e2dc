// SPDX-License-Identifier: LGPL-2.1-or-later
//! The object of docs/contract.md section 5, rebuilt from the public API
//! only: shared by tests/conformance.rs and examples/describe.rs (the
//! describe tool conformance/run compares with the other implementations),
//! each of which includes this file with `#[path] mod canonical;`.

use exterr::ExtError;
use serde_json::{json, Value};

/// The canonical object for `input`, parsed with `ExtError::parse`.
pub fn canonical(input: &[u8]) -> Value {
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
            "id": err.id(),
            "severity": err.severity().name(),
            // Decimal strings, so that no JSON reader rounds 2^64 - 1.
            "values": err.values().iter().map(|v| json!({
                "name": v.name(),
                "value": v.to_string(),
            })).collect::<Vec<_>>(),
            "format": err.to_string(),
        }),
        // Where, as the binding reports it (null: no place); the reason's
        // English words are not compared, only that there is one.
        Err(e) => json!({
            "result": "reject",
            "class": e.class().name(),
            "position": e.offset(),
            "line": e.line_column().map(|(line, _)| line),
            "column": e.line_column().map(|(_, column)| column),
            "has-reason": !e.reason().is_empty(),
        }),
    }
}
