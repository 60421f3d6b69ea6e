//! The MCP exports: adt-ls's MCP server lifecycle (`startMcpServer`, `stopMcpServer`,
//! `setMcpDestination`, `startMcpServerWithFallback`) and the `AdtLsMcpClient` class (the
//! Streamable HTTP client, exported for tools and conformance tests).

use super::callback::JsCallback;
use super::checked;
use super::driver::rejected;
use super::errors::coded;
use super::requester;
use super::timeouts::timeout_arg;
use super::values::{Json, OrUndefined};
use crate::error::{codes, Error as EngineError};
use crate::identity::ClientInfo;
use crate::log;
use crate::lsp::LspRequester;
use crate::mcp::lifecycle;
use crate::mcp::{McpClient, McpClientOptions};
use crate::option_keys;
use napi::bindgen_prelude::*;
use serde_json::{json as j, Value};
use std::sync::Arc;

/// Run `call` with the engine requester behind a JS driver value (ours natively, any other
/// `{sendRequest}` object through a callback); an unusable value rejects.
fn with_requester<F, Fut>(env: &Env, driver: Option<Unknown>, call: F) -> Result<AsyncBlock<Json>>
where
    F: FnOnce(Arc<dyn LspRequester>) -> Fut,
    Fut: std::future::Future<Output = crate::error::Result<Value>> + Send + 'static,
{
    match requester::from_js(env, driver) {
        Ok(lsp) => coded(env, call(lsp), |_, v| Ok(Json(Some(v)))),
        Err(e) => rejected(env, e),
    }
}

/// `adtLs/mcp/startMCPServer {port, token, fileSystemMode: "VFS"}`; the effective values.
#[napi(
    ts_args_type = "driver: LspRequester, opts: { port: number; token: string }",
    ts_return_type = "Promise<StartMcpServerResult>"
)]
pub fn start_mcp_server(env: Env, driver: Unknown, opts: Unknown) -> Result<AsyncBlock<Json>> {
    let driver = Some(driver);
    let opts = Some(opts);
    let (port, token) = match start_options(&env, opts) {
        Ok(o) => o,
        Err(e) => return rejected(&env, e),
    };
    with_requester(&env, driver, move |lsp| async move {
        lifecycle::start_mcp_server(lsp.as_ref(), j!(port), &token).await
    })
}

/// `{ port, token }` of `startMcpServer`: a port from 0 to 65535 (adt-ls applies its own
/// range) and a string token.
fn start_options(
    env: &Env,
    opts: Option<Unknown>,
) -> std::result::Result<(u16, String), EngineError> {
    let opts = checked::object(env, opts, "opts")?;
    checked::warn_unknown_keys(&opts, "opts", option_keys::START_MCP);
    let port = checked::number(env, checked::property(&opts, "port"), "opts.port")?;
    let port = crate::arg_error::port_from("opts.port", port, 0)?;
    let token = checked::secret(env, checked::property(&opts, "token"), "opts.token")?;
    Ok((port, token))
}

/// `adtLs/mcp/stopMCPServer` (no params: `[null]` on the wire).
#[napi(
    ts_args_type = "driver: LspRequester",
    ts_return_type = "Promise<unknown>"
)]
pub fn stop_mcp_server(env: Env, driver: Unknown) -> Result<AsyncBlock<Json>> {
    let driver = Some(driver);
    with_requester(&env, driver, |lsp| async move {
        lifecycle::stop_mcp_server(lsp.as_ref()).await
    })
}

/// `adtLs/mcp/setDestination {destinationId}`.
#[napi(
    ts_args_type = "driver: LspRequester, destinationId: string",
    ts_return_type = "Promise<unknown>"
)]
pub fn set_mcp_destination(
    env: Env,
    driver: Unknown,
    destination_id: Unknown,
) -> Result<AsyncBlock<Json>> {
    let driver = Some(driver);
    let destination_id = Some(destination_id);
    let destination_id = match checked::string(&env, destination_id, "destinationId") {
        Ok(d) => d,
        Err(e) => return rejected(&env, e),
    };
    with_requester(&env, driver, move |lsp| async move {
        lifecycle::set_mcp_destination(lsp.as_ref(), &destination_id).await
    })
}

