//! adt-ls's MCP server lifecycle over LSP (docs/wire.md#mcp-server-lifecycle):
//! `adtLs/mcp/startMCPServer {port, token, fileSystemMode: "VFS"}` (VFS is what makes the five
//! authoring tools appear on 1.1.2), `stopMCPServer` (no params, `[null]` on the wire),
//! `setDestination {destinationId}`, and the start-with-fallback loop that advances the port
//! only on bind failures.

use crate::kernel::error::{Error, Result};
use crate::lsp::LspRequester;
use serde_json::{json, Value};
use std::future::Future;

pub(crate) const START_METHOD: &str = "adtLs/mcp/startMCPServer";
pub(crate) const STOP_METHOD: &str = "adtLs/mcp/stopMCPServer";
pub(crate) const SET_DESTINATION_METHOD: &str = "adtLs/mcp/setDestination";
/// The first port `createAdtLs` tries, and how many it tries.
pub(crate) const DEFAULT_MCP_PORT: u16 = 2240;
pub(crate) const DEFAULT_PORT_ATTEMPTS: u32 = 20;

/// Start the server; returns adt-ls's result (`{port, token, version?}`, the effective values).
pub(crate) async fn start_mcp_server(
    lsp: &dyn LspRequester,
    port: Value,
    token: &str,
) -> Result<Value> {
    lsp.send_request(
        START_METHOD,
        Some(json!({"port": port, "token": token, "fileSystemMode": "VFS"})),
    )
    .await
}

pub(crate) async fn stop_mcp_server(lsp: &dyn LspRequester) -> Result<Value> {
    lsp.send_request(STOP_METHOD, None).await
}

pub(crate) async fn set_mcp_destination(
    lsp: &dyn LspRequester,
    destination_id: &str,
) -> Result<Value> {
    lsp.send_request(
        SET_DESTINATION_METHOD,
        Some(json!({"destinationId": destination_id})),
    )
    .await
}

/// True for the errors that mean "try the next port" (the reference's
/// `/failed to bind|address already in use|eaddrinuse|must be between/i`).
pub(crate) fn is_bind_error(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "failed to bind",
        "address already in use",
        "eaddrinuse",
        "must be between",
    ]
    .iter()
    .any(|needle| m.contains(needle))
}

/// The highest port adt-ls's MCP server accepts; the fallback never goes past it.
const MAX_MCP_PORT: i64 = 65535;

