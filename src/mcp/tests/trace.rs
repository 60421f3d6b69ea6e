//! The wire trace of the MCP transport (docs/tracing.md): every JSON-RPC message both ways,
//! with the HTTP status and session id; SSE-delivered notifications and server requests and
//! our replies to them; a refused status and the DELETE as lines without a message; the bearer
//! token never written.

use super::server::{chunk, mcp, sse_event, Reply, TestServer};
use super::support::{info, init, TOKEN};
use crate::mcp::{McpClient, McpClientOptions};
use crate::trace::Tracer;
use serde_json::{json, Value};
use std::time::Duration;

fn trace_path() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("adt-ls-native-mcp-trace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("wire.jsonl")
}

#[tokio::test]
#[allow(clippy::too_many_lines)] // one scripted session, checked message by message
async fn every_message_both_ways_with_status_and_session_and_no_token() {
    init();
    let server = TestServer::start(mcp("2025-06-18", Some("sid-7"), |req| {
        match req.body["params"]["name"].as_str() {
            Some("refused") => Reply::status(500),
            _ => Reply::sse(
                vec![
                    chunk(&sse_event(
                        &json!({"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progress": 1}}),
                    )),
                    chunk(&sse_event(
                        &json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}),
                    )),
                    chunk(&sse_event(&json!({"jsonrpc": "2.0", "id": req.rpc_id(),
                        "result": {"done": true}}))),
                ],
                false,
            ),
        }
    }))
    .await;
    let path = trace_path();
    let tracer = Tracer::open(&path).unwrap();
    let client = McpClient::new_traced(
        &server.url(),
        TOKEN,
        info(),
        McpClientOptions {
            timeout: Duration::from_secs(10),
            ..McpClientOptions::default()
        },
        Some(tracer.clone()),
    )
    .unwrap();
    assert_eq!(
        client.call_tool("t", json!({}), None).await,
        Ok(json!({"done": true}))
    );
    assert!(client.call_tool("refused", json!({}), None).await.is_err());
    server
        .wait_until(Duration::from_secs(3), |reqs| {
            reqs.iter().any(|r| r.rpc_method() == "<reply>")
        })
        .await;
    client.close().await.unwrap();
    tracer.close();

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains(&format!("Bearer {TOKEN}")), "{text}");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary: Vec<String> = lines[1..]
        .iter()
        .map(|l| {
            format!(
                "{} {} {} {}",
                l["dir"].as_str().unwrap(),
                l["method"].as_str().unwrap_or("-"),
                l["http"]["status"],
                l["http"]["sessionId"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            "out initialize null -",
            "in initialize 200 sid-7",
            "out notifications/initialized null sid-7",
            "in - 202 sid-7",
            "out tools/call null sid-7",
            "in notifications/progress 200 sid-7",
            "in ping 200 sid-7",
            "out ping null sid-7",
            "in tools/call 200 sid-7",
            "out tools/call null sid-7",
            "in - 500 sid-7",
            "in - 200 sid-7",
        ],
        "{text}"
    );
    assert!(lines
        .iter()
        .all(|l| l["ch"] == "lsp" || l["ch"] == "mcp" || l["type"] == "header"));
    assert_eq!(lines.last().unwrap()["http"]["method"], "DELETE");
}
