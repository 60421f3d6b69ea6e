//! The MCP exports: adt-ls's MCP server lifecycle (`startMcpServer`, `stopMcpServer`,
//! `setMcpDestination`, `startMcpServerWithFallback`) and the `AdtLsMcpClient` class (the
//! Streamable HTTP client, exported for tools and conformance tests).

use super::driver::with_checked;
use super::requester;
use super::types::options::StartMcp;
use crate::js::runtime::callback::JsCallback;
use crate::js::runtime::cancel;
use crate::js::runtime::checked;
use crate::js::runtime::errors::coded;
use crate::js::runtime::option_types::FromJs;
use crate::js::runtime::settle::Settling;
use crate::js::runtime::timeouts::timeout_arg;
use crate::js::runtime::values::{Json, OrUndefined};
use crate::kernel::error::{codes, Error as EngineError};
use crate::kernel::identity::ClientInfo;
use crate::kernel::log;
use crate::lsp::LspRequester;
use crate::mcp::lifecycle;
use crate::mcp::{McpClient, McpClientOptions};
use adt_ls_native_macros::inline_ts;
use napi::bindgen_prelude::*;
use serde_json::{json as j, Value};
use std::sync::Arc;

/// Run `call` with the engine requester behind a JS driver value (ours natively, any other
/// `{sendRequest}` object through a callback) and the function's other arguments, read by
/// `rest` after the driver: the first unusable argument rejects, in parameter order.
fn with_requester<A, R, F, Fut>(
    env: &Env,
    driver: Option<Unknown>,
    rest: R,
    call: F,
) -> Result<Settling<Json>>
where
    R: FnOnce() -> std::result::Result<A, EngineError>,
    F: FnOnce(Arc<dyn LspRequester>, A) -> Fut,
    Fut: std::future::Future<Output = crate::kernel::error::Result<Value>> + Send + 'static,
{
    let read = || Ok((requester::from_js(env, driver)?, rest()?));
    with_checked(env, read, |(lsp, args)| {
        coded(env, call(lsp, args), |_, v| Ok(Json(Some(v))))
    })
}

/// Start adt-ls's own MCP server: the LSP request
/// `adtLs/mcp/startMCPServer {port, token, fileSystemMode: "VFS"}`. VFS mode is what makes adt-ls
/// 1.1.2 offer all 20 tools (create, activate, unit tests, generators and ATC need it). Use the
/// returned values: they are what the server really uses.
///
/// @param driver - a started {@link AdtLsDriver} (or any {@link LspRequester})
/// @param opts - `port` (1024–65535) and the bearer `token` MCP clients must send
/// @throws rejects with adt-ls's error, e.g. `Port must be between 1024 and 65535` or a bind failure
#[inline_ts(StartMcpOptions)]
#[napi(
    ts_args_type = "driver: LspRequester, opts: StartMcpOptions",
    ts_return_type = "Promise<StartMcpServerResult>"
)]
pub fn start_mcp_server(env: Env, driver: Unknown, opts: Unknown) -> Result<Settling<Json>> {
    let driver = Some(driver);
    let opts = Some(opts);
    with_requester(
        &env,
        driver,
        || start_options(&env, opts),
        |lsp, (port, token)| async move {
            lifecycle::start_mcp_server(lsp.as_ref(), j!(port), &token).await
        },
    )
}

/// `{ port, token }` of `startMcpServer`: a port from 0 to 65535 (adt-ls applies its own
/// range) and a string token.
fn start_options(
    env: &Env,
    opts: Option<Unknown>,
) -> std::result::Result<(u16, String), EngineError> {
    let given = StartMcp::from_js(env, opts, "opts")?;
    let (port, token) = (given.port.0, given.token.0);
    Ok((port, token))
}

/// `opts?: CallOptions` of `callTool` and `request`: the call's own `timeoutMs` (which then
/// bounds the whole call) and its `signal`.
fn request_options(
    env: &Env,
    opts: Option<Unknown>,
) -> std::result::Result<(Option<std::time::Duration>, cancel::CallOptions), EngineError> {
    let timeout = super::driver::request_timeout(env, opts)?;
    let call = cancel::read_request_opts(env, opts)?.with_own_limit(timeout.is_some());
    Ok((timeout, call))
}

/// Stop adt-ls's MCP server: `adtLs/mcp/stopMCPServer`, without params (`[null]` on the wire).
/// `createAdtLs` never calls it; disposing the driver ends the server with adt-ls.
///
/// @returns adt-ls's answer, unchanged
#[napi(
    ts_args_type = "driver: LspRequester",
    ts_return_type = "Promise<unknown>"
)]
pub fn stop_mcp_server(env: Env, driver: Unknown) -> Result<Settling<Json>> {
    let driver = Some(driver);
    with_requester(
        &env,
        driver,
        || Ok(()),
        |lsp, ()| async move { lifecycle::stop_mcp_server(lsp.as_ref()).await },
    )
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
    destination_id: Unknown,
) -> Result<Settling<Json>> {
    let driver = Some(driver);
    let destination_id = Some(destination_id);
    with_requester(
        &env,
        driver,
        || checked::string(&env, destination_id, "destinationId"),
        |lsp, destination_id| async move {
            lifecycle::set_mcp_destination(lsp.as_ref(), &destination_id).await
        },
    )
}

