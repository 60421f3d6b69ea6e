//! The MCP exports: adt-ls's MCP server lifecycle (`startMcpServer`, `stopMcpServer`,
//! `setMcpDestination`, `startMcpServerWithFallback`) and the `AdtLsMcpClient` class (the
//! Streamable HTTP client, exported for tools and conformance tests).

use super::callback::JsCallback;
use super::errors::coded;
use super::requester;
use super::timeouts::{timeout_arg, timeout_prop};
use super::values::{Json, OrUndefined};
use super::{driver::rejected, json};
use crate::error::{codes, Error as EngineError};
use crate::identity::ClientInfo;
use crate::log;
use crate::lsp::LspRequester;
use crate::mcp::lifecycle;
use crate::mcp::{McpClient, McpClientOptions};
use napi::bindgen_prelude::*;
use serde_json::{json as j, Value};
use std::sync::Arc;

fn invalid(e: napi::Error) -> EngineError {
    EngineError::coded(codes::INVALID_ARG, e.reason.clone())
}

/// Run `call` with the engine requester behind a JS driver value (ours natively, any other
/// `{sendRequest}` object through a callback); an unusable value rejects.
fn with_requester<F, Fut>(env: &Env, driver: Unknown, call: F) -> Result<AsyncBlock<Json>>
where
    F: FnOnce(Arc<dyn LspRequester>) -> Fut,
    Fut: std::future::Future<Output = crate::error::Result<Value>> + Send + 'static,
{
    match requester::from_js(env, driver) {
        Ok(lsp) => coded(env, call(lsp), |_, v| Ok(Json(Some(v)))),
        Err(e) => rejected(env, invalid(e)),
    }
}

/// Start adt-ls's own MCP server: the LSP request
/// `adtLs/mcp/startMCPServer {port, token, fileSystemMode: "VFS"}`. VFS mode is what makes adt-ls
/// 1.1.2 offer all 20 tools (create, activate, unit tests, generators and ATC need it). Use the
/// returned values: they are what the server really uses.
///
/// @param driver - a started {@link AdtLsDriver} (or any {@link LspRequester})
/// @param opts - `port` (1024–65535) and the bearer `token` MCP clients must send
/// @throws rejects with adt-ls's error, e.g. `Port must be between 1024 and 65535` or a bind failure
#[napi(
    ts_args_type = "driver: LspRequester, opts: { port: number; token: string }",
    ts_return_type = "Promise<StartMcpServerResult>"
)]
pub fn start_mcp_server(env: Env, driver: Unknown, opts: Object) -> Result<AsyncBlock<Json>> {
    let port = opts
        .get::<Unknown>("port")
        .ok()
        .flatten()
        .and_then(|p| json::from_js(&env, p).ok().flatten());
    let token = opts
        .get::<String>("token")
        .ok()
        .flatten()
        .unwrap_or_default();
    with_requester(&env, driver, move |lsp| async move {
        lifecycle::start_mcp_server(lsp.as_ref(), port.unwrap_or(Value::Null), &token).await
    })
}

/// Stop adt-ls's MCP server: `adtLs/mcp/stopMCPServer`, without params (`[null]` on the wire).
/// `createAdtLs` never calls it; disposing the driver ends the server with adt-ls.
///
/// @returns adt-ls's answer, unchanged
#[napi(
    ts_args_type = "driver: LspRequester",
    ts_return_type = "Promise<unknown>"
)]
pub fn stop_mcp_server(env: Env, driver: Unknown) -> Result<AsyncBlock<Json>> {
    with_requester(&env, driver, |lsp| async move {
        lifecycle::stop_mcp_server(lsp.as_ref()).await
    })
}

/// Bind adt-ls's MCP server to a logged-on destination: `adtLs/mcp/setDestination {destinationId}`.
/// Destination-scoped MCP tools work only after this; `createAdtLs` calls it after every logon.
///
/// @returns adt-ls's answer, unchanged
#[napi(
    ts_args_type = "driver: LspRequester, destinationId: string",
    ts_return_type = "Promise<unknown>"
)]
pub fn set_mcp_destination(
    env: Env,
    driver: Unknown,
    destination_id: String,
) -> Result<AsyncBlock<Json>> {
    with_requester(&env, driver, move |lsp| async move {
        lifecycle::set_mcp_destination(lsp.as_ref(), &destination_id).await
    })
}

