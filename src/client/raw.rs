//! The top-level methods and the `raw` escape hatches: `capabilities()`,
//! `listDestinations()`, `reconnect()`, `raw.lsp`, `raw.tool`.

use super::args::{self, Args};
use super::Client;
use crate::kernel::error::Result;
use crate::mcp::federated::parse_federated;
use serde_json::{json, Value};
use std::future::Future;

/// `{lsp: a copy of the initialize capabilities, tools: a fresh, fully paginated tools/list}`.
pub(super) fn capabilities(
    client: &Client,
    _: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let touched = client.touch();
    let lsp = client
        .inner()
        .init
        .get("capabilities")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let mcp = client.inner().mcp.clone();
    async move {
        touched?;
        let tools = mcp.list_tools().await?;
        Ok(json!({"lsp": lsp, "tools": tools}))
    }
}

/// `abap_list_destinations`, unwrapped (works without a destination).
pub(super) fn list_destinations(
    client: &Client,
    _: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let call = client.active_tool("abap_list_destinations", json!({}));
    async move { Ok(parse_federated(&call.await?).data) }
}

/// `reconnect()`: re-logon now; `true` when live afterwards (false in foundation mode).
pub(super) fn reconnect(
    client: &Client,
    _: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let touched = client.touch();
    let me = client.clone();
    async move {
        touched?;
        Ok(Value::Bool(
            me.relogon(super::events::RelogonReason::Reconnect).await,
        ))
    }
}

/// `raw.lsp(method, params?)`.
pub(super) fn lsp(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let method = args::string(&a, 0, "method");
    let sent = method.map(|m| client.active_request(&m, args::arg(&a, 1).cloned()));
    async move { sent?.await }
}

/// `raw.tool(name, args = {})`: the raw CallToolResult.
pub(super) fn tool(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let name = args::string(&a, 0, "name");
    let tool_args = args::object(&a, 1, "args");
    let call = match (name, tool_args) {
        (Ok(n), Ok(t)) => Ok(client.active_tool(&n, Value::Object(t))),
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    async move { call?.await }
}