/// Start an MCP server on the first free port: call `start(startPort + i)` for
/// `i = 0 … attempts - 1` (ports past 65535 are not tried: adt-ls accepts 1024–65535, and so
/// does `startPort`) and resolve with the first success. Only a bind failure (a message
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
    start: Unknown,
    start_port: Unknown,
    attempts: Unknown,
    on_retry: Unknown,
) -> Result<Settling<Json>> {
    let start = Some(start);
    let start_port = Some(start_port);
    let attempts = Some(attempts);
    let on_retry = Some(on_retry);
    let read = || {
        let start = checked::function(&env, start, "start")?;
        let start_port = checked::number(&env, start_port, "startPort")?;
        let start_port = crate::kernel::arg_error::adt_ls_port("startPort", start_port)?;
        let attempts = checked::opt_number(&env, attempts, "attempts")?
            .map(|a| crate::kernel::arg_error::count("attempts", a, 1.0))
            .transpose()?
            .unwrap_or(lifecycle::DEFAULT_PORT_ATTEMPTS);
        let on_retry = checked::opt_function(&env, on_retry, "onRetry")?;
        Ok((start, start_port, attempts, on_retry))
    };
    with_checked(&env, read, |(start, start_port, attempts, on_retry)| {
        let start = JsCallback::new(&env, start)?;
        let on_retry = match on_retry {
            Some(f) => Some(JsCallback::new(&env, f)?),
            None => None,
        };
        fallback(&env, start, start_port, attempts, on_retry)
    })
}

