//! Size and concurrency bounds on what an MCP server can make the client hold
//! (docs/security.md, "Hostile peers: bounds"): one `application/json` response body, one
//! server-sent event (its data plus the line being read), and the answers to server->client
//! requests (`ping`) seen inside streams. Over a size bound the exchange fails with
//! `ERR_MCP_PROTOCOL` and the stream is dropped; server requests beyond the concurrency bound
//! are not answered (a server must not make the client open sockets without bound).

/// Default bound on one response body: 64 MiB (adt-ls's largest tool results are a few MB).
pub(crate) const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024 * 1024;
/// Default bound on one SSE event: 16 MiB.
pub(crate) const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;
/// Default number of server-request answers in flight at once; further ones are dropped.
pub(crate) const DEFAULT_MAX_CONCURRENT_REPLIES: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct McpLimits {
    /// Bound on one `application/json` response body, in bytes.
    pub max_body_bytes: usize,
    /// Bound on one server-sent event (data collected so far plus the current line).
    pub max_event_bytes: usize,
    /// Answers to server->client requests in flight at once.
    pub max_concurrent_replies: usize,
}

impl Default for McpLimits {
    fn default() -> Self {
        McpLimits {
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
            max_concurrent_replies: DEFAULT_MAX_CONCURRENT_REPLIES,
        }
    }
}
