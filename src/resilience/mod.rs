//! Resilience policy: error classification, cold retry, single-flight re-logon, and the
//! retry wrappers the client applies to LSP requests, MCP tool calls, searches and writes.

pub mod classify;
pub mod cold;
pub mod single_flight;
pub mod wrappers;
