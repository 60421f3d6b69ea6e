//! Resilience policy: error classification, cold retry, single-flight re-logon, and the
//! retry wrappers the client applies to LSP requests, MCP tool calls, searches and writes.

pub(crate) mod classify;
pub(crate) mod cold;
pub(crate) mod single_flight;
#[cfg(test)]
mod test_support;
pub(crate) mod wrappers;
