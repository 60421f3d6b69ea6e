//! `McpClient`, the public face of the MCP Streamable HTTP client (the reference's
//! `AdtLsMcpClient`, docs/wire.md#mcp-streamable-http): construction, connect, tools, generic requests, close and
//! shutdown. Every call runs under shutdown cancellation; the protocol work is in `session`.

use super::http::{ResolveOverrides, Transport};
use super::limits::McpLimits;
use super::session::Session;
use super::tools;
use crate::kernel::error::Result;
use crate::kernel::redact;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// The default per-call timeout (the reference's 120 s).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// `clientInfo` sent in `initialize` (the same identity as on the LSP side).
pub(crate) use crate::kernel::identity::ClientInfo;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct McpClientOptions {
    /// Default timeout of each call, covering the whole HTTP exchange (SSE included).
    pub timeout: Duration,
    /// Size and concurrency bounds on what the server sends.
    pub limits: McpLimits,
}

impl Default for McpClientOptions {
    fn default() -> Self {
        McpClientOptions {
            timeout: DEFAULT_TIMEOUT,
            limits: McpLimits::default(),
        }
    }
}

/// MCP client for adt-ls's MCP endpoint. Cheap to clone; clones share one session.
#[derive(Clone)]
pub(crate) struct McpClient {
    session: Arc<Session>,
}

impl McpClient {
    /// A client for `base_url` (e.g. `http://localhost:2240/mcp`) with bearer `token`.
    /// Nothing is sent until the first call. The token is registered for redaction.
    pub(crate) fn new(
        base_url: &str,
        token: &str,
        info: ClientInfo,
        opts: McpClientOptions,
    ) -> Result<Self> {
        Self::build(base_url, token, info, opts, Vec::new())
    }

    /// [`McpClient::new`] recording every message to `trace` (docs/tracing.md).
    pub(crate) fn new_traced(
        base_url: &str,
        token: &str,
        info: ClientInfo,
        opts: McpClientOptions,
        trace: Option<Arc<crate::trace::Tracer>>,
    ) -> Result<Self> {
        redact::register(token);
        let transport =
            Transport::new(base_url, token, opts.timeout, opts.limits, Vec::new())?.traced(trace);
        Ok(McpClient {
            session: Arc::new(Session::new(transport, info, opts.timeout)),
        })
    }

    pub(crate) fn build(
        base_url: &str,
        token: &str,
        info: ClientInfo,
        opts: McpClientOptions,
        resolve: ResolveOverrides,
    ) -> Result<Self> {
        redact::register(token);
        let transport = Transport::new(base_url, token, opts.timeout, opts.limits, resolve)?;
        Ok(McpClient {
            session: Arc::new(Session::new(transport, info, opts.timeout)),
        })
    }

    /// `initialize` + `notifications/initialized`; idempotent, concurrent callers share one
    /// attempt; a failed attempt closes (DELETEs an allocated session) and is reported.
    pub(crate) async fn connect(&self) -> Result<()> {
        self.session.guarded(self.session.connect()).await
    }

    /// Every tool descriptor (all pages), verbatim.
    pub(crate) async fn list_tools(&self) -> Result<Vec<Value>> {
        self.session.guarded(tools::list_tools(&self.session)).await
    }

    /// `tools/call`; the result is returned untouched (`isError` is not an error here).
    /// Inside a progress scope ([`crate::kernel::progress`]) it asks for progress (`_meta.progressToken`).
    /// `timeout` overrides the default for this call.
    pub(crate) async fn call_tool(
        &self,
        name: &str,
        args: Value,
        timeout: Option<Duration>,
    ) -> Result<Value> {
        let mut params = tools::call_params(name, args);
        if let Some(sink) = crate::kernel::progress::current() {
            params["_meta"] = serde_json::json!({ "progressToken": sink.issue_token() });
        }
        self.request("tools/call", Some(params), timeout).await
    }

    /// Any request on the session (connecting first); returns the `result` object.
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Option<Duration>,
    ) -> Result<Value> {
        let timeout = timeout.unwrap_or(self.session.timeout);
        let work = async {
            self.session.connect().await?;
            self.session
                .call(method, params.as_ref(), timeout)
                .await
                .map_err(|e| e.into_error())
        };
        self.session.guarded(work).await
    }

    /// Forget the session and DELETE it if there was one (2xx, 404 and 405 are fine). Works
    /// after `shutdown()` too, so disposal can still release the server-side session.
    pub(crate) async fn close(&self) -> Result<()> {
        self.session.close().await
    }

    /// Reject every in-flight call now, and every later one, with `adt-ls MCP client closed`
    /// (code `ERR_DISPOSED`).
    pub(crate) fn shutdown(&self) {
        self.session.shutdown();
    }

    /// The session id from `initialize`, when the server allocated one.
    pub(crate) fn session_id(&self) -> Option<String> {
        self.session.session_id()
    }

    /// The negotiated protocol version, once connected.
    pub(crate) fn protocol_version(&self) -> Option<String> {
        self.session.protocol_version()
    }
}