/// Start an MCP server on the first free port: call `start(startPort + i)` for
/// `i = 0 … attempts - 1` and resolve with the first success. Only a bind failure (a message
/// matching `failed to bind`, `address already in use`, `EADDRINUSE` or `must be between`,
/// case-insensitive) moves on, after `onRetry(busyPort)`; any other error rejects at once, and
/// after the last attempt the last error rejects.
///
/// @param attempts - default 20
/// @example
/// ```ts
/// const mcp = await startMcpServerWithFallback((port) => startMcpServer(driver, { port, token }), 2240);
/// ```
#[napi(
    ts_args_type = "start: (port: number) => Promise<StartMcpServerResult>, startPort: number, attempts?: number, onRetry?: (busyPort: number) => void",
    ts_return_type = "Promise<StartMcpServerResult>"
)]
pub fn start_mcp_server_with_fallback(
    env: Env,
    start: Function<Unknown, Unknown>,
    start_port: f64,
    attempts: Option<f64>,
    on_retry: Option<Function<Unknown, Unknown>>,
) -> Result<AsyncBlock<Json>> {
    let start = JsCallback::new(&env, start)?;
    let on_retry = match on_retry {
        Some(f) => Some(JsCallback::new(&env, f)?),
        None => None,
    };
    let attempts = attempts
        .filter(|a| a.is_finite() && *a >= 1.0)
        .map(|a| a as u32)
        .unwrap_or(lifecycle::DEFAULT_PORT_ATTEMPTS);
    coded(
        &env,
        async move {
            lifecycle::start_with_fallback(
                |port| {
                    let start = start.clone();
                    async move {
                        start
                            .call_json(vec![Some(j!(port))])
                            .await
                            .map(|v| v.unwrap_or(Value::Null))
                            .map_err(|m| EngineError::coded(codes::CALLBACK, m))
                    }
                },
                start_port as i64,
                attempts,
                |port| {
                    let cb = on_retry.clone();
                    async move {
                        if let Some(cb) = cb {
                            notify_retry(&cb, port).await;
                        }
                    }
                },
            )
            .await
        },
        |_, v| Ok(Json(Some(v))),
    )
}

/// How long the fallback loop waits for `onRetry` (a promise that never settles must not stall
/// it, docs/decisions.md#d5-3).
const ON_RETRY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// `onRetry(busyPort)` before the next attempt, as the reference orders it; a throw, a
/// rejection or a hang is logged and ignored.
async fn notify_retry(cb: &JsCallback, busy_port: i64) {
    match tokio::time::timeout(ON_RETRY_WAIT, cb.call_json(vec![Some(j!(busy_port))])).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => log::debug(format!("startMcpServerWithFallback: onRetry threw: {e}")),
        Err(_) => log::debug("startMcpServerWithFallback: onRetry did not settle; continuing"),
    }
}

/// The MCP Streamable HTTP client adt-ls-native uses for adt-ls's MCP server, exported for tools
/// and tests (`createAdtLs` manages its own). It speaks protocol 2025-06-18 (2025-03-26
/// accepted), reads JSON and SSE answers, keeps an optional session, pages `tools/list`, and
/// sends `DELETE` on close. An HTTP 404 on a session re-initialises and fails the interrupted
/// call (`... session expired (HTTP 404); reconnected, request was not retried`); a tool call is
/// never re-sent. Transport failures carry code `ERR_MCP_TRANSPORT`, protocol violations
/// `ERR_MCP_PROTOCOL`.
///
/// @example
/// ```ts
/// const mcp = new AdtLsMcpClient(`http://127.0.0.1:${port}/mcp`, token);
/// const tools = await mcp.listTools();
/// await mcp.close();
/// ```
#[napi]
pub struct AdtLsMcpClient {
    inner: McpClient,
}

