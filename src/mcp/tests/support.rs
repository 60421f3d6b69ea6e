//! Shared test helpers: the crypto provider, a log capture sink, client construction.

use crate::error::{Error, ErrorCode};
use crate::log::{self, Level, Sink};
use crate::mcp::{ClientInfo, McpClient, McpClientOptions};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

pub const TOKEN: &str = "secret";

/// Install the ring provider once (ignore "already installed").
pub fn init() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    logs();
}

pub fn info() -> ClientInfo {
    ClientInfo {
        name: "adt-ls-native".to_string(),
        version: "0.1.0".to_string(),
    }
}

pub fn client(url: &str) -> McpClient {
    client_with(url, TOKEN, Duration::from_secs(10))
}

pub fn client_with(url: &str, token: &str, timeout: Duration) -> McpClient {
    init();
    match McpClient::new(url, token, info(), McpClientOptions { timeout }) {
        Ok(client) => client,
        Err(e) => panic!("client construction failed: {e}"),
    }
}

/// Every log line the engine emitted in this test process.
#[derive(Default)]
pub struct Capture(Mutex<Vec<(Level, String)>>);

impl Sink for Capture {
    fn log(&self, level: Level, message: String) {
        if let Ok(mut lines) = self.0.lock() {
            lines.push((level, message));
        }
    }
}

pub fn logs() -> Arc<Capture> {
    static CAPTURE: OnceLock<Arc<Capture>> = OnceLock::new();
    CAPTURE
        .get_or_init(|| {
            let capture = Arc::new(Capture::default());
            log::set_sink(Some(capture.clone()));
            capture
        })
        .clone()
}

pub fn log_lines() -> Vec<(Level, String)> {
    logs().0.lock().map(|l| l.clone()).unwrap_or_default()
}

/// The error of `result`, failing the test on success.
pub fn err<T: std::fmt::Debug>(result: crate::error::Result<T>) -> Error {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e,
    }
}

pub fn str_code(e: &Error) -> Option<&str> {
    match &e.code {
        Some(ErrorCode::Str(s)) => Some(s.as_str()),
        _ => None,
    }
}
