//! Response handling: media types, JSON bodies (objects and batches), SSE streams
//! (notifications, server requests, other ids, early drop, EOF, bad data), and error shapes.

use super::server::{chunk, serve, sse_event, Recorded, Reply, TestServer};
use super::support::{
    assert_call_fails, assert_session_headers, call_error, client, client_with, log_lines, TOKEN,
};
use crate::kernel::error::ErrorCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A server answering each request with a kept-open SSE stream of `events(id)`, one chunk
/// per event, where `id` is the request's JSON-RPC id (0 when it has none).
async fn serve_events(events: impl Fn(u64) -> Vec<Value> + Send + Sync + 'static) -> TestServer {
    serve(move |req| {
        let events = events(req.rpc_id().unwrap_or(0));
        Reply::sse(events.iter().map(|e| chunk(&sse_event(e))).collect(), true)
    })
    .await
}

fn response(req: &Recorded, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": req.rpc_id(), "result": result})
}

#[tokio::test]
async fn media_type_parameters_and_whitespace_are_ignored() {
    let server = serve(|req| match req.body["params"]["name"].as_str() {
        Some("json") => Reply::raw(
            Some(" application/json ; charset=utf-8"),
            &response(req, json!({"via": "json"})).to_string(),
        ),
        _ => Reply::Stream {
            headers: vec![(
                "content-type".into(),
                "text/event-stream;charset=UTF-8".into(),
            )],
            chunks: vec![chunk(&sse_event(&response(req, json!({"via": "sse"}))))],
            keep_open: false,
        },
    })
    .await;
    let client = client(&server.url());
    for tool in ["json", "sse"] {
        assert_eq!(
            client.call_tool(tool, json!({}), None).await,
            Ok(json!({ "via": tool }))
        );
    }
}

#[tokio::test]
async fn other_content_types_are_rejected() {
    let server = serve(|req| match req.body["params"]["name"].as_str() {
        Some("html") => Reply::raw(Some("text/html"), "<html></html>"),
        Some("upper") => Reply::raw(Some("Application/JSON"), "{}"),
        _ => Reply::raw(None, "{}"),
    })
    .await;
    let client = client(&server.url());
    for (tool, content_type) in [
        ("html", "text/html"),
        ("upper", "Application/JSON"),
        ("none", "<missing>"),
    ] {
        let message = format!("Unsupported MCP response Content-Type: {content_type}");
        assert_call_fails(&client, tool, &message, "ERR_MCP_PROTOCOL").await;
    }
}

#[tokio::test]
async fn json_bodies_must_be_a_well_formed_response_to_our_id() {
    let server = serve(|req| {
        let id = req.rpc_id();
        match req.body["params"]["name"].as_str() {
            Some("no-version") => Reply::json(json!({"id": id, "result": {}})),
            Some("old-version") => Reply::json(json!({"jsonrpc": "1.0", "id": id, "result": {}})),
            Some("no-result") => Reply::json(json!({"jsonrpc": "2.0", "id": id})),
            Some("string-id") => Reply::json(
                json!({"jsonrpc": "2.0", "id": id.map(|i| i.to_string()), "result": {}}),
            ),
            _ => Reply::raw(Some("application/json"), "this is not json"),
        }
    })
    .await;
    let client = client(&server.url());
    for name in ["no-version", "old-version", "no-result", "string-id"] {
        let message = "Invalid or mismatched MCP JSON-RPC response";
        assert_call_fails(&client, name, message, "ERR_MCP_PROTOCOL").await;
    }
    let message = "adt-ls MCP tools/call: response body is not valid JSON: this is not json";
    assert_call_fails(&client, "garbage", message, "ERR_MCP_PROTOCOL").await;
}

#[tokio::test]
async fn json_batches_and_sse_batches_yield_our_response() {
    let server = serve(|req| {
        let id = req.rpc_id().unwrap_or(0);
        let batch = json!([
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {}},
            {"jsonrpc": "2.0", "id": id + 50, "result": {"who": "other"}},
            {"jsonrpc": "2.0", "id": id, "result": {"who": "us"}}
        ]);
        match req.body["params"]["name"].as_str() {
            Some("json") => Reply::json(batch),
            _ => Reply::sse(vec![chunk(&sse_event(&batch))], true),
        }
    })
    .await;
    let client = client(&server.url());
    for tool in ["json", "sse"] {
        assert_eq!(
            client.call_tool(tool, json!({}), None).await,
            Ok(json!({"who": "us"})),
            "{tool}"
        );
    }
}

#[tokio::test]
async fn sse_notifications_and_other_ids_are_skipped() {
    let server = serve_events(|id| {
        vec![
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}),
            json!({"jsonrpc": "2.0", "id": id + 7, "result": {"no": 1}}),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "x"}}),
            json!({"jsonrpc": "2.0", "id": id, "result": {"yes": 1}}),
        ]
    })
    .await;
    let client = client(&server.url());
    assert_eq!(
        client.call_tool("t", json!({}), None).await,
        Ok(json!({"yes": 1}))
    );
    assert!(log_lines().iter().any(|(_, l)| {
        l == "adt-ls MCP tools/call: skipped notification notifications/progress"
    }));
}