/// Try `start(start_port + i)` for `i` in `0..attempts`, never past [`MAX_MCP_PORT`]: a bind
/// failure awaits `on_retry(port)` and moves on, any other error is returned at once, and
/// after the last attempt its error is returned. `attempts` below 1 counts as 1.
pub(crate) async fn start_with_fallback<F, Fut, R, RFut>(
    mut start: F,
    start_port: i64,
    attempts: u32,
    mut on_retry: R,
) -> Result<Value>
where
    F: FnMut(i64) -> Fut,
    Fut: Future<Output = Result<Value>>,
    R: FnMut(i64) -> RFut,
    RFut: Future<Output = ()>,
{
    let room = u32::try_from((MAX_MCP_PORT - start_port + 1).max(1)).unwrap_or(u32::MAX);
    let attempts = attempts.clamp(1, room);
    let mut last = Error::new("startMcpServerWithFallback: no attempt was made");
    for i in 0..attempts {
        let port = start_port + i64::from(i);
        match start(port).await {
            Ok(v) => return Ok(v),
            Err(e) if is_bind_error(&e.message) => {
                if i + 1 < attempts {
                    on_retry(port).await;
                }
                last = e;
            }
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// The port and token adt-ls reports back (falling back to what was asked for).
pub(crate) fn effective_port_and_token(
    result: &Value,
    asked_port: i64,
    asked_token: &str,
) -> (i64, String) {
    let port = result
        .get("port")
        .and_then(Value::as_i64)
        .unwrap_or(asked_port);
    let token = result
        .get("token")
        .and_then(Value::as_str)
        .unwrap_or(asked_token)
        .to_string();
    (port, token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::future::BoxFuture;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Recorder {
        sent: Mutex<Vec<(String, Option<Value>)>>,
    }

    impl LspRequester for Recorder {
        fn send_request(&self, method: &str, params: Option<Value>) -> BoxFuture<Result<Value>> {
            self.sent
                .lock()
                .unwrap()
                .push((method.to_string(), params.clone()));
            Box::pin(async move { Ok(json!({"port": 2240, "token": "t", "version": "1.0.0"})) })
        }
    }

    #[tokio::test]
    async fn start_sends_vfs_and_returns_the_result() {
        let r = Recorder::default();
        let out = start_mcp_server(&r, json!(2240), "tok").await.unwrap();
        assert_eq!(out["version"], "1.0.0");
        let sent = r.sent.lock().unwrap().clone();
        assert_eq!(sent[0].0, START_METHOD);
        assert_eq!(
            sent[0].1,
            Some(json!({"port": 2240, "token": "tok", "fileSystemMode": "VFS"}))
        );
        assert_eq!(
            serde_json::to_string(sent[0].1.as_ref().unwrap()).unwrap(),
            r#"{"port":2240,"token":"tok","fileSystemMode":"VFS"}"#
        );
    }

    #[tokio::test]
    async fn stop_and_set_destination_shapes() {
        let r = Recorder::default();
        stop_mcp_server(&r).await.unwrap();
        set_mcp_destination(&r, "A4H").await.unwrap();
        let sent = r.sent.lock().unwrap().clone();
        assert_eq!(sent[0], (STOP_METHOD.to_string(), None));
        assert_eq!(
            sent[1],
            (
                SET_DESTINATION_METHOD.to_string(),
                Some(json!({"destinationId": "A4H"}))
            )
        );
    }

    /// [`start_with_fallback`] from `start_port` with `attempts`, each attempt answered with
    /// `answer(port)`; the outcome and the ports tried, in order.
    async fn fallback(
        start_port: i64,
        attempts: u32,
        answer: impl Fn(i64) -> Result<Value>,
    ) -> (Result<Value>, Vec<i64>) {
        let tried = Mutex::new(Vec::new());
        let out = start_with_fallback(
            |p| {
                tried.lock().unwrap().push(p);
                std::future::ready(answer(p))
            },
            start_port,
            attempts,
            |_| async {},
        )
        .await;
        (out, tried.into_inner().unwrap())
    }

    #[tokio::test]
    async fn first_port_wins_when_free() {
        let (out, tried) = fallback(2240, 20, |p| Ok(json!({"port": p}))).await;
        assert_eq!(out.unwrap(), json!({"port": 2240}));
        assert_eq!(tried, vec![2240]);
    }

    #[tokio::test]
    async fn bind_errors_advance_and_report_each_busy_port() {
        let retried = Mutex::new(Vec::new());
        let out = start_with_fallback(
            |p| async move {
                if p < 2242 {
                    Err(Error::new(format!("java.net.BindException: failed to bind to port {p}: Address already in use")))
                } else {
                    Ok(json!({"port": p}))
                }
            },
            2240,
            20,
            |p| {
                retried.lock().unwrap().push(p);
                async {}
            },
        )
        .await
        .unwrap();
        assert_eq!(out, json!({"port": 2242}));
        assert_eq!(*retried.lock().unwrap(), vec![2240, 2241]);
    }

    #[tokio::test]
    async fn other_errors_stop_at_once_and_the_last_bind_error_surfaces() {
        let (out, tried) = fallback(2240, 20, |_| Err(Error::new("Internal error."))).await;
        assert_eq!(out.unwrap_err().message, "Internal error.");
        assert_eq!(tried.len(), 1);
        let (out, _) = fallback(3000, 3, |p| Err(Error::new(format!("EADDRINUSE {p}")))).await;
        assert_eq!(out.unwrap_err().message, "EADDRINUSE 3002");
    }

    #[tokio::test]
    async fn the_fallback_stays_within_the_ports_adt_ls_accepts() {
        let (out, tried) = fallback(65533, 20, |p| {
            Err(Error::new(format!("failed to bind to port {p}")))
        })
        .await;
        assert_eq!(tried, vec![65533, 65534, 65535]);
        assert_eq!(out.unwrap_err().message, "failed to bind to port 65535");
    }

    #[test]
    fn bind_error_pattern() {
        for m in [
            "failed to bind",
            "Address already in use",
            "listen EADDRINUSE",
            "Port must be between 1024 and 65535",
        ] {
            assert!(is_bind_error(m), "{m}");
        }
        assert!(!is_bind_error("Internal error."));
    }
}
