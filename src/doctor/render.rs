//! The human-readable rendering of a [`Report`]: one line per check, the fix under each
//! failure or warning, the candidate list, and a closing verdict.

use super::report::{Report, Status};
use serde_json::Value;
use std::fmt::Write;

/// The report as text.
pub(crate) fn text(report: &Report) -> String {
    let mut out = String::from("adt-ls-native doctor\n\n");
    for check in &report.checks {
        let tag = match check.status {
            Status::Ok => "[ok]  ",
            Status::Warn => "[warn]",
            Status::Fail => "[FAIL]",
            Status::Skip => "[skip]",
        };
        let message = check.message.replace('\n', &format!("\n{:26}", ""));
        let _ = writeln!(out, "{tag} {:<18} {message}", check.id);
        if let Some(fix) = &check.fix {
            let _ = writeln!(out, "       {:<18} fix: {fix}", "");
        }
        if check.id == "adt-ls.discovery" {
            candidates(&mut out, &report.discovery);
        }
        if check.id == "tls" {
            chain(&mut out, &report.connection);
        }
    }
    let verdict = if report.ok {
        "Everything checked would work."
    } else {
        "Something would fail: see the [FAIL] lines and their fixes."
    };
    let _ = writeln!(out, "\n{verdict}");
    out
}

fn candidates(out: &mut String, discovery: &Value) {
    let Some(list) = discovery["candidates"].as_array() else {
        return;
    };
    for c in list {
        let reasons: Vec<&str> = c["reasons"]
            .as_array()
            .map(|r| r.iter().filter_map(|r| r["message"].as_str()).collect())
            .unwrap_or_default();
        let version = c["version"].as_str().unwrap_or("-");
        let _ = writeln!(
            out,
            "         {:<10} {:<13} {:<8} {}{}",
            c["status"].as_str().unwrap_or_default(),
            c["source"].as_str().unwrap_or_default(),
            version,
            c["path"].as_str().unwrap_or_default(),
            if reasons.is_empty() {
                String::new()
            } else {
                format!(" ({})", reasons.join("; "))
            }
        );
    }
}

fn chain(out: &mut String, connection: &Value) {
    let Some(list) = connection["tls"]["chain"].as_array() else {
        return;
    };
    for (i, c) in list.iter().enumerate() {
        let _ = writeln!(
            out,
            "         #{i} subject {} | issuer {} | {} .. {} | {}",
            c["subject"].as_str().unwrap_or("?"),
            c["issuer"].as_str().unwrap_or("?"),
            c["notBefore"].as_str().unwrap_or("?"),
            c["notAfter"].as_str().unwrap_or("?"),
            c["subjectAltNames"]
                .as_array()
                .map(|s| s
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        );
    }
}
