//! adt-ls-native: a Rust engine for SAP's headless adt-ls, exposed to Node.js through a thin
//! N-API layer (`js`). Every other module is plain Rust and knows nothing about N-API.

// Nothing reachable from JS may panic: no unwrap/expect/panic outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
// Visibility shows the boundaries: an item is `pub` only where `fuzzing` re-exports it.
#![warn(unreachable_pub)]
// Functions stay short: at most 80 lines (the threshold is in clippy.toml).
#![warn(clippy::too_many_lines)]
// `cargo test` does not build the binding, so what only the binding uses looks unused there;
// dead code is checked by the library build (clippy -D warnings in CI).
#![cfg_attr(test, allow(dead_code))]

#[cfg(not(test))]
#[macro_use]
extern crate napi_derive;

mod auth;
mod bounds;
mod cli;
mod client;
mod discovery;
mod doctor;
mod driver;
mod kernel;
mod lsp;
mod mcp;
mod options;
mod process;
mod resilience;
mod safe_fs;
mod tls;
mod trace;

/// What the fuzz targets (their own crate, `fuzz/`) call: the parsers of bytes that a peer
/// or a user controls. Everything else is internal to this crate.
pub mod fuzzing {
    pub use crate::auth::logon_url::extract_logon_url;
    pub use crate::auth::reentrance::{delivery_url, ticket_request_url};
    pub use crate::bounds::json_depth;
    pub use crate::kernel::error::codes;
    pub use crate::lsp::{framing, message, text};
    pub use crate::mcp::{jsonrpc as mcp_jsonrpc, sse};
    pub use crate::tls::proxy_target::ProxyTarget;
    pub use crate::tls::{jks, pem, truststore};
}

// The N-API layer is exercised through Node (`__test__/`), not by `cargo test`.
#[cfg(not(test))]
#[allow(unreachable_pub)] // napi-rs exports only `pub` functions, methods and object fields
mod js;
