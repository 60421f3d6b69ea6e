//! The connect handshake: exact initialize params and headers, version negotiation, the
//! initialized notification's 202 rule, single flight, cleanup on failure, the debug line.

use super::server::{first_initialize_apart, initialize_reply, mcp, Recorded, Reply, TestServer};
use super::support::{
    answering, assert_client_headers, assert_session_headers, client, err, failed_connect,
    failed_initialized, log_lines, serving, single_delete, str_code,
};
use crate::kernel::log::Level;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[tokio::test]
async fn initialize_and_initialized_are_sent_exactly_as_specified() {
    let (server, client) = serving(Some("sess-A"), |_| Reply::status(500)).await;
    assert_eq!(client.connect().await, Ok(()));

    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let init = &requests[0];
    assert_eq!(init.http_method, "POST");
    assert_eq!(init.path, "/mcp");
    assert_eq!(
        init.body.to_string(),
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "adt-ls-native", "version": "0.1.0"}}})
        .to_string()
    );
    assert_eq!(init.header("mcp-protocol-version"), None);
    assert_eq!(init.header("mcp-session-id"), None);
    for req in &requests {
        assert_client_headers(req);
    }
    let initialized = &requests[1];
    assert_eq!(
        initialized.body,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    assert_session_headers(initialized, "sess-A", "2025-06-18");
    assert_eq!(client.session_id().as_deref(), Some("sess-A"));
    assert_eq!(client.protocol_version().as_deref(), Some("2025-06-18"));
}

#[tokio::test]
async fn both_supported_versions_are_accepted_and_others_rejected() {
    for version in ["2025-06-18", "2025-03-26"] {
        let server = TestServer::start(mcp(version, None, |_| Reply::status(500))).await;
        let client = client(&server.url());
        assert_eq!(client.connect().await, Ok(()), "{version}");
        assert_eq!(client.protocol_version().as_deref(), Some(version));
    }
    let (server, _client, e) =
        failed_connect(mcp("2024-11-05", None, |_| Reply::status(500))).await;
    assert_eq!(e.message, "Unsupported MCP protocol version: 2024-11-05");
    assert_eq!(str_code(&e), Some("ERR_MCP_PROTOCOL"));
    assert!(server.requests_for("notifications/initialized").is_empty());
    // No session was allocated, so nothing is deleted.
    assert!(server.requests_for("DELETE").is_empty());
}

#[tokio::test]
async fn initialized_must_be_answered_with_202() {
    let (server, client, e) = failed_initialized(Some("s"), 200, 200).await;
    assert_eq!(
        e.message,
        "adt-ls MCP notifications/initialized: expected HTTP 202, got 200"
    );
    assert_eq!(server.requests_for("DELETE").len(), 1);
    assert_eq!(client.session_id(), None);
}

#[tokio::test]
async fn initialized_with_an_error_status_fails_without_reinitialising() {
    let (server, _client, e) = failed_initialized(None, 500, 500).await;
    assert_eq!(
        e.message,
        "adt-ls MCP notifications/initialized failed: HTTP 500"
    );
    assert_eq!(str_code(&e), Some("ERR_MCP_TRANSPORT"));
    assert_eq!(server.requests_for("initialize").len(), 1);
}

#[tokio::test]
async fn concurrent_connects_share_one_attempt_and_connect_is_idempotent() {
    let server = TestServer::start(|req: &Recorded| match req.rpc_method().as_str() {
        "initialize" => Reply::Delayed(
            Duration::from_millis(100),
            Box::new(initialize_reply(req, "2025-06-18", Some("one"))),
        ),
        "notifications/initialized" => Reply::status(202),
        _ => Reply::status(500),
    })
    .await;
    let client = client(&server.url());
    let (a, b, c) = tokio::join!(client.connect(), client.connect(), client.connect());
    assert_eq!((a, b, c), (Ok(()), Ok(()), Ok(())));
    assert_eq!(client.connect().await, Ok(()));
    assert_eq!(server.requests_for("initialize").len(), 1);
    assert_eq!(server.requests_for("notifications/initialized").len(), 1);
}

#[tokio::test]
async fn concurrent_connects_share_one_failure_and_a_later_connect_tries_again() {
    let (attempts, handler) = first_initialize_apart(
        |_| Reply::Delayed(Duration::from_millis(100), Box::new(Reply::status(503))),
        |req| initialize_reply(req, "2025-06-18", None),
        500,
    );
    let server = TestServer::start(handler).await;
    let client = client(&server.url());
    let (a, b) = tokio::join!(client.connect(), client.connect());
    let expected = "adt-ls MCP initialize failed: HTTP 503";
    assert_eq!(err(a).message, expected);
    assert_eq!(err(b).message, expected);
    assert_eq!(attempts.load(Ordering::SeqCst), 1);
    assert_eq!(client.connect().await, Ok(()));
    assert_eq!(attempts.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_failed_initialize_with_a_session_is_deleted_and_rethrown() {
    let (server, _client, e) = failed_connect(|req: &Recorded| match req.rpc_method().as_str() {
        "initialize" => Reply::json_with(
            200,
            json!({"jsonrpc": "2.0", "id": req.rpc_id(),
                   "error": {"code": -32000, "message": "no destination"}}),
            &[("mcp-session-id", "doomed")],
        ),
        _ => Reply::status(200),
    })
    .await;
    assert_eq!(
        e.message,
        "adt-ls MCP initialize error (-32000): no destination"
    );
    assert_eq!(
        single_delete(&server).header("mcp-session-id").as_deref(),
        Some("doomed")
    );
}

#[tokio::test]
async fn calls_connect_first() {
    let (server, client) = answering(None, json!({"tools": []})).await;
    assert_eq!(client.list_tools().await, Ok(vec![]));
    let methods: Vec<String> = server.requests().iter().map(|r| r.rpc_method()).collect();
    assert_eq!(
        methods,
        ["initialize", "notifications/initialized", "tools/list"]
    );
}

#[tokio::test]
async fn a_successful_connect_logs_the_federation_debug_line() {
    let server = TestServer::start(mcp("2025-06-18", None, |_| Reply::status(500))).await;
    assert_eq!(client(&server.url()).connect().await, Ok(()));
    assert!(log_lines().iter().any(
        |(level, line)| *level == Level::Debug && line == "federation: connected to adt-ls MCP"
    ));
}
