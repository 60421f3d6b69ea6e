//! Sending rules: headers on every request, ids, generic requests, `tools/call` params, no
//! proxy, no redirects, and `localhost` resolving to ::1 or 127.0.0.1.

use super::server::{chunk, mcp, sse_event, Recorded, Reply, TestServer};
use super::support::{
    answering, assert_client_headers, assert_session_headers, client, err, failed_connect, info,
    init, serving, str_code,
};
use crate::mcp::{McpClient, McpClientOptions};
use serde_json::json;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

#[tokio::test]
async fn every_request_after_initialize_carries_all_headers() {
    let (server, client) = answering(Some("sid-7"), json!({})).await;
    assert_eq!(
        client.call_tool("t", json!({"a": 1}), None).await,
        Ok(json!({}))
    );
    assert_eq!(client.request("ping", None, None).await, Ok(json!({})));
    let later = &server.requests()[1..];
    assert_eq!(later.len(), 3);
    for req in later {
        assert_client_headers(req);
        assert_session_headers(req, "sid-7", "2025-06-18");
    }
}

#[tokio::test]
async fn ids_count_from_one_and_stay_unique_across_concurrent_calls() {
    let (server, client) = serving(None, |req| {
        Reply::Delayed(
            Duration::from_millis(20),
            Box::new(Reply::result(req.rpc_id(), json!({"echo": req.rpc_id()}))),
        )
    })
    .await;
    let calls = (0..8).map(|i| client.call_tool("t", json!({"i": i}), None));
    let results = futures_util::future::join_all(calls).await;
    let mut ids: Vec<u64> = server
        .requests_for("tools/call")
        .iter()
        .filter_map(|r| r.rpc_id())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (2..=9).collect::<Vec<u64>>());
    for result in results {
        let result = result.unwrap_or_default();
        assert!(result["echo"]
            .as_u64()
            .is_some_and(|id| (2..=9).contains(&id)));
    }
    assert_eq!(server.requests_for("initialize")[0].rpc_id(), Some(1));
}

#[tokio::test]
async fn concurrent_calls_correlate_by_id_even_when_a_stream_carries_another_answer() {
    // Every stream first answers a foreign id (the other call's), then its own.
    let (_server, client) = serving(None, |req| {
        let id = req.rpc_id().unwrap_or(0);
        let foreign = json!({"jsonrpc": "2.0", "id": id + 1000, "result": {"who": "foreign"}});
        let own = json!({"jsonrpc": "2.0", "id": id, "result": {"who": id}});
        Reply::sse(
            vec![chunk(&sse_event(&foreign)), chunk(&sse_event(&own))],
            true,
        )
    })
    .await;
    let (a, b) = tokio::join!(
        client.call_tool("a", json!({}), None),
        client.call_tool("b", json!({}), None)
    );
    let mut who = vec![
        a.unwrap_or_default()["who"].clone(),
        b.unwrap_or_default()["who"].clone(),
    ];
    who.sort_by_key(|v| v.as_u64());
    assert_eq!(who, vec![json!(2), json!(3)]);
}

#[tokio::test]
async fn generic_requests_send_method_and_optional_params() {
    let (server, client) = serving(None, |req| {
        Reply::result(
            req.rpc_id(),
            json!({"got": req.body.get("params").cloned()}),
        )
    })
    .await;
    let with = client
        .request("resources/list", Some(json!({"cursor": "x"})), None)
        .await;
    assert_eq!(with, Ok(json!({"got": {"cursor": "x"}})));
    let without = client.request("prompts/list", None, None).await;
    assert_eq!(without, Ok(json!({"got": null})));
    let bodies: Vec<String> = server.requests()[2..]
        .iter()
        .map(|r| r.body.to_string())
        .collect();
    assert_eq!(
        bodies,
        [
            r#"{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{"cursor":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"prompts/list"}"#
        ]
    );
}