/// `startMcpServerWithFallback` with its arguments checked: the loop over the ports.
fn fallback(
    env: &Env,
    start: Arc<JsCallback>,
    start_port: u16,
    attempts: u32,
    on_retry: Option<Arc<JsCallback>>,
) -> Result<Settling<Json>> {
    coded(
        env,
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

#[inline_ts(ClientInfo)]
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
        ts_args_type = "baseUrl: string, token: string, clientInfo?: ClientInfo, timeoutMs?: number"
    )]
    pub fn new(
        env: Env,
        base_url: Unknown,
        token: Unknown,
        client_info: Unknown,
        timeout_ms: Unknown,
    ) -> Result<Self> {
        let base_url = Some(base_url);
        let token = Some(token);
        let client_info = Some(client_info);
        let timeout_ms = Some(timeout_ms);
        let checked_args = (|| {
            let base_url = checked::string(&env, base_url, "baseUrl")?;
            let token = checked::secret(&env, token, "token")?;
            let info = match checked::opt_object(&env, client_info, "clientInfo")? {
                Some(ci) => super::driver::client_info(&env, &ci, "clientInfo")?,
                None => ClientInfo::default(),
            };
            Ok::<_, EngineError>((base_url, token, info))
        })();
        let (base_url, token, info) = match checked_args {
            Ok(a) => a,
            Err(e) => return Err(crate::js::runtime::errors::js_error(&env, &e)),
        };
        let mut opts = McpClientOptions::default();
        match timeout_arg(&env, timeout_ms, "timeoutMs") {
            Ok(Some(t)) => opts.timeout = t,
            Ok(None) => {}
            Err(e) => return Err(crate::js::runtime::errors::js_error(&env, &e)),
        }
        match McpClient::new(&base_url, &token, info, opts) {
            Ok(inner) => Ok(AdtLsMcpClient { inner }),
            Err(e) => Err(crate::js::runtime::errors::js_error(&env, &e)),
        }
    }

    /// Open the session: `initialize`, then `notifications/initialized` (which must be answered HTTP
    /// 202). Once only: concurrent calls share one attempt; later calls resolve at once. The other
    /// methods connect on their own first.
    ///
    /// @throws rejects with `Unsupported MCP protocol version: <v>`, an HTTP error
    /// (`adt-ls MCP initialize failed: HTTP <status>`) or a transport error
    #[napi(ts_args_type = "opts?: CallOptions", ts_return_type = "Promise<void>")]
    pub fn connect(&self, env: Env, opts: Option<Unknown>) -> Result<Settling<()>> {
        let read = || cancel::read_arg(&env, opts, "opts");
        with_checked(&env, read, |call| {
            let c = self.inner.clone();
            let start = move || async move { c.connect().await };
            cancel::run(&env, call, "adt-ls MCP connect", start, |_, ()| Ok(()))
        })
    }

    /// Every tool the server offers: `tools/list`, following `nextCursor` through all pages. The
    /// descriptors come back verbatim (unknown fields kept). A read-only call, so it is retried once
    /// after a session re-initialisation.
    ///
    /// @throws rejects with `adt-ls MCP tools/list: missing or invalid tools`, `... invalid nextCursor`
    /// or `... repeated pagination cursor` for a malformed answer
    #[napi(
        ts_args_type = "opts?: CallOptions",
        ts_return_type = "Promise<McpTool[]>"
    )]
    pub fn list_tools(&self, env: Env, opts: Option<Unknown>) -> Result<Settling<Json>> {
        let read = || cancel::read_arg(&env, opts, "opts");
        with_checked(&env, read, |call| {
            let c = self.inner.clone();
            let start = move || async move { c.list_tools().await };
            cancel::run(&env, call, "adt-ls MCP tools/list", start, |_, v| {
                Ok(Json(Some(Value::Array(v))))
            })
        })
    }

    /// Call a tool: `tools/call {name, arguments}`. Resolves with the `CallToolResult` untouched; a
    /// tool-level failure (`isError: true`) is a result, not a rejection (see {@link parseFederated}).
    ///
    /// @param opts - `timeoutMs` overrides the client's timeout for this call; `signal` aborts it.
    /// An aborted or timed-out call sends `notifications/cancelled` with its request id; what the
    /// tool already did on the server stays done (docs/cancellation.md)
    /// @throws rejects with `adt-ls MCP tools/call error (<code>): <message>` for a JSON-RPC error (an
    /// unknown tool, bad arguments), and with transport or protocol errors; never re-sent
    #[napi(
        ts_args_type = "name: string, args?: Record<string, unknown>, opts?: CallOptions",
        ts_return_type = "Promise<unknown>"
    )]
    pub fn call_tool(
        &self,
        env: Env,
        name: Unknown,
        args: Unknown,
        opts: Unknown,
    ) -> Result<Settling<Json>> {
        let name = Some(name);
        let args = Some(args);
        let opts = Some(opts);
        let read = || {
            let name = checked::string(&env, name, "name")?;
            let args = match checked::opt_object(&env, args, "args")? {
                Some(a) => checked::opt_json(&env, Some(a.to_unknown()), "args")?,
                None => None,
            };
            let (timeout, call) = request_options(&env, opts)?;
            Ok((name, args.unwrap_or_else(|| j!({})), timeout, call))
        };
        with_checked(&env, read, |(name, args, timeout, call)| {
            let c = self.inner.clone();
            let start = move || async move { c.call_tool(&name, args, timeout).await };
            cancel::run(&env, call, "adt-ls MCP tools/call", start, |_, v| {
                Ok(Json(Some(v)))
            })
        })
    }

    /// Send any other MCP request (e.g. `ping`) and resolve with its `result` object.
    ///
    /// @throws rejects as {@link AdtLsMcpClient.callTool} does
    #[napi(
        ts_args_type = "method: string, params?: unknown, opts?: CallOptions",
        ts_return_type = "Promise<unknown>"
    )]
    pub fn request(
        &self,
        env: Env,
        method: Unknown,
        params: Option<Unknown>,
        opts: Unknown,
    ) -> Result<Settling<Json>> {
        let method = Some(method);
        let opts = Some(opts);
        let read = || {
            let method = checked::string(&env, method, "method")?;
            let params = checked::opt_json(&env, params, "params")?;
            let (timeout, call) = request_options(&env, opts)?;
            Ok((method, params, timeout, call))
        };
        with_checked(&env, read, |(method, params, timeout, call)| {
            let c = self.inner.clone();
            let start = move || async move { c.request(&method, params, timeout).await };
            cancel::run(&env, call, "adt-ls MCP request", start, |_, v| {
                Ok(Json(Some(v)))
            })
        })
    }

    /// End the session: an HTTP `DELETE` on the endpoint when the server gave a session id (bounded
    /// by 5 s; 404 and 405 count as done). Session state is cleared first.
    ///
    /// An abort or `timeoutMs` stops waiting for the `DELETE` (the session state is cleared
    /// either way).
    ///
    /// @throws rejects with `adt-ls MCP close failed: HTTP <status>` for any other status
    #[napi(ts_args_type = "opts?: CallOptions", ts_return_type = "Promise<void>")]
    pub fn close(&self, env: Env, opts: Option<Unknown>) -> Result<Settling<()>> {
        let read = || cancel::read_arg(&env, opts, "opts");
        with_checked(&env, read, |call| {
            let c = self.inner.clone();
            let start = move || async move { c.close().await };
            cancel::run(&env, call, "adt-ls MCP close", start, |_, ()| Ok(()))
        })
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
