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
    /// Boxed, like `extra`, so `Result<T, Error>` stays small (clippy's `result_large_err`).
    pub data: Option<Box<Value>>,
    /// `cause` and details; boxed so `Result<T, Error>` stays small.
    pub extra: Option<Box<Extra>>,
}

/// The rarer parts of an [`Error`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extra {
    /// The lower-level failure behind this one, as text (becomes JS `cause`).
    pub cause: Option<String>,
    /// Structured details a program can act on (`httpStatus`, `method`, `tool`,
    /// `destination`), copied onto the JS error as properties.
    pub details: Vec<(&'static str, Value)>,
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

/// Well-known string codes.
pub mod codes {
    /// An MCP-backed convenience method saw `isError: true` (docs/decisions.md#d5-12).
    pub const TOOL_ERROR: &str = "ADT_TOOL_ERROR";
    /// A bounded wait ran out.
    pub const TIMEOUT: &str = "ETIMEDOUT";
    /// The caller's `AbortSignal` aborted the call (Node's own code for `AbortError`).
    pub const ABORTED: &str = "ABORT_ERR";
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
    /// adt-ls does not read what is sent to it: the queue of unwritten messages is full, and
    /// the request or notification was not sent.
    pub const NOT_READING: &str = "ERR_ADT_LS_NOT_READING";
    /// A message from adt-ls (LSP or MCP) nests deeper than the limit; it was refused.
    pub const JSON_TOO_DEEP: &str = "ERR_JSON_TOO_DEEP";
    /// adt-ls asked for credentials to be sent somewhere other than the destination's own
    /// origin (or without TLS); nothing was sent.
    pub const CREDENTIALS_ORIGIN: &str = "ERR_CREDENTIALS_ORIGIN";
    /// A client call that needs a logged-on ABAP destination, made without one.
    pub const NOT_CONNECTED: &str = "ERR_NOT_CONNECTED";
    /// A driver request or notification before `start()` (or after `dispose()`).
    pub const NOT_STARTED: &str = "ERR_NOT_STARTED";
    /// Discovery found no adt-ls binary.
    pub const ADT_LS_NOT_FOUND: &str = "ERR_ADT_LS_NOT_FOUND";
    /// An ABAP object named by the caller does not exist on the system.
    pub const NOT_FOUND: &str = "ERR_NOT_FOUND";
    /// The SAP system refused the logon (wrong user/password, forbidden, ticket refused).
    pub const LOGON_FAILED: &str = "ERR_LOGON_FAILED";
    /// The logon did not complete (no answer, unreachable system, cancelled prompt...).
    pub const LOGON_ERROR: &str = "ERR_LOGON_ERROR";
    /// A TLS handshake failed: the system's certificate is not trusted.
    pub const TLS_CERT: &str = "ERR_TLS_CERT_UNTRUSTED";
    /// A function the caller passed in (a driver's `sendRequest`, a `start` callback) threw
    /// or rejected; its message is kept.
    pub const CALLBACK: &str = "ERR_CALLBACK_FAILED";
    /// adt-ls answered a request with something the method cannot use (no URI from
    /// `getLsUri`, no version from `abapStat`, no listing from `readDirectory`).
    pub const UNEXPECTED_ANSWER: &str = "ERR_UNEXPECTED_ANSWER";
    /// `source.read({ version: 'active' })`: adt-ls did not switch the file to its active
    /// version (e.g. the object has never been activated).
    pub const VERSION_NOT_SWITCHED: &str = "ERR_VERSION_NOT_SWITCHED";
    /// `source.read({ version: 'active' })`: the served version changed during the read (a raw
    /// call wrote or toggled the object meanwhile); retrying can succeed.
    pub const VERSION_CHANGED: &str = "ERR_VERSION_CHANGED";
    /// A failure with no more specific code (the message says what happened).
    pub const UNCATEGORIZED: &str = "ERR_ADT_LS";
    /// Any other TLS failure (bad CA file, protocol error...).
    pub const TLS: &str = "ERR_TLS";
    /// The CTS lock check of an object failed or said nothing usable, so an assignment could
    /// not be confirmed (`Could not verify the CTS lock for <name>.`).
    pub const CTS_LOCK_UNVERIFIED: &str = "ERR_CTS_LOCK_UNVERIFIED";
    /// A service binding's details lack what an operation needs (its OData version, any
    /// service).
    pub const BINDING_INCOMPLETE: &str = "ERR_BINDING_INCOMPLETE";
    /// A service binding is not published, so it has no service information yet.
    pub const NOT_PUBLISHED: &str = "ERR_NOT_PUBLISHED";
    /// A file or directory that another user could have planted or can replace was refused
    /// (a link, a FIFO, another user's, writable by others, in a shared dir without the
    /// sticky bit); `path` and `reason` say which and why.
    pub const UNSAFE_PATH: &str = "ERR_UNSAFE_PATH";
    /// Text edits that cannot be applied: a range that starts after its end, or two edits
    /// that overlap (LSP forbids both).
    pub const INVALID_TEXT_EDIT: &str = "ERR_INVALID_TEXT_EDIT";
    /// Semantic tokens whose decoding would name more legend modifiers than the cap allows
    /// (a legend longer than 32 modifiers repeats per bit).
    pub const SEMANTIC_TOKENS_TOO_LARGE: &str = "ERR_SEMANTIC_TOKENS_TOO_LARGE";
}

impl Error {
    /// An error with a message and no code.
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            code: None,
            data: None,
            extra: None,
        }
    }

    /// An error with a string code.
    pub fn coded(code: &str, message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            code: Some(ErrorCode::Str(code.to_string())),
            data: None,
            extra: None,
        }
    }

    /// A JSON-RPC error as received on the wire.
    pub fn rpc(code: i64, message: impl Into<String>, data: Option<Value>) -> Self {
        Error {
            message: message.into(),
            code: Some(ErrorCode::Num(code)),
            data: data.map(Box::new),
            extra: None,
        }
    }

    /// Builder: attach `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(Box::new(data));
        self
    }

    /// Builder: put `prefix` in front of the message (for example the operation and path).
    pub fn prefixed(mut self, prefix: &str) -> Self {
        self.message = format!("{prefix}{}", self.message);
        self
    }

    /// Builder: attach the lower-level failure's text as `cause`.
    pub fn with_cause(mut self, cause: impl Into<String>) -> Self {
        self.extra.get_or_insert_with(Box::default).cause = Some(cause.into());
        self
    }

    /// The lower-level failure's text, if any.
    pub fn cause(&self) -> Option<&str> {
        self.extra.as_ref().and_then(|x| x.cause.as_deref())
    }

    /// The structured details (empty when none).
    pub fn details(&self) -> &[(&'static str, Value)] {
        self.extra.as_ref().map_or(&[], |x| x.details.as_slice())
    }

    /// Builder: attach one structured detail (kept once per key; the last value wins).
    pub fn with_detail(mut self, key: &'static str, value: impl Into<Value>) -> Self {
        let details = &mut self.extra.get_or_insert_with(Box::default).details;
        details.retain(|(k, _)| *k != key);
        details.push((key, value.into()));
        self
    }

    /// Builder: give a code-less error a string code (an existing code is kept).
    pub fn or_code(mut self, code: &str) -> Self {
        if self.code.is_none() {
            self.code = Some(ErrorCode::Str(code.to_string()));
        }
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
            extra: None,
        }
    }
}

/// Node-style errno name for an I/O error, where one is obvious.
pub(crate) fn io_error_code(e: &std::io::Error) -> Option<&'static str> {
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
