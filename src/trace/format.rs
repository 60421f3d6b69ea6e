//! The trace line format, version 1 (docs/tracing.md#format): a header object opens each
//! session, then one object per message with the session's id, the wall-clock time, the
//! milliseconds since the session opened, the channel, the direction seen from the client and
//! the message itself.

use serde_json::{json, Map, Value};
use std::time::Duration;

pub(crate) const FORMAT_NAME: &str = "adt-ls-native-trace";
pub(crate) const FORMAT_VERSION: u64 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Channel {
    Lsp,
    Mcp,
}

impl Channel {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Channel::Lsp => "lsp",
            Channel::Mcp => "mcp",
        }
    }
}

/// HTTP facts recorded next to an MCP message.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct HttpMeta {
    /// `POST` (the default when empty) or `DELETE`.
    pub method: Option<&'static str>,
    pub status: Option<u16>,
    pub session_id: Option<String>,
}

/// Seen from the client: `Out` is client -> adt-ls, `In` is adt-ls -> client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Direction {
    Out,
    In,
}

impl Direction {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Direction::Out => "out",
            Direction::In => "in",
        }
    }
}

pub(super) fn header_line(session: &str) -> String {
    json!({
        "type": "header",
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "session": session,
        "ts": crate::kernel::log::timestamp(),
        "engine": {"name": "adt-ls-native", "version": env!("CARGO_PKG_VERSION")},
        "pid": std::process::id(),
    })
    .to_string()
}

pub(super) struct Entry<'a> {
    pub session: &'a str,
    pub elapsed: Duration,
    pub ch: Channel,
    pub dir: Direction,
    /// The method of a request or notification, or of the request a response answers.
    pub method: Option<&'a str>,
    pub msg: Option<&'a Value>,
    pub http: Option<&'a HttpMeta>,
}

pub(super) fn message_line(entry: &Entry) -> String {
    let mut line = Map::new();
    line.insert("type".into(), json!("message"));
    line.insert("session".into(), json!(entry.session));
    line.insert("ts".into(), json!(crate::kernel::log::timestamp()));
    line.insert(
        "ms".into(),
        json!(entry.elapsed.as_micros() as f64 / 1000.0),
    );
    line.insert("ch".into(), json!(entry.ch.as_str()));
    line.insert("dir".into(), json!(entry.dir.as_str()));
    if let Some(method) = entry.method {
        line.insert("method".into(), json!(method));
    }
    if let Some(http) = entry.http {
        let mut h = Map::new();
        h.insert("method".into(), json!(http.method.unwrap_or("POST")));
        if let Some(status) = http.status {
            h.insert("status".into(), json!(status));
        }
        if let Some(id) = &http.session_id {
            h.insert("sessionId".into(), json!(id));
        }
        line.insert("http".into(), Value::Object(h));
    }
    if let Some(msg) = entry.msg {
        line.insert("msg".into(), msg.clone());
    }
    Value::Object(line).to_string()
}
