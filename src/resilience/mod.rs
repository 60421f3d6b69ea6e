//! Resilience policy: error classification, cold retry, single-flight re-logon, and the
//! retry wrappers the client applies to LSP requests, MCP tool calls, searches and writes.

pub(crate) mod classify;
pub(crate) mod cold;
pub(crate) mod single_flight;
pub(crate) mod wrappers;
