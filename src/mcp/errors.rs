//! The MCP client's error texts and codes, in one place (docs/wire.md#mcp-streamable-http, docs/decisions.md#d5-1,
//! #d5-3, #d5-13). Transport failures carry `ERR_MCP_TRANSPORT` so the resilience layer never
//! reads them as "logged off" (docs/wire.md#error-classification); protocol violations carry `ERR_MCP_PROTOCOL`;
//! JSON-RPC errors keep the server's numeric code and `data`. Every message is redacted.

use crate::kernel::error::{codes, Error, ErrorCode};
use crate::kernel::redact::redact;
use serde_json::Value;
use std::time::Duration;

/// How many characters of an unparseable payload an error message quotes.
const PREVIEW_CHARS: usize = 80;

fn coded(code: &str, message: String) -> Error {
    Error::coded(code, redact(&message))
}

/// A transport-level failure (HTTP status, connection, stream read).
pub(super) fn transport(message: String) -> Error {
    coded(codes::MCP_TRANSPORT, message)
}

/// A protocol violation by the server.
pub(super) fn protocol(message: String) -> Error {
    coded(codes::MCP_PROTOCOL, message)
}

/// `adt-ls MCP <method> failed: HTTP <status>`.
pub(super) fn http_status(method: &str, status: u16) -> Error {
    transport(format!("adt-ls MCP {method} failed: HTTP {status}"))
}

/// The request could not be sent or its response body could not be read.
pub(super) fn send_failed(method: &str, err: &reqwest::Error) -> Error {
    transport(format!("adt-ls MCP {method} failed: {}", describe(err)))
}

/// The notification got a 2xx other than 202.
pub(super) fn not_accepted(method: &str, status: u16) -> Error {
    transport(format!(
        "adt-ls MCP {method}: expected HTTP 202, got {status}"
    ))
}

/// HTTP 404 on a session: the client re-initialised and does not replay the call (D5.1).
pub(super) fn session_expired(method: &str) -> Error {
    transport(format!(
        "adt-ls MCP {method}: session expired (HTTP 404); reconnected, request was not retried"
    ))
}

/// The per-call timeout ran out (whole exchange, SSE included).
pub(super) fn timeout(method: &str, after: Duration) -> Error {
    coded(
        codes::TIMEOUT,
        format!(
            "adt-ls MCP {method} aborted: timeout after {}ms",
            after.as_millis()
        ),
    )
}

/// `shutdown()` was called.
pub(super) fn disposed() -> Error {
    Error::coded(codes::DISPOSED, "adt-ls MCP client closed")
}

/// `close()`'s DELETE got an unexpected status.
pub(super) fn close_status(status: u16) -> Error {
    transport(format!("adt-ls MCP close failed: HTTP {status}"))
}

/// `close()`'s DELETE could not be sent.
pub(super) fn close_failed(err: &reqwest::Error) -> Error {
    transport(format!("adt-ls MCP close failed: {}", describe(err)))
}

pub(super) fn mismatched_response() -> Error {
    protocol("Invalid or mismatched MCP JSON-RPC response".to_string())
}

pub(super) fn stream_ended() -> Error {
    protocol("MCP stream ended without a matching JSON-RPC response".to_string())
}

pub(super) fn unsupported_content_type(content_type: Option<&str>) -> Error {
    let shown = content_type
        .filter(|t| !t.is_empty())
        .unwrap_or("<missing>");
    protocol(format!("Unsupported MCP response Content-Type: {shown}"))
}

/// `data` of an SSE event is not JSON (D5.13).
pub(super) fn sse_not_json(method: &str, data: &str) -> Error {
    protocol(format!(
        "adt-ls MCP {method}: SSE data is not valid JSON: {}",
        preview(data)
    ))
}

/// `what` (a response body, a server-sent event) nests too deeply to be parsed (coded
/// `ERR_JSON_TOO_DEEP`, docs/security.md).
pub(super) fn too_deep(method: &str, what: &str) -> Error {
    coded(
        codes::JSON_TOO_DEEP,
        format!(
            "adt-ls MCP {method}: {what} is nested deeper than {} levels; it was refused",
            crate::bounds::json_depth::MAX_DEPTH
        ),
    )
}

/// A server-sent event grew past its bound; the stream was dropped.
pub(super) fn event_too_large(method: &str, limit: usize) -> Error {
    protocol(format!(
        "adt-ls MCP {method}: a server-sent event exceeds {limit} bytes; the stream was dropped"
    ))
}

/// A response body grew past its bound; the response was dropped.
pub(super) fn body_too_large(method: &str, limit: usize) -> Error {
    protocol(format!(
        "adt-ls MCP {method}: the response body exceeds {limit} bytes; the response was dropped"
    ))
}

/// An `application/json` body is not JSON.
pub(super) fn body_not_json(method: &str, body: &[u8]) -> Error {
    protocol(format!(
        "adt-ls MCP {method}: response body is not valid JSON: {}",
        preview(&String::from_utf8_lossy(body))
    ))
}

pub(super) fn invalid_session_header(method: &str) -> Error {
    protocol(format!(
        "adt-ls MCP {method}: invalid Mcp-Session-Id header"
    ))
}

pub(super) fn unsupported_version(version: Option<&Value>) -> Error {
    let shown = match version {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "undefined".to_string(),
    };
    protocol(format!("Unsupported MCP protocol version: {shown}"))
}

/// `adt-ls MCP <method>: <what>` for a malformed result (missing result, tools, cursor...).
pub(super) fn invalid(method: &str, what: &str) -> Error {
    protocol(format!("adt-ls MCP {method}: {what}"))
}

/// A JSON-RPC error object: `adt-ls MCP <method> error (<code>): <message>`, keeping the
/// numeric code and `data` on the error.
pub(super) fn rpc_error(method: &str, error: &Value) -> Error {
    let code = error.get("code");
    let message = match error.get("message") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let shown_code = match code {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "undefined".to_string(),
    };
    let text = redact(&format!(
        "adt-ls MCP {method} error ({shown_code}): {message}"
    ));
    Error {
        message: text,
        code: Some(match code.and_then(Value::as_i64) {
            Some(n) => ErrorCode::Num(n),
            None => ErrorCode::Str(codes::MCP_PROTOCOL.to_string()),
        }),
        data: error.get("data").cloned().map(Box::new),
        extra: None,
    }
    .with_detail("method", method.to_string())
}

/// The first characters of a payload, for error messages.
fn preview(text: &str) -> String {
    text.chars().take(PREVIEW_CHARS).collect()
}

/// A reqwest error with its causes, e.g. `error sending request: ... Connection refused`.
fn describe(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
