//! Error classification by message text (docs/wire.md#error-classification), case-insensitive:
//! "logged off" (re-logon may help), "transient cold" (retry later), "write session" (the
//! stateful session died under a write). Transport errors of the MCP channel carry their own
//! code and never count as logged off (docs/decisions.md#d5-1, docs/wire.md#error-classification).

use crate::kernel::error::{codes, Error};
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

const LOGGED_OFF: &str = r#"(?i)logged.?off|not logged on|logon (?:failed|required|denied|expired)|session\b[\w\s'"-]{0,24}?\b(?:expired|terminated|timed[- ]?out|invalid|no longer valid)\b|http[\s/]?401|401 unauthorized"#;
const WRITE_SESSION: &str = r#"(?i)\b(?:500|423)\b|internal (?:server )?error|invalid lock|lock handle|stateful session|context[\s-]?id|session\b[\w\s'"-]{0,20}?\b(?:expired|terminated|timed[\s-]?out|no longer valid)"#;

/// Compile once; the patterns are constants covered by the tests, so `None` never happens
/// in practice (and would only make the predicate answer "no").
fn compiled(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

fn matches(cell: &'static OnceLock<Option<Regex>>, pattern: &str, text: &str) -> bool {
    compiled(cell, pattern).is_some_and(|re| re.is_match(text))
}

static LOGGED_OFF_RE: OnceLock<Option<Regex>> = OnceLock::new();
static WRITE_SESSION_RE: OnceLock<Option<Regex>> = OnceLock::new();

/// The reference's `isLoggedOffMessage`.
pub(crate) fn is_logged_off_message(text: &str) -> bool {
    matches(&LOGGED_OFF_RE, LOGGED_OFF, text)
}

/// A thrown error that means "logged off" (never an MCP transport error).
pub(crate) fn is_logged_off_error(e: &Error) -> bool {
    !e.has_code(codes::MCP_TRANSPORT)
        && !e.has_code(codes::TIMEOUT)
        && is_logged_off_message(&e.message)
}

/// `isError` and the joined `content[].text` reads "logged off".
pub(crate) fn is_logged_off_federated_result(res: &Value) -> bool {
    if !res.get("isError").and_then(Value::as_bool).unwrap_or(false) {
        return false;
    }
    is_logged_off_message(&federated_text(res))
}

/// The `content[].text` values joined with a space.
pub(crate) fn federated_text(res: &Value) -> String {
    res.get("content")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|c| c.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// The reference's `isTransientColdError`.
pub(crate) fn is_transient_cold_error(message: &str) -> bool {
    let m = message.to_lowercase();
    m.contains("internal error") || m.contains("temporarily") || m.contains("try again")
}

/// The reference's `isWriteSessionError`.
pub(crate) fn is_write_session_error(text: &str) -> bool {
    matches(&WRITE_SESSION_RE, WRITE_SESSION, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_patterns_compile() {
        assert!(compiled(&LOGGED_OFF_RE, LOGGED_OFF).is_some());
        assert!(compiled(&WRITE_SESSION_RE, WRITE_SESSION).is_some());
    }

    #[test]
    fn logged_off_variants_and_normal_errors() {
        for m in [
            "Your user was logged off",
            "user was logged-off",
            "User is not logged on",
            "Logon failed",
            "logon required",
            "Logon denied by the system",
            "logon expired",
            "Session expired",
            "The session has been terminated",
            "session timed out",
            "session 'abc' is no longer valid",
            "HTTP 401",
            "http/401",
            "401 Unauthorized",
            "adt-ls MCP tools/call failed: HTTP 401",
        ] {
            assert!(is_logged_off_message(m), "{m}");
        }
        for m in [
            "Internal error.",
            "Object not found",
            "not authorized",
            "HTTP 403",
            "logon pending",
        ] {
            assert!(!is_logged_off_message(m), "{m}");
        }
    }

    #[test]
    fn mcp_transport_errors_never_count_as_logged_off() {
        let e = Error::coded(
            codes::MCP_TRANSPORT,
            "adt-ls MCP tools/call failed: HTTP 401",
        );
        assert!(!is_logged_off_error(&e));
        let e = Error::coded(codes::MCP_TRANSPORT, "adt-ls MCP tools/call: session expired (HTTP 404); reconnected, request was not retried");
        assert!(!is_logged_off_error(&e));
        assert!(is_logged_off_error(&Error::rpc(
            -32603,
            "Your user was logged off",
            None
        )));
    }

    #[test]
    fn federated_logged_off_needs_is_error() {
        let off = json!({"isError": true, "content": [{"type": "text", "text": "user was"}, {"text": "logged off"}]});
        assert!(is_logged_off_federated_result(&off));
        assert!(!is_logged_off_federated_result(
            &json!({"content": [{"text": "user was logged off"}]})
        ));
        assert!(!is_logged_off_federated_result(
            &json!({"isError": true, "content": [{"text": "not found"}]})
        ));
    }

    #[test]
    fn transient_cold_errors() {
        assert!(is_transient_cold_error("Internal error."));
        assert!(is_transient_cold_error("Please try again later"));
        assert!(is_transient_cold_error("temporarily unavailable"));
        assert!(!is_transient_cold_error("not found"));
        assert!(!is_transient_cold_error("not authorized"));
    }

    #[test]
    fn write_session_signatures_vs_deterministic_errors() {
        for m in [
            "HTTP 500",
            "423 Locked: invalid lock handle",
            "Stateful session terminated",
            "context-id mismatch",
            "Internal Server Error",
            "The session has expired",
        ] {
            assert!(is_write_session_error(m), "{m}");
        }
        for m in [
            "HTTP 400 Bad Request",
            "Syntax error in line 3",
            "Package ZX does not exist",
            "5000 items",
        ] {
            assert!(!is_write_session_error(m), "{m}");
        }
    }
}