/// Try `start(startPort + i)` for `attempts` ports; only bind failures advance.
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
) -> Result<AsyncBlock<Json>> {
    let start = Some(start);
    let start_port = Some(start_port);
    let attempts = Some(attempts);
    let on_retry = Some(on_retry);
    let checked_args = (|| {
        let start = checked::function(&env, start, "start")?;
        let start_port = checked::number(&env, start_port, "startPort")?;
        let start_port = crate::arg_error::port_from("startPort", start_port, 0)?;
        let attempts = checked::opt_number(&env, attempts, "attempts")?
            .map(|a| crate::arg_error::count("attempts", a, 1.0))
            .transpose()?
            .unwrap_or(lifecycle::DEFAULT_PORT_ATTEMPTS);
        let on_retry = checked::opt_function(&env, on_retry, "onRetry")?;
        Ok::<_, EngineError>((start, start_port, attempts, on_retry))
    })();
    let (start, start_port, attempts, on_retry) = match checked_args {
        Ok(a) => a,
        Err(e) => return rejected(&env, e),
    };
    let start = JsCallback::new(&env, start)?;
    let on_retry = match on_retry {
        Some(f) => Some(JsCallback::new(&env, f)?),
        None => None,
    };
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
/// it, decisions D5.3).
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

/// The MCP Streamable HTTP client adt-ls-native uses for adt-ls's MCP server (protocol
/// 2025-06-18, JSON or SSE answers, optional session, pagination, 404 re-initialisation
/// without replay, DELETE on close).
#[napi]
pub struct AdtLsMcpClient {
    inner: McpClient,
}

#[napi]
impl AdtLsMcpClient {
    #[napi(
        constructor,
        ts_args_type = "baseUrl: string, token: string, clientInfo?: { name: string; version: string }, timeoutMs?: number"
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
            Err(e) => return Err(super::errors::js_error(&env, &e)),
        };
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

    /// Initialize (once; concurrent calls share it).
    #[napi(ts_return_type = "Promise<void>")]
    pub fn connect(&self, env: Env) -> Result<AsyncBlock<()>> {
        let c = self.inner.clone();
        coded(&env, async move { c.connect().await }, |_, ()| Ok(()))
    }

    /// Every tool, all pages, descriptors verbatim.
    #[napi(ts_return_type = "Promise<McpTool[]>")]
    pub fn list_tools(&self, env: Env) -> Result<AsyncBlock<Json>> {
        let c = self.inner.clone();
        coded(&env, async move { c.list_tools().await }, |_, v| {
            Ok(Json(Some(Value::Array(v))))
        })
    }

    /// `tools/call`; the CallToolResult untouched (a tool-level `isError` is not thrown).
    #[napi(
        ts_args_type = "name: string, args?: Record<string, unknown>, opts?: { timeoutMs?: number }",
        ts_return_type = "Promise<unknown>"
    )]
    pub fn call_tool(
        &self,
        env: Env,
        name: Unknown,
        args: Unknown,
        opts: Unknown,
    ) -> Result<AsyncBlock<Json>> {
        let name = Some(name);
        let args = Some(args);
        let opts = Some(opts);
        let checked_args = (|| {
            let name = checked::string(&env, name, "name")?;
            let args = match checked::opt_object(&env, args, "args")? {
                Some(a) => checked::opt_json(&env, Some(a.to_unknown()), "args")?,
                None => None,
            };
            let timeout = super::driver::request_timeout(&env, opts)?;
            Ok::<_, EngineError>((name, args.unwrap_or_else(|| j!({})), timeout))
        })();
        let (name, args, timeout) = match checked_args {
            Ok(a) => a,
            Err(e) => return rejected(&env, e),
        };
        let c = self.inner.clone();
        coded(
            &env,
            async move { c.call_tool(&name, args, timeout).await },
            |_, v| Ok(Json(Some(v))),
        )
    }

    /// Any other request, e.g. `ping`.
    #[napi(
        ts_args_type = "method: string, params?: unknown, opts?: { timeoutMs?: number }",
        ts_return_type = "Promise<unknown>"
    )]
    pub fn request(
        &self,
        env: Env,
        method: Unknown,
        params: Option<Unknown>,
        opts: Unknown,
    ) -> Result<AsyncBlock<Json>> {
        let method = Some(method);
        let opts = Some(opts);
        let checked_args = (|| {
            let method = checked::string(&env, method, "method")?;
            let params = checked::opt_json(&env, params, "params")?;
            let timeout = super::driver::request_timeout(&env, opts)?;
            Ok::<_, EngineError>((method, params, timeout))
        })();
        let (method, params, timeout) = match checked_args {
            Ok(a) => a,
            Err(e) => return rejected(&env, e),
        };
        let c = self.inner.clone();
        coded(
            &env,
            async move { c.request(&method, params, timeout).await },
            |_, v| Ok(Json(Some(v))),
        )
    }

    /// End the session (DELETE when one exists).
    #[napi(ts_return_type = "Promise<void>")]
    pub fn close(&self, env: Env) -> Result<AsyncBlock<()>> {
        let c = self.inner.clone();
        coded(&env, async move { c.close().await }, |_, ()| Ok(()))
    }

    #[napi(getter, ts_return_type = "string | undefined")]
    pub fn session_id(&self) -> OrUndefined<String> {
        OrUndefined(self.inner.session_id())
    }

    #[napi(getter, ts_return_type = "string | undefined")]
    pub fn protocol_version(&self) -> OrUndefined<String> {
        OrUndefined(self.inner.protocol_version())
    }
}
