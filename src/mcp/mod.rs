//! MCP Streamable HTTP client for adt-ls's own MCP server (docs/wire.md#mcp-streamable-http,
//! docs/decisions.md#d5-1, #d5-3, #d5-12, #d5-13, #d6). `McpClient` is the only public entry point;
//! the submodules split it by job:
//!
//! * `client`: the public API (construction, connect, tools, request, close, shutdown);
//! * `session`: ids, session state, connect handshake, timeouts, 404 re-initialisation;
//! * `tools`: `tools/list` pagination and validation, `tools/call` parameters;
//! * `http`: one POST/DELETE exchange, JSON and SSE response reading;
//! * `jsonrpc`: message shapes and classification;
//! * `sse`: the incremental event-stream parser;
//! * `errors`: every error text and code;
//! * `limits`: size and concurrency bounds on what the server sends;
//! * `depth`: the nesting bound on bodies and events;
//! * `lifecycle`: starting, stopping and binding adt-ls's MCP server over LSP.

mod client;
mod depth;
mod errors;
pub(crate) mod federated;
mod http;
// `jsonrpc` and `sse` are public only for the fuzz targets in `fuzz/` (hidden from docs).
#[doc(hidden)]
pub mod jsonrpc;
pub(crate) mod lifecycle;
mod limits;
mod session;
#[doc(hidden)]
pub mod sse;
mod tools;

pub(crate) use client::{ClientInfo, McpClient, McpClientOptions, DEFAULT_TIMEOUT};

#[cfg(test)]
mod tests;
