//! One-to-one port of the reference's `mcp-federation.test.ts` (docs/architecture.md#tests): the
//! twelve cases against a real local HTTP server.

use super::server::{chunk, chunk_bytes, initialize_reply, mcp, sse_event, Reply, TestServer};
use super::support::{
    assert_mentions, assert_session_headers, client, client_with, err, failed_connect,
    failed_initialized, serving, single_delete, TOKEN,
};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn sessionless_2025_03_26_server_correlates_concurrent_calls() {
    let tool_result = json!({
        "content": [{"type": "text", "text": "tool failed"}],
        "isError": true,
        "structuredContent": {"reason": "x"},
        "vendorField": [1, 2]
    });
    let answer = tool_result.clone();
    let server = TestServer::start(mcp("2025-03-26", None, move |req| {
        Reply::result(req.rpc_id(), answer.clone())
    }))
    .await;
    let client = client(&server.url());

    let (a, b) = tokio::join!(
        client.call_tool("first", json!({"n": 1}), None),
        client.call_tool("second", json!({"n": 2}), None)
    );
    assert_eq!(a, Ok(tool_result.clone()));
    assert_eq!(b, Ok(tool_result));

    let requests = server.requests();
    assert_eq!(requests[0].rpc_method(), "initialize");
    assert_eq!(requests[0].rpc_id(), Some(1));
    let call_ids: BTreeSet<u64> = server
        .requests_for("tools/call")
        .iter()
        .filter_map(|r| r.rpc_id())
        .collect();
    assert_eq!(call_ids, BTreeSet::from([2, 3]));
    for req in &requests[1..] {
        assert_eq!(
            req.header("mcp-protocol-version").as_deref(),
            Some("2025-03-26")
        );
    }
    for req in &requests {
        assert_eq!(req.header("mcp-session-id"), None);
        assert_eq!(
            req.header("authorization").as_deref(),
            Some("Bearer secret")
        );
    }
    assert_eq!(client.session_id(), None);
    assert_eq!(client.protocol_version().as_deref(), Some("2025-03-26"));
}

#[tokio::test]
async fn sse_events_split_across_chunks_and_lines_are_parsed_while_the_stream_stays_open() {
    let server = TestServer::start(mcp("2025-06-18", Some("s-sse"), |req| {
        let id = req.rpc_id().unwrap_or(0);
        let notification = json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "warming up"}});
        let name = "z_t\u{00f6}\u{00f6}l_\u{2603}";
        let head = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"{name}","#);
        let head_bytes = head.as_bytes();
        // Split inside the multi-byte snowman (the last 4 bytes are `\u{2603}",`).
        let cut = head_bytes.len() - 4;
        Reply::sse(
            vec![
                chunk(": heartbeat\n\n"),
                chunk(&sse_event(&notification)),
                chunk("da"),
                chunk_bytes(&[b"ta: ", &head_bytes[..cut]].concat()),
                chunk_bytes(&head_bytes[cut..]),
                chunk("\r"),
                chunk("\ndata:\"annotations\":{\"readOnlyHint\":true,\"title\":\"Z\"},"),
                chunk("\"outputSchema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}]}}\r"),
                chunk("\n\r\n"),
            ],
            true,
        )
    }))
    .await;
    let client = client_with(&server.url(), TOKEN, Duration::from_secs(5));

    let tools = client.list_tools().await;
    assert_eq!(
        tools,
        Ok(vec![json!({
            "name": "z_t\u{00f6}\u{00f6}l_\u{2603}",
            "annotations": {"readOnlyHint": true, "title": "Z"},
            "outputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}
        })])
    );
}

#[tokio::test]
async fn pagination_passes_the_opaque_cursor_and_close_deletes_the_session() {
    let (server, client) = serving(Some("session-1"), |req| {
        match req.body.get("params").and_then(|p| p.get("cursor")) {
            None => Reply::result(
                req.rpc_id(),
                json!({"tools": [{"name": "a"}], "nextCursor": "opaque/+="}),
            ),
            Some(_) => Reply::result(req.rpc_id(), json!({"tools": [{"name": "b"}]})),
        }
    })
    .await;

    let names: Vec<Value> = client
        .list_tools()
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(names, vec![json!("a"), json!("b")]);
    let pages = server.requests_for("tools/list");
    assert_eq!(pages.len(), 2);
    assert!(pages[0].body.get("params").is_none());
    assert_eq!(pages[1].body["params"], json!({"cursor": "opaque/+="}));
    assert_eq!(
        pages[1].header("mcp-session-id").as_deref(),
        Some("session-1")
    );

    assert_eq!(client.close().await, Ok(()));
    assert_session_headers(&single_delete(&server), "session-1", "2025-06-18");
}

#[tokio::test]
async fn a_repeated_cursor_is_rejected() {
    let server = TestServer::start(mcp("2025-06-18", None, |req| {
        Reply::result(
            req.rpc_id(),
            json!({"tools": [{"name": "a"}], "nextCursor": "again"}),
        )
    }))
    .await;
    let e = err(client(&server.url()).list_tools().await);
    assert_eq!(
        e.message,
        "adt-ls MCP tools/list: repeated pagination cursor"
    );
    assert_eq!(server.requests_for("tools/list").len(), 2);
}