#[tokio::test]
async fn server_requests_in_a_stream_are_answered_by_a_separate_post() {
    let server = serve_events(|id| {
        vec![
            json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 77, "method": "sampling/createMessage", "params": {}}),
            json!({"jsonrpc": "2.0", "id": id, "result": {"done": true}}),
        ]
    })
    .await;
    let client = client(&server.url());
    assert_eq!(
        client.call_tool("t", json!({}), None).await,
        Ok(json!({"done": true}))
    );
    let replied = server
        .wait_until(Duration::from_secs(3), |reqs| {
            reqs.iter().filter(|r| r.rpc_method() == "<reply>").count() == 2
        })
        .await;
    assert!(replied);
    let replies = server.requests_for("<reply>");
    let by_id = |id: Value| {
        replies
            .iter()
            .find(|r| r.body["id"] == id)
            .map(|r| r.body.clone())
    };
    assert_eq!(
        by_id(json!("srv-1")),
        Some(json!({"jsonrpc": "2.0", "id": "srv-1", "result": {}}))
    );
    assert_eq!(
        by_id(json!(77)),
        Some(
            json!({"jsonrpc": "2.0", "id": 77, "error": {"code": -32601, "message": "Method not found"}})
        )
    );
    for reply in &replies {
        assert_session_headers(reply, "sid", "2025-06-18");
        assert_eq!(
            reply.header("authorization").as_deref(),
            Some("Bearer secret")
        );
    }
}

#[tokio::test]
async fn the_stream_is_dropped_as_soon_as_our_response_arrives() {
    let server =
        serve_events(|id| vec![json!({"jsonrpc": "2.0", "id": id, "result": {"ok": true}})]).await;
    let client = client_with(&server.url(), TOKEN, Duration::from_secs(20));
    let started = Instant::now();
    assert_eq!(
        client.call_tool("t", json!({}), None).await,
        Ok(json!({"ok": true}))
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let closed = server
        .wait_event("sse-closed:tools/call", Duration::from_secs(5))
        .await;
    assert!(closed.is_some(), "the client kept the stream open");
}

#[tokio::test]
async fn a_stream_that_ends_without_our_response_fails_and_trailing_events_do_not_count() {
    let server = serve(|req| {
        // Our answer is there, but without its terminating blank line.
        Reply::sse(
            vec![
                chunk(": hi\n\n"),
                chunk(&format!("data: {}\n", response(req, json!({})))),
            ],
            false,
        )
    })
    .await;
    let message = "MCP stream ended without a matching JSON-RPC response";
    assert_call_fails(&client(&server.url()), "t", message, "ERR_MCP_PROTOCOL").await;
}

#[tokio::test]
async fn non_json_sse_data_is_a_protocol_error_quoting_80_characters() {
    let long = "x".repeat(200);
    let server = serve(move |_| Reply::sse(vec![chunk(&format!("data: <{long}\n\n"))], true)).await;
    let expected = format!(
        "adt-ls MCP tools/call: SSE data is not valid JSON: <{}",
        "x".repeat(79)
    );
    assert_call_fails(&client(&server.url()), "t", &expected, "ERR_MCP_PROTOCOL").await;
}

#[tokio::test]
async fn an_invalid_response_with_our_id_in_a_stream_is_rejected() {
    let server = serve_events(|id| vec![json!({"id": id, "result": {}})]).await;
    let e = call_error(&client(&server.url()), "t").await;
    assert_eq!(e.message, "Invalid or mismatched MCP JSON-RPC response");
}

#[tokio::test]
async fn http_errors_are_transport_errors_and_bodies_are_discarded() {
    let server = serve(|req| {
        Reply::json_with(
            503,
            json!({"jsonrpc": "2.0", "id": req.rpc_id(),
            "error": {"code": 1, "message": "ignored body"}}),
            &[],
        )
    })
    .await;
    let message = "adt-ls MCP tools/call failed: HTTP 503";
    assert_call_fails(&client(&server.url()), "t", message, "ERR_MCP_TRANSPORT").await;
}

#[tokio::test]
async fn json_rpc_errors_keep_code_and_data() {
    let server = serve(|req| {
        Reply::json(json!({"jsonrpc": "2.0", "id": req.rpc_id(),
            "error": {"code": -32602, "message": "Invalid params", "data": {"field": "uris"}}}))
    })
    .await;
    let e = call_error(&client(&server.url()), "t").await;
    assert_eq!(
        e.message,
        "adt-ls MCP tools/call error (-32602): Invalid params"
    );
    assert_eq!(e.code, Some(ErrorCode::Num(-32602)));
    assert_eq!(e.data.as_deref(), Some(&json!({"field": "uris"})));
}

#[tokio::test]
async fn missing_non_object_and_array_results_are_rejected() {
    let server = serve(|req| match req.body["params"]["name"].as_str() {
        Some("array") => Reply::result(req.rpc_id(), json!([1])),
        Some("string") => Reply::result(req.rpc_id(), json!("s")),
        _ => Reply::result(req.rpc_id(), Value::Null),
    })
    .await;
    let client = client(&server.url());
    for name in ["array", "string", "null"] {
        let e = call_error(&client, name).await;
        assert_eq!(
            e.message, "adt-ls MCP tools/call: missing or invalid result",
            "{name}"
        );
    }
}
