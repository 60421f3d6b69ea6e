//! The nesting bound against a hostile MCP server (docs/security.md, "Hostile peers:
//! nesting"): a JSON body and an SSE event nested a million levels deep are never parsed;
//! our own response fails the call with `ERR_JSON_TOO_DEEP`, a server request in the stream
//! gets a JSON-RPC error reply, a notification and another call's response are skipped.

use super::server::{chunk, serve, sse_event, Reply, TestServer};
use super::support::{assert_call_fails, info, init};
use crate::mcp::{McpClient, McpClientOptions};
use serde_json::{json, Value};
use std::time::Duration;

fn nested() -> String {
    format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000))
}

/// One SSE event whose `data` is `members` followed by a deep `params`.
fn deep_event(members: &str) -> String {
    format!("data: {{{members}\"params\":{}}}\n\n", nested())
}

/// A call to `server` fails with `ERR_JSON_TOO_DEEP` and `message`.
async fn assert_too_deep(server: &TestServer, message: &str) {
    assert_call_fails(&client(&server.url()), "t", message, "ERR_JSON_TOO_DEEP").await;
}

fn client(url: &str) -> McpClient {
    init();
    let opts = McpClientOptions {
        timeout: Duration::from_secs(20),
        ..McpClientOptions::default()
    };
    match McpClient::new(url, "secret", info(), opts) {
        Ok(c) => c,
        Err(e) => panic!("client construction failed: {e}"),
    }
}

#[tokio::test]
async fn a_deep_json_body_fails_the_call_without_being_parsed() {
    let server = serve(|req| {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{}}}"#,
            req.rpc_id().unwrap_or(0),
            nested()
        );
        Reply::raw(Some("application/json"), &body)
    })
    .await;
    assert_too_deep(
        &server,
        "adt-ls MCP tools/call: the response body is nested deeper than 100 levels; it was refused",
    )
    .await;
}

#[tokio::test]
async fn deep_events_that_are_not_our_answer_are_refused_or_skipped_and_the_call_goes_on() {
    let server = serve(|req| {
        if req.rpc_method() == "<reply>" {
            return Reply::status(202);
        }
        let id = req.rpc_id().unwrap_or(0);
        let events = [
            deep_event(r#""jsonrpc":"2.0","method":"notifications/message","#),
            deep_event(r#""jsonrpc":"2.0","id":"srv-1","method":"ping","#),
            deep_event(&format!(r#""jsonrpc":"2.0","id":{},"#, id + 1000)),
            sse_event(&json!({"jsonrpc": "2.0", "id": id, "result": {"done": true}})),
        ];
        Reply::sse(events.iter().map(|e| chunk(e)).collect(), false)
    })
    .await;
    let answer = client(&server.url()).call_tool("t", json!({}), None).await;
    assert_eq!(answer, Ok(json!({"done": true})));
    server
        .wait_until(Duration::from_secs(10), |reqs| {
            reqs.iter().any(|r| r.rpc_method() == "<reply>")
        })
        .await;
    let replies: Vec<Value> = server
        .requests_for("<reply>")
        .into_iter()
        .map(|r| r.body)
        .collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0]["id"], json!("srv-1"));
    assert_eq!(replies[0]["error"]["code"], json!(-32600));
}

#[tokio::test]
async fn a_deep_event_answering_our_call_fails_it() {
    let server = serve(|req| {
        let id = req.rpc_id().unwrap_or(0);
        let event = format!(
            "data: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{}}}\n\n",
            nested()
        );
        Reply::sse(vec![chunk(&event)], true)
    })
    .await;
    assert_too_deep(
        &server,
        "adt-ls MCP tools/call: a server-sent event is nested deeper than 100 levels; it was refused",
    )
    .await;
}
