//! Client-level results and the values of the lower-level API: health, capabilities,
//! destinations, the `initialize` result, federated tool results and the MCP server start.

use napi_derive::napi;
use serde_json::Value;

/// `health()`: a connection and liveness snapshot.
#[napi(object)]
pub struct HealthInfo {
    pub connected: bool,
    pub backend_live: bool,
    pub destination: String,
    pub adt_ls_name: Option<String>,
    pub adt_ls_version: Option<String>,
    /// The port adt-ls's MCP server bound (after any port fallback).
    pub mcp_port: f64,
}

/// `capabilities()`: the LSP capabilities (a copy) and the MCP tools (freshly listed).
#[napi(object)]
pub struct AdtLsCapabilities {
    #[napi(ts_type = "Record<string, unknown>")]
    pub lsp: Value,
    #[napi(ts_type = "McpTool[]")]
    pub tools: Vec<Value>,
}

/// A destination of `listDestinations()` (MCP `abap_list_destinations`).
#[napi(object)]
pub struct AdtLsDestination {
    pub destination: Option<String>,
    pub system_id: Option<String>,
    pub client: Option<String>,
    pub user: Option<String>,
    pub language: Option<String>,
}

/// What `initialize` returned: server identity and capabilities, verbatim.
#[napi(object)]
pub struct AdtLsInitializeResult {
    pub server_info: Option<ServerInfo>,
    #[napi(ts_type = "Record<string, unknown>")]
    pub capabilities: Value,
}

/// A server's or client's identity.
#[napi(object)]
pub struct ServerInfo {
    pub name: String,
    pub version: String,
}

/// An MCP `CallToolResult` as returned by adt-ls's tools (what `parseFederated` reads).
#[napi(object)]
pub struct FederatedResult {
    pub content: Option<Vec<FederatedContent>>,
    pub is_error: Option<bool>,
    #[napi(ts_type = "unknown")]
    pub structured_content: Option<Value>,
}

/// A content block of a tool result.
#[napi(object)]
pub struct FederatedContent {
    pub text: Option<String>,
}

/// The effective values adt-ls's MCP server started with.
#[napi(object)]
pub struct StartMcpServerResult {
    pub port: f64,
    pub token: String,
    pub version: Option<String>,
}