#[tokio::test]
async fn tools_call_sends_name_and_arguments() {
    let (server, client) = answering(None, json!({"content": []})).await;
    let _ = client
        .call_tool("abap_x", json!({"uris": ["u"]}), None)
        .await;
    let _ = client
        .call_tool("abap_y", serde_json::Value::Null, None)
        .await;
    let calls = server.requests_for("tools/call");
    assert_eq!(
        calls[0].body["params"],
        json!({"name": "abap_x", "arguments": {"uris": ["u"]}})
    );
    assert_eq!(
        calls[1].body["params"],
        json!({"name": "abap_y", "arguments": {}})
    );
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let (server, _client, e) = failed_connect(|req: &Recorded| match req.path.as_str() {
        "/mcp" => Reply::Full {
            status: 307,
            headers: vec![("location".to_string(), "/elsewhere".to_string())],
            body: Vec::new(),
        },
        _ => Reply::status(500),
    })
    .await;
    assert_eq!(e.message, "adt-ls MCP initialize failed: HTTP 307");
    assert!(server.requests().iter().all(|r| r.path == "/mcp"));
}

/// Set (to the target URL) only in the child process run by `environment_proxies_are_ignored`.
const PROXY_PROBE_ENV: &str = "ADT_LS_NATIVE_MCP_PROXY_PROBE";

/// Proxy variables are process-wide, so the probe runs in a child test process: setting
/// them here would leak into concurrent tests of other modules.
#[tokio::test]
async fn environment_proxies_are_ignored() {
    let proxy = TestServer::start(|_| Reply::status(502)).await;
    let server = TestServer::start(mcp("2025-06-18", None, |_| Reply::status(500))).await;
    let proxy_url = format!("http://{}", proxy.addr);
    let test_path = module_path!()
        .split_once("::")
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let exe = std::env::current_exe().unwrap_or_default();
    let mut command = tokio::process::Command::new(exe);
    command
        .args([
            "--exact",
            &format!("{test_path}::proxy_probe"),
            "--ignored",
            "--test-threads=1",
        ])
        // A host name, since some proxy logic exempts IP literals.
        .env(
            PROXY_PROBE_ENV,
            format!("http://localhost:{}/mcp", server.port()),
        )
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    for name in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
        command.env(name, &proxy_url);
    }
    let output = tokio::time::timeout(Duration::from_secs(60), command.output()).await;
    let Ok(Ok(output)) = output else {
        panic!("the proxy probe did not finish: {output:?}");
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(proxy.requests().is_empty());
    assert_eq!(server.requests_for("initialize").len(), 1);
}

#[tokio::test]
#[ignore = "run by environment_proxies_are_ignored in a child process"]
async fn proxy_probe() {
    let Ok(url) = std::env::var(PROXY_PROBE_ENV) else {
        return;
    };
    assert_eq!(client(&url).connect().await, Ok(()));
}

