//! The doctor's report: the serializable shape `--json` prints (documented in
//! `docs/doctor.md`, `schemaVersion` 1) and the list of checks that decides the exit status.

use serde::Serialize;
use serde_json::Value;

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Status {
    /// Works.
    Ok,
    /// Worth knowing; does not stop anything.
    Warn,
    /// Would fail; the check carries the fix.
    Fail,
    /// Not run (an earlier step failed, or it does not apply).
    Skip,
}

/// One check: a stable `id`, its status, what was found and, when it fails, the fix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Check {
    pub id: &'static str,
    pub status: Status,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    pub(crate) fn ok(id: &'static str, message: impl Into<String>) -> Check {
        Check::new(id, Status::Ok, message, None)
    }
    pub(crate) fn warn(
        id: &'static str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check::new(id, Status::Warn, message, Some(fix.into()))
    }
    pub(crate) fn fail(
        id: &'static str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check::new(id, Status::Fail, message, Some(fix.into()))
    }
    pub(crate) fn skip(id: &'static str, message: impl Into<String>) -> Check {
        Check::new(id, Status::Skip, message, None)
    }
    fn new(
        id: &'static str,
        status: Status,
        message: impl Into<String>,
        fix: Option<String>,
    ) -> Check {
        Check {
            id,
            status,
            message: message.into(),
            fix,
        }
    }
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report {
    pub schema_version: u32,
    /// True when no check failed (the exit status is then 0).
    pub ok: bool,
    pub runtime: Value,
    pub discovery: Value,
    /// The winner's bundled JRE, `null` without a winner.
    pub jre: Value,
    /// The winner's shared libraries (Linux), `null` when not checked.
    pub libraries: Value,
    /// The temp and data directories: writable, free space.
    pub directories: Value,
    /// The `--url` probe, `null` without `--url`.
    pub connection: Value,
    pub checks: Vec<Check>,
}

impl Report {
    /// Pass every string of the report through the engine's redaction (URL userinfo such
    /// as `--url https://user:password@host`, registered secrets), for both the text and
    /// the JSON output.
    pub(crate) fn redact(&mut self) {
        for section in [
            &mut self.runtime,
            &mut self.discovery,
            &mut self.jre,
            &mut self.libraries,
            &mut self.directories,
            &mut self.connection,
        ] {
            redact_value(section);
        }
        for check in &mut self.checks {
            check.message = crate::kernel::redact::redact(&check.message);
            if let Some(fix) = &mut check.fix {
                *fix = crate::kernel::redact::redact(fix);
            }
        }
    }

    /// Exit status: 0 when nothing fails, 1 otherwise.
    pub(crate) fn exit_code(&self) -> i32 {
        if self.ok {
            0
        } else {
            1
        }
    }
}

fn redact_value(value: &mut Value) {
    match value {
        Value::String(s) => *s = crate::kernel::redact::redact(s),
        Value::Array(items) => items.iter_mut().for_each(redact_value),
        Value::Object(map) => map.values_mut().for_each(redact_value),
        _ => {}
    }
}

/// True when no check failed.
pub(crate) fn all_ok(checks: &[Check]) -> bool {
    checks.iter().all(|c| c.status != Status::Fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_keeps_ok_a_failure_does_not() {
        let mut checks = vec![Check::ok("a", "fine"), Check::warn("b", "hm", "do x")];
        assert!(all_ok(&checks));
        checks.push(Check::fail("c", "broken", "do y"));
        assert!(!all_ok(&checks));
        let mut report = Report {
            schema_version: 1,
            ok: false,
            runtime: Value::Null,
            discovery: serde_json::json!({"candidates": [{"path": "/x"}]}),
            jre: Value::Null,
            libraries: Value::Null,
            directories: Value::Null,
            connection: serde_json::json!({"url": "https://DEV:pw-123@h:1/sap", "n": 1}),
            checks: vec![Check::warn(
                "tls",
                "http://u:secret-9@h is plain HTTP",
                "see https://a:b@c",
            )],
        };
        report.redact();
        let text = serde_json::to_string(&report).unwrap();
        assert!(!text.contains("pw-123") && !text.contains("secret-9") && !text.contains("a:b"));
        assert_eq!(report.connection["url"], "https://***@h:1/sap");
        assert_eq!(report.connection["n"], 1);
        let json = serde_json::to_value(&checks[0]).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": "a", "status": "ok", "message": "fine"})
        );
        assert_eq!(serde_json::to_value(&checks[2]).unwrap()["fix"], "do y");
    }
}
