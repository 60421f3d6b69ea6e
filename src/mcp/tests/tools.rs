//! `tools/list` validation and verbatim descriptors; `tools/call` results untouched.

use super::server::{mcp, Reply, TestServer};
use super::support::{client, err, str_code};
use serde_json::{json, Value};

async fn list_with(page: Value) -> crate::kernel::error::Result<Vec<Value>> {
    let server = TestServer::start(mcp("2025-06-18", None, move |req| {
        Reply::result(req.rpc_id(), page.clone())
    }))
    .await;
    client(&server.url()).list_tools().await
}

#[tokio::test]
async fn next_cursor_must_be_a_string_or_absent() {
    for bad in [json!(null), json!(5), json!({"c": 1})] {
        let e = err(list_with(json!({"tools": [], "nextCursor": bad})).await);
        assert_eq!(
            e.message, "adt-ls MCP tools/list: invalid nextCursor",
            "{bad}"
        );
        assert_eq!(str_code(&e), Some("ERR_MCP_PROTOCOL"));
    }
}

#[tokio::test]
async fn tools_must_be_an_array_of_named_objects() {
    for bad in [
        json!({}),
        json!({"tools": {"name": "x"}}),
        json!({"tools": [{"name": "ok"}, {"title": "no name"}]}),
        json!({"tools": [{"name": 7}]}),
        json!({"tools": ["just-a-string"]}),
    ] {
        let e = err(list_with(bad.clone()).await);
        assert_eq!(
            e.message, "adt-ls MCP tools/list: missing or invalid tools",
            "{bad}"
        );
    }
}

#[tokio::test]
async fn descriptors_are_returned_verbatim_with_key_order() {
    let raw = r#"{"zeta":1,"name":"abap_x","title":"X","description":"d","inputSchema":{"type":"object","required":["b","a"],"properties":{"b":{},"a":{}}},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"_meta":{"k":"v"}}"#;
    let descriptor: Value = serde_json::from_str(raw).unwrap_or_default();
    let tools = list_with(json!({"tools": [descriptor]}))
        .await
        .unwrap_or_default();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].to_string(), raw);
}

#[tokio::test]
async fn tool_results_are_returned_untouched() {
    let raw = r#"{"structuredContent":{"z":1,"a":2},"content":[{"type":"text","text":"{}"}],"isError":false,"annotations":{"x":1},"unknownField":[null]}"#;
    let result: Value = serde_json::from_str(raw).unwrap_or_default();
    let server = TestServer::start(mcp("2025-06-18", None, move |req| {
        Reply::result(req.rpc_id(), result.clone())
    }))
    .await;
    let got = client(&server.url()).call_tool("t", json!({}), None).await;
    assert_eq!(got.map(|v| v.to_string()), Ok(raw.to_string()));
}
