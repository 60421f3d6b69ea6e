//! The MCP exports: adt-ls's MCP server lifecycle (`startMcpServer`, `stopMcpServer`,
//! `setMcpDestination`, `startMcpServerWithFallback`) and the `AdtLsMcpClient` class (the
//! Streamable HTTP client, exported for tools and conformance tests).

use super::callback::JsCallback;
use super::errors::coded;
use super::requester;
use super::settle::Settling;
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
fn with_requester<F, Fut>(env: &Env, driver: Unknown, call: F) -> Result<Settling<Json>>
where
    F: FnOnce(Arc<dyn LspRequester>) -> Fut,
    Fut: std::future::Future<Output = crate::error::Result<Value>> + Send + 'static,
{
    match requester::from_js(env, driver) {
        Ok(lsp) => coded(env, call(lsp), |_, v| Ok(Json(Some(v)))),
        Err(e) => rejected(env, invalid(e)),
    }
}

/// `adtLs/mcp/startMCPServer {port, token, fileSystemMode: "VFS"}`; the effective values.
#[napi(
    ts_args_type = "driver: LspRequester, opts: { port: number; token: string }",
    ts_return_type = "Promise<StartMcpServerResult>"
)]
pub fn start_mcp_server(env: Env, driver: Unknown, opts: Object) -> Result<Settling<Json>> {
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

/// `adtLs/mcp/stopMCPServer` (no params: `[null]` on the wire).
#[napi(
    ts_args_type = "driver: LspRequester",
    ts_return_type = "Promise<unknown>"
)]
pub fn stop_mcp_server(env: Env, driver: Unknown) -> Result<Settling<Json>> {
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
    destination_id: String,
) -> Result<Settling<Json>> {
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
    start: Function<Unknown, Unknown>,
    start_port: f64,
    attempts: Option<f64>,
    on_retry: Option<Function<Unknown, Unknown>>,
) -> Result<Settling<Json>> {
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

    /// Initialize (once; concurrent calls share it).
    #[napi(ts_return_type = "Promise<void>")]
    pub fn connect(&self, env: Env) -> Result<Settling<()>> {
        let c = self.inner.clone();
        coded(&env, async move { c.connect().await }, |_, ()| Ok(()))
    }

    /// Every tool, all pages, descriptors verbatim.
    #[napi(ts_return_type = "Promise<McpTool[]>")]
    pub fn list_tools(&self, env: Env) -> Result<Settling<Json>> {
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
        name: String,
        args: Option<Unknown>,
        opts: Option<Object>,
    ) -> Result<Settling<Json>> {
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

    /// Any other request, e.g. `ping`.
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
    ) -> Result<Settling<Json>> {
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

    /// End the session (DELETE when one exists).
    #[napi(ts_return_type = "Promise<void>")]
    pub fn close(&self, env: Env) -> Result<Settling<()>> {
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