fn client_resolving_localhost(port: u16, order: Vec<SocketAddr>) -> McpClient {
    init();
    let url = format!("http://localhost:{port}/mcp");
    let overrides = vec![("localhost".to_string(), order)];
    match McpClient::build(
        &url,
        "secret",
        info(),
        McpClientOptions::default(),
        overrides,
    ) {
        Ok(client) => client,
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn localhost_resolving_to_ipv4_first_reaches_an_ipv6_only_server() {
    let handler = mcp("2025-06-18", None, |_| Reply::status(500));
    let Some(server) = TestServer::try_start_on("[::1]:0", handler).await else {
        crate::kernel::test_skip::skip("IPv6 loopback ([::1]) unavailable on this machine");
        return;
    };
    connects_resolving_localhost(
        &server,
        [Ipv4Addr::LOCALHOST.into(), Ipv6Addr::LOCALHOST.into()],
    )
    .await;
}

#[tokio::test]
async fn localhost_resolving_to_ipv6_first_reaches_an_ipv4_only_server() {
    let server = TestServer::start(mcp("2025-06-18", None, |_| Reply::status(500))).await;
    connects_resolving_localhost(
        &server,
        [Ipv6Addr::LOCALHOST.into(), Ipv4Addr::LOCALHOST.into()],
    )
    .await;
}

/// A client whose `localhost` resolves to `order` (at the server's port) connects to
/// `server` with one initialize.
async fn connects_resolving_localhost(server: &TestServer, order: [IpAddr; 2]) {
    let port = server.port();
    let order = order.iter().map(|ip| SocketAddr::new(*ip, port)).collect();
    let client = client_resolving_localhost(port, order);
    assert_eq!(client.connect().await, Ok(()));
    assert_eq!(server.requests_for("initialize").len(), 1);
}

#[tokio::test]
async fn the_system_resolver_reaches_a_loopback_server_by_name() {
    let server = TestServer::start(mcp("2025-06-18", None, |_| Reply::status(500))).await;
    let client = client(&format!("http://localhost:{}/mcp", server.port()));
    assert_eq!(client.connect().await, Ok(()));
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0");
        listener
            .ok()
            .and_then(|l| l.local_addr().ok())
            .map(|a| a.port())
            .unwrap_or(1)
    };
    let e = err(client(&format!("http://127.0.0.1:{port}/mcp"))
        .connect()
        .await);
    assert_eq!(str_code(&e), Some("ERR_MCP_TRANSPORT"));
    assert!(
        e.message.starts_with("adt-ls MCP initialize failed: "),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn bad_urls_and_tokens_are_rejected_at_construction() {
    init();
    for url in ["not a url", "ftp://localhost/mcp"] {
        let e = McpClient::new(url, "secret", info(), McpClientOptions::default()).err();
        assert_eq!(
            e.as_ref().and_then(str_code),
            Some("ERR_INVALID_ARG"),
            "{url}"
        );
    }
    let e = McpClient::new(
        "http://localhost:1/mcp",
        "bad\ntoken",
        info(),
        McpClientOptions::default(),
    )
    .err();
    assert_eq!(e.as_ref().and_then(str_code), Some("ERR_INVALID_ARG"));
    assert!(e.is_some_and(|e| !e.message.contains("bad\ntoken")));
}

/// A server whose `tools/call` answers only after 30 s; notifications are accepted.
fn slow_tools() -> impl Fn(&Recorded) -> Reply + Send + Sync + 'static {
    mcp("2025-06-18", Some("sid-c"), |req| {
        match req.rpc_method().as_str() {
            "notifications/cancelled" => Reply::status(202),
            _ => Reply::Delayed(
                Duration::from_secs(30),
                Box::new(Reply::result(req.rpc_id(), json!({}))),
            ),
        }
    })
}

#[tokio::test]
async fn a_call_dropped_in_a_cancel_scope_sends_notifications_cancelled_with_its_id() {
    let server = TestServer::start(slow_tools()).await;
    let client = client(&server.url());
    client.connect().await.unwrap();
    let c = client.clone();
    let call = tokio::spawn(crate::kernel::cancel_scope::cancellable(async move {
        c.call_tool("t", json!({}), None).await
    }));
    let id = server
        .wait_requests_for("tools/call")
        .await
        .first()
        .and_then(Recorded::rpc_id)
        .expect("the call reached the server");
    call.abort();
    let cancelled = server.wait_requests_for("notifications/cancelled").await;
    assert_eq!(cancelled.len(), 1);
    let note = &cancelled[0];
    assert_eq!(note.body["params"]["requestId"], json!(id));
    assert_eq!(
        note.body["params"]["reason"],
        json!(crate::mcp::session::CANCEL_REASON)
    );
    assert_eq!(note.header("mcp-session-id").as_deref(), Some("sid-c"));
    assert_eq!(server.requests_for("tools/call").len(), 1, "never re-sent");
}

#[tokio::test]
async fn a_timeout_outside_a_cancel_scope_sends_no_cancellation() {
    let server = TestServer::start(slow_tools()).await;
    let client = client(&server.url());
    let out = client
        .call_tool("t", json!({}), Some(Duration::from_millis(100)))
        .await;
    assert_eq!(str_code(&err(out)), Some("ETIMEDOUT"));
    // Inside a scope the same timeout cancels.
    let scoped = crate::kernel::cancel_scope::cancellable(client.call_tool(
        "t",
        json!({}),
        Some(Duration::from_millis(100)),
    ))
    .await;
    assert_eq!(str_code(&err(scoped)), Some("ETIMEDOUT"));
    let notes = server.wait_requests_for("notifications/cancelled").await;
    let ids: Vec<_> = server
        .requests_for("tools/call")
        .iter()
        .map(Recorded::rpc_id)
        .collect();
    assert_eq!(notes.len(), 1, "only the scoped call was cancelled");
    assert_eq!(notes[0].body["params"]["requestId"], json!(ids[1]));
}
