//! adt-ls-native: a Rust engine for SAP's headless adt-ls, exposed to Node.js through a thin
//! N-API layer (`js`). Every other module is plain Rust and knows nothing about N-API.

// Nothing reachable from JS may panic: no unwrap/expect/panic outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

#[cfg(not(test))]
#[macro_use]
extern crate napi_derive;

pub mod auth;
pub(crate) mod backlog;
pub mod cancel_scope;
pub(crate) mod cli;
pub mod client;
pub mod debug_env;

pub mod arg_error;
pub mod discovery;
pub mod doctor;
pub mod driver;
pub mod error;
pub mod federated;
pub mod identity;
pub mod json_depth;
pub mod log;
pub(crate) mod log_queue;
pub mod lsp;
pub mod mcp;
pub mod option_keys;
pub mod option_values;
pub mod process;
pub mod progress;
pub mod redact;
pub mod resilience;
pub(crate) mod safe_fs;
pub mod text;
pub mod tls;
pub mod trace;
pub mod version;

#[cfg(test)]
pub(crate) mod test_skip;

// The N-API layer is exercised through Node (`__test__/`), not by `cargo test`.
#[cfg(not(test))]
mod js;
