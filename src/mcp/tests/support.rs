//! Shared test helpers: the crypto provider, a log capture sink, client construction.

use crate::kernel::error::{Error, ErrorCode};
use crate::kernel::log::{self, Level};
use crate::mcp::{ClientInfo, McpClient, McpClientOptions};
use std::time::Duration;

pub(super) const TOKEN: &str = "secret";

/// Install the ring provider once (ignore "already installed").
pub(super) fn init() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    logs();
}

pub(super) fn info() -> ClientInfo {
    ClientInfo {
        name: "adt-ls-native".to_string(),
        version: "0.1.0".to_string(),
    }
}

pub(super) fn client(url: &str) -> McpClient {
    client_with(url, TOKEN, Duration::from_secs(10))
}

pub(super) fn client_with(url: &str, token: &str, timeout: Duration) -> McpClient {
    init();
    match McpClient::new(
        url,
        token,
        info(),
        McpClientOptions {
            timeout,
            ..McpClientOptions::default()
        },
    ) {
        Ok(client) => client,
        Err(e) => panic!("client construction failed: {e}"),
    }
}

/// Start capturing log lines (the process-wide test capture).
pub(super) fn logs() {
    log::testing::capture_logs();
}

pub(super) fn log_lines() -> Vec<(Level, String)> {
    log::testing::lines()
}

/// The error of `result`, failing the test on success.
pub(super) fn err<T: std::fmt::Debug>(result: crate::kernel::error::Result<T>) -> Error {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e,
    }
}

pub(super) fn str_code(e: &Error) -> Option<&str> {
    match &e.code {
        Some(ErrorCode::Str(s)) => Some(s.as_str()),
        _ => None,
    }
}