#[napi]
impl AdtLsMcpClient {
    /// A client for the MCP endpoint `baseUrl` (e.g. `http://127.0.0.1:2240/mcp`); nothing is sent
    /// until the first call.
    ///
    /// @param token - the bearer token (from {@link startMcpServer})
    /// @param clientInfo - the `clientInfo` sent in `initialize` (default adt-ls-native's identity)
    /// @param timeoutMs - bound on each call, the whole HTTP exchange (default 120 000 ms)
    /// @throws `ERR_OUT_OF_RANGE` for a timeout that is not a finite positive number
    #[napi(
        constructor,
        ts_args_type = "baseUrl: string, token: string, clientInfo?: { name: string; version: string }, timeoutMs?: number"
    )]
    pub fn new(
        env: Env,
        base_url: String,
        token: String,
        client_info: Option<Object>,
        timeout_ms: Option<Unknown>,
    ) -> Result<Self> {
        let mut info = ClientInfo::default();
        if let Some(ci) = client_info {
            info.name = ci.get::<String>("name")?.unwrap_or(info.name);
            info.version = ci.get::<String>("version")?.unwrap_or(info.version);
        }
        let mut opts = McpClientOptions::default();
        match timeout_arg(&env, timeout_ms, "timeoutMs") {
            Ok(Some(t)) => opts.timeout = t,
            Ok(None) => {}
            Err(e) => return Err(super::errors::js_error(&env, &e)),
        }
        match McpClient::new(&base_url, &token, info, opts) {
            Ok(inner) => Ok(AdtLsMcpClient { inner }),
            Err(e) => Err(super::errors::js_error(&env, &e)),
        }
    }

    /// Open the session: `initialize`, then `notifications/initialized` (which must be answered HTTP
    /// 202). Once only: concurrent calls share one attempt; later calls resolve at once. The other
    /// methods connect on their own first.
    ///
    /// @throws rejects with `Unsupported MCP protocol version: <v>`, an HTTP error
    /// (`adt-ls MCP initialize failed: HTTP <status>`) or a transport error
    #[napi(ts_return_type = "Promise<void>")]
    pub fn connect(&self, env: Env) -> Result<AsyncBlock<()>> {
        let c = self.inner.clone();
        coded(&env, async move { c.connect().await }, |_, ()| Ok(()))
    }

    /// Every tool the server offers: `tools/list`, following `nextCursor` through all pages. The
    /// descriptors come back verbatim (unknown fields kept). A read-only call, so it is retried once
    /// after a session re-initialisation.
    ///
    /// @throws rejects with `adt-ls MCP tools/list: missing or invalid tools`, `... invalid nextCursor`
    /// or `... repeated pagination cursor` for a malformed answer
    #[napi(ts_return_type = "Promise<McpTool[]>")]
    pub fn list_tools(&self, env: Env) -> Result<AsyncBlock<Json>> {
        let c = self.inner.clone();
        coded(&env, async move { c.list_tools().await }, |_, v| {
            Ok(Json(Some(Value::Array(v))))
        })
    }

    /// Call a tool: `tools/call {name, arguments}`. Resolves with the `CallToolResult` untouched; a
    /// tool-level failure (`isError: true`) is a result, not a rejection (see {@link parseFederated}).
    ///
    /// @param opts - `timeoutMs` overrides the client's timeout for this call
    /// @throws rejects with `adt-ls MCP tools/call error (<code>): <message>` for a JSON-RPC error (an
    /// unknown tool, bad arguments), and with transport or protocol errors; never re-sent
    #[napi(
        ts_args_type = "name: string, args?: Record<string, unknown>, opts?: { timeoutMs?: number }",
        ts_return_type = "Promise<unknown>"
    )]
    pub fn call_tool(
        &self,
        env: Env,
        name: String,
        args: Option<Unknown>,
        opts: Option<Object>,
    ) -> Result<AsyncBlock<Json>> {
        let args = match json::from_js_opt(&env, args) {
            Ok(a) => a.unwrap_or_else(|| j!({})),
            Err(e) => return rejected(&env, invalid(e)),
        };
        let timeout = match opts.map(|o| timeout_prop(&env, &o, "timeoutMs", "opts.timeoutMs")) {
            Some(Ok(t)) => t,
            Some(Err(e)) => return rejected(&env, e),
            None => None,
        };
        let c = self.inner.clone();
        coded(
            &env,
            async move { c.call_tool(&name, args, timeout).await },
            |_, v| Ok(Json(Some(v))),
        )
    }

    /// Send any other MCP request (e.g. `ping`) and resolve with its `result` object.
    ///
    /// @throws rejects as {@link AdtLsMcpClient.callTool} does
    #[napi(
        ts_args_type = "method: string, params?: unknown, opts?: { timeoutMs?: number }",
        ts_return_type = "Promise<unknown>"
    )]
    pub fn request(
        &self,
        env: Env,
        method: String,
        params: Option<Unknown>,
        opts: Option<Object>,
    ) -> Result<AsyncBlock<Json>> {
        let params = match json::from_js_opt(&env, params) {
            Ok(p) => p,
            Err(e) => return rejected(&env, invalid(e)),
        };
        let timeout = match opts.map(|o| timeout_prop(&env, &o, "timeoutMs", "opts.timeoutMs")) {
            Some(Ok(t)) => t,
            Some(Err(e)) => return rejected(&env, e),
            None => None,
        };
        let c = self.inner.clone();
        coded(
            &env,
            async move { c.request(&method, params, timeout).await },
            |_, v| Ok(Json(Some(v))),
        )
    }

    /// End the session: an HTTP `DELETE` on the endpoint when the server gave a session id (bounded
    /// by 5 s; 404 and 405 count as done). Session state is cleared first.
    ///
    /// @throws rejects with `adt-ls MCP close failed: HTTP <status>` for any other status
    #[napi(ts_return_type = "Promise<void>")]
    pub fn close(&self, env: Env) -> Result<AsyncBlock<()>> {
        let c = self.inner.clone();
        coded(&env, async move { c.close().await }, |_, ()| Ok(()))
    }

    /// The `Mcp-Session-Id` the server gave, while connected; `undefined` for a sessionless server.
    #[napi(getter, ts_return_type = "string | undefined")]
    pub fn session_id(&self) -> OrUndefined<String> {
        OrUndefined(self.inner.session_id())
    }

    /// The negotiated MCP protocol version (`2025-06-18` or `2025-03-26`) while connected.
    #[napi(getter, ts_return_type = "string | undefined")]
    pub fn protocol_version(&self) -> OrUndefined<String> {
        OrUndefined(self.inner.protocol_version())
    }
}
