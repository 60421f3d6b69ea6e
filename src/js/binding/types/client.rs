//! Client-level results and the values of the lower-level API: health, capabilities,
//! destinations, the `initialize` result, federated tool results and the MCP server start.

use napi_derive::napi;
use serde_json::Value;

/// `health()`: a connection and liveness snapshot (synchronous, no request sent).
#[napi(object)]
pub struct HealthInfo {
    /// A destination is logged on (`false` in foundation mode).
    pub connected: bool,
    /// Connected and the last liveness probe (or request) found the SAP session alive.
    pub backend_live: bool,
    /// The adt-ls destination id (`destinationId`, default `ADTLS`); `''` in foundation mode.
    pub destination: String,
    /// adt-ls's `serverInfo.name` from `initialize` (`ADTLS`); absent when not reported or after
    /// `dispose()`.
    pub adt_ls_name: Option<String>,
    /// adt-ls's build from `initialize`, e.g. `1.1.2.202608131517`; absent when not reported or
    /// after `dispose()`.
    pub adt_ls_version: Option<String>,
    /// The port adt-ls's MCP server bound (after any port fallback).
    pub mcp_port: f64,
}

/// `capabilities()`: the LSP capabilities (a copy) and the MCP tools (freshly listed).
#[napi(object)]
pub struct AdtLsCapabilities {
    /// The server capabilities adt-ls announced in `initialize`, verbatim.
    #[napi(ts_type = "Record<string, unknown>")]
    pub lsp: Value,
    /// The tools of adt-ls's MCP server (`tools/list`), verbatim.
    #[napi(ts_type = "McpTool[]")]
    pub tools: Vec<Value>,
}

/// A destination of `listDestinations()` (MCP `abap_list_destinations`); each field is
/// absent when adt-ls does not report it.
#[napi(object)]
pub struct AdtLsDestination {
    /// The destination id, e.g. `ADTLS`.
    pub destination: Option<String>,
    /// The SAP system id (SID), e.g. `A4H`.
    pub system_id: Option<String>,
    /// The SAP client (Mandant), e.g. `001`.
    pub client: Option<String>,
    /// The logon user.
    pub user: Option<String>,
    /// The logon language, e.g. `EN`.
    pub language: Option<String>,
}

/// What adt-ls answered to the LSP `initialize` request, as {@link AdtLsDriver.start} resolves
/// it and {@link AdtLsDriver.initializeResult} keeps it.
#[napi(object)]
pub struct AdtLsInitializeResult {
    /// adt-ls's identity: `name` is `ADTLS`, `version` e.g. `1.1.2.202608131517` (checked by
    /// the version gate).
    pub server_info: Option<ServerInfo>,
    /// The server capabilities, verbatim (document sync, hover, completion, definition,
    /// references, type hierarchy, semantic tokens with their legend, pull diagnostics, ...).
    #[napi(ts_type = "Record<string, unknown>")]
    pub capabilities: Value,
}

/// A server's or client's identity.
#[napi(object)]
pub struct ServerInfo {
    /// The name, e.g. `ADTLS` for the server.
    pub name: String,
    /// The version or build, e.g. `1.1.2.202608131517`.
    pub version: String,
}

/// An MCP `CallToolResult` as adt-ls's tools return it (`raw.tool`), the input of
/// {@link parseFederated}.
#[napi(object)]
pub struct FederatedResult {
    /// The result's content blocks; the first one's `text` is the tool's complete (usually
    /// JSON) payload.
    pub content: Option<Vec<FederatedContent>>,
    /// `true` when the tool failed (the text then explains why).
    pub is_error: Option<bool>,
    /// The output-schema projection of the payload; may lack fields the text has.
    #[napi(ts_type = "unknown")]
    pub structured_content: Option<Value>,
}

/// A content block of a tool result.
#[napi(object)]
pub struct FederatedContent {
    /// The block's text (for adt-ls's tools: the JSON payload, or an error message).
    pub text: Option<String>,
}

/// The values adt-ls's MCP server actually started with ({@link startMcpServer}); use these,
/// not the requested ones.
#[napi(object)]
pub struct StartMcpServerResult {
    /// The port the server listens on (`http://127.0.0.1:<port>/mcp`).
    pub port: f64,
    /// The bearer token every MCP request must carry.
    pub token: String,
    /// The MCP server's version, when adt-ls reports it.
    pub version: Option<String>,
}
