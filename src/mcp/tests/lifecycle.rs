//! Timeouts, close (DELETE) and shutdown, and the bearer token staying out of errors and logs.

use super::server::{chunk, handshake, mcp, Recorded, Reply, TestServer};
use super::support::{answering, client, client_with, err, log_lines, serving, str_code, TOKEN};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn the_default_timeout_comes_from_the_options() {
    let server = TestServer::start(mcp("2025-06-18", None, |_| Reply::Hang)).await;
    let client = client_with(&server.url(), TOKEN, Duration::from_millis(150));
    let started = Instant::now();
    let e = err(client.call_tool("t", json!({}), None).await);
    assert_eq!(
        e.message,
        "adt-ls MCP tools/call aborted: timeout after 150ms"
    );
    assert_eq!(str_code(&e), Some("ETIMEDOUT"));
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_per_call_timeout_overrides_the_default() {
    let server = TestServer::start(mcp("2025-06-18", None, |req| {
        Reply::Delayed(
            Duration::from_millis(300),
            Box::new(Reply::result(req.rpc_id(), json!({}))),
        )
    }))
    .await;
    let client = client_with(&server.url(), TOKEN, Duration::from_millis(150));
    assert_eq!(client.connect().await, Ok(()));
    let longer = client
        .call_tool("t", json!({}), Some(Duration::from_secs(5)))
        .await;
    assert_eq!(longer, Ok(json!({})));
    let e = err(client
        .request("ping", None, Some(Duration::from_millis(50)))
        .await);
    assert_eq!(e.message, "adt-ls MCP ping aborted: timeout after 50ms");
}

#[tokio::test]
async fn the_timeout_covers_reading_the_stream() {
    let (server, client) = serving(None, |_| {
        Reply::sse(vec![chunk(": still working\n\n")], true)
    })
    .await;
    let e = err(client
        .call_tool("t", json!({}), Some(Duration::from_millis(200)))
        .await);
    assert_eq!(
        e.message,
        "adt-ls MCP tools/call aborted: timeout after 200ms"
    );
    assert_eq!(server.requests_for("tools/call").len(), 1);
}

#[tokio::test]
async fn close_without_a_session_sends_nothing() {
    let (server, client) = serving(None, |_| Reply::status(500)).await;
    assert_eq!(client.connect().await, Ok(()));
    assert_eq!(client.close().await, Ok(()));
    assert!(server.requests_for("DELETE").is_empty());
    assert_eq!(client.protocol_version(), None);
}

async fn close_with_delete_status(
    status: u16,
) -> (crate::kernel::error::Result<()>, Option<String>) {
    let server = TestServer::start(handshake("2025-06-18", Some("to-close"), 202, move |_| {
        Reply::status(status)
    }))
    .await;
    let client = client(&server.url());
    assert_eq!(client.connect().await, Ok(()));
    let result = client.close().await;
    assert_eq!(server.requests_for("DELETE").len(), 1);
    (result, client.session_id())
}

#[tokio::test]
async fn close_accepts_2xx_404_and_405() {
    for status in [200, 204, 404, 405] {
        assert_eq!(
            close_with_delete_status(status).await,
            (Ok(()), None),
            "{status}"
        );
    }
}

#[tokio::test]
async fn close_reports_other_statuses_after_clearing_the_session() {
    let (result, session) = close_with_delete_status(500).await;
    let e = err(result);
    assert_eq!(e.message, "adt-ls MCP close failed: HTTP 500");
    assert_eq!(str_code(&e), Some("ERR_MCP_TRANSPORT"));
    assert_eq!(session, None);
}

#[tokio::test]
async fn a_closed_client_reconnects_on_the_next_call() {
    let (server, client) = answering(Some("again"), json!({})).await;
    assert_eq!(client.connect().await, Ok(()));
    assert_eq!(client.close().await, Ok(()));
    assert_eq!(client.call_tool("t", json!({}), None).await, Ok(json!({})));
    assert_eq!(server.requests_for("initialize").len(), 2);
}

async fn hanging_delete(timeout: Duration) -> (crate::kernel::error::Error, Duration) {
    let server = TestServer::start(handshake("2025-06-18", Some("slow-close"), 202, |_| {
        Reply::Hang
    }))
    .await;
    let client = client_with(&server.url(), TOKEN, timeout);
    assert_eq!(client.connect().await, Ok(()));
    let started = Instant::now();
    let e = err(client.close().await);
    (e, started.elapsed())
}

#[tokio::test]
async fn close_waits_at_most_the_call_timeout() {
    let (e, took) = hanging_delete(Duration::from_millis(300)).await;
    assert_eq!(e.message, "adt-ls MCP close aborted: timeout after 300ms");
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[tokio::test]
async fn close_waits_at_most_five_seconds() {
    let (e, took) = hanging_delete(Duration::from_secs(60)).await;
    assert_eq!(e.message, "adt-ls MCP close aborted: timeout after 5000ms");
    assert!(
        took >= Duration::from_millis(4900) && took < Duration::from_secs(8),
        "{took:?}"
    );
}

#[tokio::test]
async fn shutdown_rejects_in_flight_and_later_calls_promptly() {
    let server = TestServer::start(mcp("2025-06-18", Some("s"), |_| Reply::Hang)).await;
    let client = client_with(&server.url(), TOKEN, Duration::from_secs(30));
    assert_eq!(client.connect().await, Ok(()));
    let pending = tokio::spawn({
        let client = client.clone();
        async move { client.call_tool("t", json!({}), None).await }
    });
    let listing = tokio::spawn({
        let client = client.clone();
        async move { client.list_tools().await }
    });
    assert!(
        server
            .wait_until(Duration::from_secs(3), |r| r.len() >= 4)
            .await
    );
    let started = Instant::now();
    client.shutdown();
    let e = match tokio::time::timeout(Duration::from_secs(1), pending).await {
        Ok(Ok(result)) => err(result),
        other => panic!("in-flight call did not reject promptly: {other:?}"),
    };
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!(e.message, "adt-ls MCP client closed");
    assert_eq!(str_code(&e), Some("ERR_DISPOSED"));
    match tokio::time::timeout(Duration::from_secs(1), listing).await {
        Ok(Ok(result)) => assert_eq!(err(result).message, "adt-ls MCP client closed"),
        other => panic!("in-flight listing did not reject promptly: {other:?}"),
    }
    let later = err(client.call_tool("t", json!({}), None).await);
    assert_eq!(str_code(&later), Some("ERR_DISPOSED"));
    assert_eq!(str_code(&err(client.connect().await)), Some("ERR_DISPOSED"));
    // Disposal can still release the server-side session.
    let requests_before = server.requests_for("DELETE").len();
    let _ = client.close().await;
    assert_eq!(server.requests_for("DELETE").len(), requests_before + 1);
}

#[tokio::test]
async fn shutdown_rejects_a_pending_connect() {
    let server = TestServer::start(|_: &Recorded| Reply::Hang).await;
    let client = client_with(&server.url(), TOKEN, Duration::from_secs(30));
    let pending = tokio::spawn({
        let client = client.clone();
        async move { client.connect().await }
    });
    assert!(
        server
            .wait_until(Duration::from_secs(3), |r| !r.is_empty())
            .await
    );
    client.shutdown();
    match tokio::time::timeout(Duration::from_secs(1), pending).await {
        Ok(Ok(result)) => assert_eq!(str_code(&err(result)), Some("ERR_DISPOSED")),
        other => panic!("pending connect did not reject promptly: {other:?}"),
    }
}

#[tokio::test]
async fn the_token_never_appears_in_errors_or_logs() {
    let token = "tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    let server = TestServer::start(mcp("2025-06-18", None, move |req| {
        Reply::json(
            json!({"jsonrpc": "2.0", "id": req.rpc_id(), "error": {"code": -32000,
            "message": format!("bad token {token}")}}),
        )
    }))
    .await;
    let client = client_with(&server.url(), token, Duration::from_secs(5));
    let e = err(client.call_tool("t", json!({}), None).await);
    assert_eq!(
        e.message,
        "adt-ls MCP tools/call error (-32000): bad token ***"
    );
    let auth = server.requests()[0].header("authorization");
    assert_eq!(auth, Some(format!("Bearer {token}")));
    assert!(log_lines().iter().all(|(_, line)| !line.contains(token)));
    assert!(!format!("{e:?}").contains(token));
}
