//! Bounds against a hostile MCP server (docs/security.md): an SSE line without a newline, an
//! oversized JSON body (with and without Content-Length), and a flood of server `ping`
//! requests inside a stream, which are answered at most `max_concurrent_replies` at a time.

use super::server::{chunk, serve, sse_event, Chunk, Recorded, Reply};
use super::support::{assert_call_fails, info, init};
use crate::mcp::limits::McpLimits;
use crate::mcp::{McpClient, McpClientOptions};
use serde_json::{json, Value};
use std::time::Duration;

const LIMITS: McpLimits = McpLimits {
    max_body_bytes: 64 * 1024,
    max_event_bytes: 16 * 1024,
    max_concurrent_replies: 4,
};

fn bounded_client(url: &str) -> McpClient {
    init();
    let opts = McpClientOptions {
        timeout: Duration::from_secs(20),
        limits: LIMITS,
    };
    match McpClient::new(url, "secret", info(), opts) {
        Ok(c) => c,
        Err(e) => panic!("client construction failed: {e}"),
    }
}

fn fast(bytes: Vec<u8>) -> Chunk {
    Chunk {
        delay: Duration::ZERO,
        bytes,
    }
}

#[tokio::test]
async fn an_sse_line_without_newline_fails_at_the_event_bound_and_drops_the_stream() {
    let server = serve(|_| {
        // 8 MB offered, no newline ever (before the fix the client buffered all of it).
        let mut chunks = vec![chunk("data: ")];
        chunks.extend((0..1024).map(|_| fast(vec![b'x'; 8 * 1024])));
        Reply::sse(chunks, true)
    })
    .await;
    let client = bounded_client(&server.url());
    let message =
        "adt-ls MCP tools/call: a server-sent event exceeds 16384 bytes; the stream was dropped";
    assert_call_fails(&client, "t", message, "ERR_MCP_PROTOCOL").await;
    assert!(
        server
            .wait_event("sse-closed:tools/call", Duration::from_secs(10))
            .await
            .is_some(),
        "the stream was dropped before the server finished sending"
    );
}

#[tokio::test]
async fn an_oversized_json_body_fails_with_and_without_content_length() {
    let big = |req: &Recorded| json!({"jsonrpc": "2.0", "id": req.rpc_id(), "result": {"pad": "x".repeat(200 * 1024)}});
    let server = serve(move |req| match req.body["params"]["name"].as_str() {
        Some("declared") => Reply::json(big(req)),
        _ => Reply::Stream {
            headers: vec![("content-type".into(), "application/json".into())],
            chunks: big(req)
                .to_string()
                .into_bytes()
                .chunks(8 * 1024)
                .map(|c| fast(c.to_vec()))
                .collect(),
            keep_open: false,
        },
    })
    .await;
    let client = bounded_client(&server.url());
    for name in ["declared", "chunked"] {
        let message = "adt-ls MCP tools/call: the response body exceeds 65536 bytes; the response was dropped";
        assert_call_fails(&client, name, message, "ERR_MCP_PROTOCOL").await;
    }
    // Within the bound all is well.
    let small = serve(|req| Reply::result(req.rpc_id(), json!({"ok": true}))).await;
    let client = bounded_client(&small.url());
    assert_eq!(
        client.call_tool("t", json!({}), None).await,
        Ok(json!({"ok": true}))
    );
}

#[tokio::test]
async fn a_ping_flood_in_a_stream_is_answered_through_a_bounded_path() {
    let server = serve(|req| {
        if req.rpc_method() == "<reply>" {
            // Replies never complete: each one that is sent stays in flight.
            return Reply::Hang;
        }
        let mut flood = String::new();
        for n in 0..500 {
            flood.push_str(&sse_event(
                &json!({"jsonrpc": "2.0", "id": format!("ping-{n}"), "method": "ping"}),
            ));
        }
        let answer: Value = json!({"jsonrpc": "2.0", "id": req.rpc_id(), "result": {"done": 1}});
        Reply::sse(vec![chunk(&flood), chunk(&sse_event(&answer))], false)
    })
    .await;
    let client = bounded_client(&server.url());
    assert_eq!(
        client.call_tool("t", json!({}), None).await,
        Ok(json!({"done": 1}))
    );
    // Give any unbounded path time to show itself.
    server
        .wait_until(Duration::from_secs(2), |reqs| {
            reqs.iter().filter(|r| r.rpc_method() == "<reply>").count() > 4
        })
        .await;
    let replies = server.requests_for("<reply>").len();
    assert!(
        (1..=4).contains(&replies),
        "{replies} ping answers in flight at once (bound 4)"
    );
}
