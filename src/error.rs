//! The engine's one error type: a message (kept byte-for-byte as the reference words it),
//! an optional `code` (numeric for JSON-RPC errors, a string such as `ENOENT` or
//! `ADT_TOOL_ERROR` otherwise) and optional JSON-RPC `data`. The N-API layer turns it into a
//! JS `Error` carrying the same three fields; nothing here knows about N-API.

use serde_json::Value;
use std::fmt;

/// The `code` carried by an [`Error`]: JSON-RPC errors keep their numeric code, everything
/// else uses a short upper-case string.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorCode {
    Num(i64),
    Str(String),
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorCode::Num(n) => write!(f, "{n}"),
            ErrorCode::Str(s) => f.write_str(s),
        }
    }
}

/// An engine error. `Display` prints the message only.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    pub message: String,
    pub code: Option<ErrorCode>,
    pub data: Option<Value>,
}

pub type Result<T> = std::result::Result<T, Error>;

/// Well-known string codes.
pub mod codes {
    /// An MCP-backed convenience method saw `isError: true` (decisions D5.12).
    pub const TOOL_ERROR: &str = "ADT_TOOL_ERROR";
    /// A bounded wait ran out.
    pub const TIMEOUT: &str = "ETIMEDOUT";
    /// The driver or client was disposed while the call was pending.
    pub const DISPOSED: &str = "ERR_DISPOSED";
    /// adt-ls exited or the pipe closed while the call was pending.
    pub const CONNECTION_CLOSED: &str = "ERR_ADT_LS_EXITED";
    /// An MCP transport (HTTP) failure: never treated as "logged off".
    pub const MCP_TRANSPORT: &str = "ERR_MCP_TRANSPORT";
    /// An MCP protocol violation (bad JSON, mismatched id, unsupported version, ...).
    pub const MCP_PROTOCOL: &str = "ERR_MCP_PROTOCOL";
    /// Invalid arguments supplied by the caller.
    pub const INVALID_ARG: &str = "ERR_INVALID_ARG";
    /// An option or argument of the right type with an unacceptable value (Node's name).
    pub const INVALID_ARG_VALUE: &str = "ERR_INVALID_ARG_VALUE";
    /// An option or argument of the wrong type (Node's name).
    pub const INVALID_ARG_TYPE: &str = "ERR_INVALID_ARG_TYPE";
    /// A number outside its accepted range (Node's name).
    pub const OUT_OF_RANGE: &str = "ERR_OUT_OF_RANGE";
    /// adt-ls broke the LSP base protocol (framing); the connection was ended.
    pub const LSP_PROTOCOL: &str = "ERR_LSP_PROTOCOL";
    /// adt-ls asked for credentials to be sent somewhere other than the destination's own
    /// origin (or without TLS); nothing was sent.
    pub const CREDENTIALS_ORIGIN: &str = "ERR_CREDENTIALS_ORIGIN";
}

impl Error {
    /// An error with a message and no code.
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            code: None,
            data: None,
        }
    }

    /// An error with a string code.
    pub fn coded(code: &str, message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            code: Some(ErrorCode::Str(code.to_string())),
            data: None,
        }
    }

    /// A JSON-RPC error as received on the wire.
    pub fn rpc(code: i64, message: impl Into<String>, data: Option<Value>) -> Self {
        Error {
            message: message.into(),
            code: Some(ErrorCode::Num(code)),
            data,
        }
    }

    /// Builder: attach `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// Builder: put `prefix` in front of the message (for example the operation and path).
    pub fn prefixed(mut self, prefix: &str) -> Self {
        self.message = format!("{prefix}{}", self.message);
        self
    }

    /// True when the error has the given string code.
    pub fn has_code(&self, code: &str) -> bool {
        matches!(&self.code, Some(ErrorCode::Str(c)) if c == code)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        let code = io_error_code(&e);
        Error {
            message: e.to_string(),
            code: code.map(|c| ErrorCode::Str(c.to_string())),
            data: None,
        }
    }
}

/// Node-style errno name for an I/O error, where one is obvious.
pub fn io_error_code(e: &std::io::Error) -> Option<&'static str> {
    use std::io::ErrorKind::*;
    Some(match e.kind() {
        NotFound => "ENOENT",
        PermissionDenied => "EACCES",
        AddrInUse => "EADDRINUSE",
        ConnectionRefused => "ECONNREFUSED",
        ConnectionReset => "ECONNRESET",
        TimedOut => "ETIMEDOUT",
        AlreadyExists => "EEXIST",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_the_message_only() {
        let e = Error::rpc(-32603, "Internal error.", Some(serde_json::json!({"x": 1})));
        assert_eq!(e.to_string(), "Internal error.");
        assert_eq!(e.code, Some(ErrorCode::Num(-32603)));
    }

    #[test]
    fn io_errors_keep_errno_names() {
        let e: Error = std::io::Error::from(std::io::ErrorKind::NotFound).into();
        assert!(e.has_code("ENOENT"));
    }
}
