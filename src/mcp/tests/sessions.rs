//! The HTTP 404 session rule (docs/wire.md#mcp-streamable-http, docs/decisions.md#d5-1): forget, re-initialise, never
//! replay; `tools/list` alone is retried once; ids keep counting across re-initialisations.

use super::server::{
    first_initialize_apart, handshake, initialize_reply, Recorded, Reply, TestServer,
};
use super::support::{client, err, str_code};
use crate::mcp::McpClient;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A server giving sessions `session-1`, `session-2`, ... per initialize, and a client of it;
/// requests on a session listed in `expired` get 404, others get
/// `{tools: [{name: <session>}]}`. Also the count of initializes.
async fn rotating(expired: &'static [&'static str]) -> (Arc<AtomicUsize>, TestServer, McpClient) {
    let inits = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&inits);
    let handler = move |req: &Recorded| {
        let session = req.header("mcp-session-id").unwrap_or_default();
        match req.rpc_method().as_str() {
            "initialize" => {
                let n = seen.fetch_add(1, Ordering::SeqCst) + 1;
                let id = format!("session-{n}");
                initialize_reply(req, "2025-06-18", Some(&id))
            }
            "notifications/initialized" => Reply::status(202),
            "DELETE" => Reply::status(200),
            _ if expired.contains(&session.as_str()) => Reply::status(404),
            _ => Reply::result(req.rpc_id(), json!({"tools": [{"name": session}]})),
        }
    };
    let server = TestServer::start(handler).await;
    let client = client(&server.url());
    (inits, server, client)
}

#[tokio::test]
async fn ids_keep_counting_across_a_reinitialisation() {
    let (_, server, client) = rotating(&["session-1"]).await;
    let _ = client.call_tool("t", json!({}), None).await;
    let _ = client.call_tool("t", json!({}), None).await;
    let sequence: Vec<(String, Option<u64>)> = server
        .requests()
        .iter()
        .filter(|r| r.rpc_method() != "notifications/initialized")
        .map(|r| (r.rpc_method(), r.rpc_id()))
        .collect();
    assert_eq!(
        sequence,
        [
            ("initialize".to_string(), Some(1)),
            ("tools/call".to_string(), Some(2)),
            ("initialize".to_string(), Some(3)),
            ("tools/call".to_string(), Some(4)),
        ]
    );
}

#[tokio::test]
async fn the_expired_session_is_not_deleted_and_the_error_is_a_transport_error() {
    let (_, server, client) = rotating(&["session-1"]).await;
    let e = err(client.call_tool("t", json!({}), None).await);
    assert_eq!(str_code(&e), Some("ERR_MCP_TRANSPORT"));
    assert!(server.requests_for("DELETE").is_empty());
    assert_eq!(client.session_id().as_deref(), Some("session-2"));
    let reinit = &server.requests_for("initialize")[1];
    assert_eq!(reinit.header("mcp-session-id"), None);
    assert_eq!(reinit.header("mcp-protocol-version"), None);
}

#[tokio::test]
async fn tools_list_is_retried_once_after_the_reinitialisation() {
    let (inits, server, client) = rotating(&["session-1"]).await;
    assert_eq!(
        client.list_tools().await,
        Ok(vec![json!({"name": "session-2"})])
    );
    assert_eq!(inits.load(Ordering::SeqCst), 2);
    assert_eq!(server.requests_for("tools/list").len(), 2);
}

#[tokio::test]
async fn tools_list_is_retried_only_once() {
    let (inits, server, client) = rotating(&["session-1", "session-2", "session-3"]).await;
    let e = err(client.list_tools().await);
    assert_eq!(
        e.message,
        "adt-ls MCP tools/list: session expired (HTTP 404); reconnected, request was not retried"
    );
    assert_eq!(inits.load(Ordering::SeqCst), 3);
    assert_eq!(server.requests_for("tools/list").len(), 2);
}

#[tokio::test]
async fn generic_requests_are_not_replayed_either() {
    let (_, server, client) = rotating(&["session-1"]).await;
    let e = err(client.request("resources/list", None, None).await);
    assert_eq!(
        e.message,
        "adt-ls MCP resources/list: session expired (HTTP 404); reconnected, request was not retried"
    );
    assert_eq!(server.requests_for("resources/list").len(), 1);
}

#[tokio::test]
async fn a_404_without_a_session_is_a_plain_http_error() {
    let server =
        TestServer::start(handshake("2025-06-18", None, 202, |_| Reply::status(404))).await;
    let e = err(client(&server.url()).call_tool("t", json!({}), None).await);
    assert_eq!(e.message, "adt-ls MCP tools/call failed: HTTP 404");
    assert_eq!(server.requests_for("initialize").len(), 1);
}

#[tokio::test]
async fn a_failed_reinitialisation_is_reported() {
    let (_, handler) = first_initialize_apart(
        |req| initialize_reply(req, "2025-06-18", Some("s1")),
        |_| Reply::status(500),
        404,
    );
    let server = TestServer::start(handler).await;
    let client = client(&server.url());
    let e = err(client.call_tool("t", json!({}), None).await);
    assert_eq!(e.message, "adt-ls MCP initialize failed: HTTP 500");
    assert_eq!(server.requests_for("tools/call").len(), 1);
    assert_eq!(client.session_id(), None);
}

#[tokio::test]
async fn concurrent_404s_share_one_reinitialisation() {
    let (inits, _server, client) = rotating(&["session-1"]).await;
    assert_eq!(client.connect().await, Ok(()));
    let (a, b) = tokio::join!(
        client.call_tool("a", json!({}), None),
        client.call_tool("b", json!({}), None)
    );
    assert!(a.is_err() && b.is_err());
    assert_eq!(inits.load(Ordering::SeqCst), 2);
    assert_eq!(client.session_id().as_deref(), Some("session-2"));
}
