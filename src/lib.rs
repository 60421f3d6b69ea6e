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
pub mod bounds;
pub(crate) mod cli;
pub mod client;
pub mod discovery;
pub mod doctor;
pub mod driver;
pub mod kernel;
pub mod lsp;
pub mod mcp;
pub mod options;
pub mod process;
pub mod resilience;
pub(crate) mod safe_fs;
pub mod tls;
pub mod trace;

// The N-API layer is exercised through Node (`__test__/`), not by `cargo test`.
#[cfg(not(test))]
mod js;
