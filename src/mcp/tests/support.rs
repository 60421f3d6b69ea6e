//! Shared test helpers: the crypto provider, a log capture sink, client construction, a
//! scripted server with its client, a connect that must fail, the checks of a failed call,
//! and the checks of what the client sent (headers, the DELETE).

use super::server::{handshake, mcp, Recorded, Reply, TestServer};
use crate::kernel::error::{Error, ErrorCode};
use crate::kernel::log::{self, Level};
use crate::mcp::{ClientInfo, McpClient, McpClientOptions};
use serde_json::{json, Value};
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

/// A client connecting to a server answering with `handler`: the server, the client and
/// the error the connect failed with (a successful connect fails the test).
pub(super) async fn failed_connect(
    handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
) -> (TestServer, McpClient, Error) {
    let server = TestServer::start(handler).await;
    let client = client(&server.url());
    let e = err(client.connect().await);
    (server, client, e)
}

/// A server running the MCP lifecycle (`2025-06-18`, `session`) that passes every other
/// request to `rest`, and a client of it.
pub(super) async fn serving(
    session: Option<&'static str>,
    rest: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
) -> (TestServer, McpClient) {
    let server = TestServer::start(mcp("2025-06-18", session, rest)).await;
    let client = client(&server.url());
    (server, client)
}

/// [`serving`] with every other request answered with `result`.
pub(super) async fn answering(
    session: Option<&'static str>,
    result: Value,
) -> (TestServer, McpClient) {
    serving(session, move |req| {
        Reply::result(req.rpc_id(), result.clone())
    })
    .await
}

/// The error the call of `tool` (no arguments, the client's own timeout) fails with.
pub(super) async fn call_error(client: &McpClient, tool: &str) -> Error {
    err(client.call_tool(tool, json!({}), None).await)
}

/// The call of `tool` fails with `message` and the string code `code`; the error, for
/// further checks.
pub(super) async fn assert_call_fails(
    client: &McpClient,
    tool: &str,
    message: &str,
    code: &str,
) -> Error {
    let e = call_error(client, tool).await;
    assert_eq!(e.message, message, "{tool}");
    assert_eq!(str_code(&e), Some(code), "{tool}: {e:?}");
    e
}

/// A connect to a server whose initialized notification gets the status `initialized` and
/// every request after it the status `other`: the server, the client and the connect's error.
pub(super) async fn failed_initialized(
    session: Option<&'static str>,
    initialized: u16,
    other: u16,
) -> (TestServer, McpClient, Error) {
    failed_connect(handshake("2025-06-18", session, initialized, move |_| {
        Reply::status(other)
    }))
    .await
}

/// `e`'s message contains each of `parts`.
pub(super) fn assert_mentions(e: &Error, parts: &[&str]) {
    for part in parts {
        assert!(e.message.contains(part), "{part:?} not in {}", e.message);
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

/// `req` carries the headers the client sends on every request: the bearer token, the JSON
/// content type and the accepted answer types.
pub(super) fn assert_client_headers(req: &Recorded) {
    assert_eq!(
        req.header("authorization").as_deref(),
        Some("Bearer secret")
    );
    assert_eq!(
        req.header("content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        req.header("accept").as_deref(),
        Some("application/json, text/event-stream")
    );
}

/// `req` carries the session id `session` and the negotiated protocol `version`.
pub(super) fn assert_session_headers(req: &Recorded, session: &str, version: &str) {
    assert_eq!(req.header("mcp-session-id").as_deref(), Some(session));
    assert_eq!(req.header("mcp-protocol-version").as_deref(), Some(version));
}

/// The one DELETE `server` saw (any other number of them fails the test).
pub(super) fn single_delete(server: &TestServer) -> Recorded {
    let deletes = server.requests_for("DELETE");
    assert_eq!(deletes.len(), 1);
    deletes[0].clone()
}