async fn http_status_rejects_tools(status: u16) {
    let (_server, client) = serving(None, move |_| Reply::status(status)).await;
    let call = err(client.call_tool("t", json!({}), None).await);
    assert_eq!(
        call.message,
        format!("adt-ls MCP tools/call failed: HTTP {status}")
    );
    let list = err(client.list_tools().await);
    assert_eq!(
        list.message,
        format!("adt-ls MCP tools/list failed: HTTP {status}")
    );
}

#[tokio::test]
async fn http_401_rejects_call_tool_and_list_tools() {
    http_status_rejects_tools(401).await;
}

#[tokio::test]
async fn http_500_rejects_call_tool_and_list_tools() {
    http_status_rejects_tools(500).await;
}

#[tokio::test]
async fn json_rpc_errors_and_results_without_tools_reject() {
    let (_server, client) = serving(None, |req| match req.rpc_method().as_str() {
        "tools/call" => Reply::json(json!({"jsonrpc": "2.0", "id": req.rpc_id(),
            "error": {"code": -32601, "message": "Method not found"}})),
        _ => Reply::result(req.rpc_id(), json!({"notTools": []})),
    })
    .await;
    let call = err(client.call_tool("t", json!({}), None).await);
    assert_mentions(&call, &["-32601", "Method not found"]);
    let list = err(client.list_tools().await);
    assert_eq!(
        list.message,
        "adt-ls MCP tools/list: missing or invalid tools"
    );
}

#[tokio::test]
async fn mismatched_json_ids_and_streams_without_a_response_reject() {
    let (_server, client) = serving(None, |req| match req.rpc_method().as_str() {
        "tools/call" => Reply::result(Some(req.rpc_id().unwrap_or(0) + 100), json!({})),
        _ => {
            let other = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}});
            Reply::sse(vec![chunk(&sse_event(&other))], false)
        }
    })
    .await;
    let call = err(client.call_tool("t", json!({}), None).await);
    assert_mentions(&call, &["mismatched"]);
    let list = err(client.list_tools().await);
    assert_mentions(&list, &["without a matching"]);
}

#[tokio::test]
async fn http_404_reinitialises_without_replaying_the_call() {
    let inits = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&inits);
    let server = TestServer::start(move |req| match req.rpc_method().as_str() {
        "initialize" => {
            let n = seen.fetch_add(1, Ordering::SeqCst) + 1;
            let session = if n == 1 { "session-1" } else { "session-2" };
            initialize_reply(req, "2025-06-18", Some(session))
        }
        "notifications/initialized" => Reply::status(202),
        _ if req.header("mcp-session-id").as_deref() == Some("session-1") => Reply::status(404),
        _ => Reply::result(req.rpc_id(), json!({"content": [], "ok": true})),
    })
    .await;
    let client = client(&server.url());

    let first = err(client.call_tool("mutate", json!({}), None).await);
    assert_eq!(
        first.message,
        "adt-ls MCP tools/call: session expired (HTTP 404); reconnected, request was not retried"
    );
    assert_eq!(inits.load(Ordering::SeqCst), 2);
    assert_eq!(server.requests_for("tools/call").len(), 1);

    let second = client.call_tool("mutate", json!({}), None).await;
    assert_eq!(second, Ok(json!({"content": [], "ok": true})));
    let calls = server.requests_for("tools/call");
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[1].header("mcp-session-id").as_deref(),
        Some("session-2")
    );
}

#[tokio::test]
async fn an_unsupported_protocol_rejects_and_deletes_the_session() {
    let (server, client, e) =
        failed_connect(mcp("2099-01-01", Some("s-bad"), |_| Reply::status(500))).await;
    assert_eq!(e.message, "Unsupported MCP protocol version: 2099-01-01");
    assert_eq!(
        single_delete(&server).header("mcp-session-id").as_deref(),
        Some("s-bad")
    );
    assert!(server.requests_for("notifications/initialized").is_empty());
    assert_eq!(client.session_id(), None);
}

#[tokio::test]
async fn initialized_answered_404_rejects_after_one_initialize_and_a_delete() {
    let (server, _client, e) = failed_initialized(Some("s-404"), 404, 200).await;
    assert_eq!(
        e.message,
        "adt-ls MCP notifications/initialized failed: HTTP 404"
    );
    assert_eq!(server.requests_for("initialize").len(), 1);
    assert_eq!(server.requests_for("DELETE").len(), 1);
}

#[tokio::test]
async fn a_hung_tool_call_times_out_and_is_sent_once() {
    let (server, client) = serving(None, |_| Reply::Hang).await;
    let e = err(client
        .call_tool("slow", json!({}), Some(Duration::from_millis(100)))
        .await);
    assert!(
        e.message.to_lowercase().contains("timeout") || e.message.contains("aborted"),
        "{}",
        e.message
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.requests_for("tools/call").len(), 1);
}
