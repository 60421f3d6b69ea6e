//! Connection tests against a scripted peer on an in-memory duplex stream.

use super::*;
use crate::lsp::framing::{encode, Decoder};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

struct NullRouter;
impl RequestRouter for NullRouter {
    fn route(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> BoxFuture<std::result::Result<Value, String>> {
        let method = method.to_string();
        Box::pin(async move {
            match method.as_str() {
                "echo" => Ok(params.unwrap_or(Value::Null)),
                "fail" => Err("nope".to_string()),
                "slow" => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Ok(json!("late"))
                }
                _ => Ok(Value::Null),
            }
        })
    }
}

struct FixedHook;
impl CloseHook for FixedHook {
    fn on_eof(&self) -> BoxFuture<CloseReason> {
        Box::pin(async {
            CloseReason {
                summary: "adt-ls exited (code 13)".into(),
                detail: "boom on stderr".into(),
                code: codes::CONNECTION_CLOSED,
            }
        })
    }
}

fn start() -> (Connection, Peer) {
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let conn = Connection::start(
        ours,
        Handlers {
            router: Arc::new(NullRouter),
            notifications: None,
            close_hook: Arc::new(FixedHook),
        },
    );
    (conn, Peer::new(theirs))
}

/// The adt-ls side of the stream.
struct Peer {
    io: DuplexStream,
    decoder: Decoder,
}

impl Peer {
    fn new(io: DuplexStream) -> Self {
        Peer {
            io,
            decoder: Decoder::new(),
        }
    }

    async fn recv(&mut self) -> Value {
        loop {
            if let Some(body) = self.decoder.next_frame().unwrap() {
                return serde_json::from_slice(&body).unwrap();
            }
            let mut buf = [0u8; 4096];
            let n = self.io.read(&mut buf).await.unwrap();
            assert!(n > 0, "stream closed");
            self.decoder.push(&buf[..n]);
        }
    }

    async fn send(&mut self, v: Value) {
        self.io
            .write_all(&encode(&serde_json::to_vec(&v).unwrap()))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn ids_start_at_zero_and_responses_correlate() {
    let (conn, mut peer) = start();
    let c2 = conn.clone();
    let call = tokio::spawn(async move { c2.request("a", Some(json!("A4H")), None).await });
    let req = peer.recv().await;
    assert_eq!(
        req,
        json!({"jsonrpc":"2.0","id":0,"method":"a","params":["A4H"]})
    );
    peer.send(json!({"jsonrpc":"2.0","id":0,"result":{"ok":true}}))
        .await;
    assert_eq!(call.await.unwrap().unwrap(), json!({"ok": true}));
}

#[tokio::test]
async fn many_concurrent_requests_correlate_out_of_order() {
    let (conn, mut peer) = start();
    let mut calls = Vec::new();
    for i in 0..200u64 {
        let c = conn.clone();
        calls.push(tokio::spawn(async move {
            c.request("m", Some(json!({"i": i})), None).await
        }));
    }
    let mut reqs = Vec::new();
    for _ in 0..200 {
        reqs.push(peer.recv().await);
    }
    reqs.reverse();
    for r in reqs {
        let i = r["params"]["i"].clone();
        peer.send(json!({"jsonrpc":"2.0","id":r["id"],"result":i}))
            .await;
    }
    for (i, call) in calls.into_iter().enumerate() {
        assert_eq!(call.await.unwrap().unwrap(), json!(i));
    }
}

#[tokio::test]
async fn rpc_errors_keep_message_code_and_data() {
    let (conn, mut peer) = start();
    let c = conn.clone();
    let call = tokio::spawn(async move { c.request("x", None, None).await });
    let req = peer.recv().await;
    assert_eq!(req["params"], json!([null]));
    peer.send(json!({"jsonrpc":"2.0","id":req["id"],"error":{"code":1003,"message":"Internal error.","data":{"k":1}}}))
        .await;
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(err.message, "Internal error.");
    assert_eq!(err.code, Some(crate::error::ErrorCode::Num(1003)));
    assert_eq!(err.data.as_deref(), Some(&json!({"k": 1})));
}

#[tokio::test]
async fn server_requests_are_answered_concurrently_with_echoed_ids() {
    let (_conn, mut peer) = start();
    peer.send(json!({"jsonrpc":"2.0","id":"slow-1","method":"slow"}))
        .await;
    peer.send(json!({"jsonrpc":"2.0","id":"e","method":"echo","params":{"v":1}}))
        .await;
    peer.send(json!({"jsonrpc":"2.0","id":9,"method":"fail"}))
        .await;
    let a = peer.recv().await;
    let b = peer.recv().await;
    let c = peer.recv().await;
    // The slow handler must not hold the others back.
    assert_eq!(a, json!({"jsonrpc":"2.0","id":"e","result":{"v":1}}));
    assert_eq!(
        b,
        json!({"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"Request fail failed with message: nope"}})
    );
    assert_eq!(c, json!({"jsonrpc":"2.0","id":"slow-1","result":"late"}));
}

#[tokio::test]
async fn peer_eof_fails_pending_requests_at_once_with_the_hook_reason() {
    let (conn, peer) = start();
    let c = conn.clone();
    let call = tokio::spawn(async move { c.request("adtLs/slow", None, None).await });
    tokio::time::sleep(Duration::from_millis(20)).await;
    drop(peer);
    let err = tokio::time::timeout(Duration::from_secs(1), call)
        .await
        .unwrap()
        .unwrap()
        .unwrap_err();
    assert_eq!(
        err.message,
        "adt-ls exited (code 13) while adtLs/slow was pending.\nboom on stderr"
    );
    let later = conn.request("other", None, None).await.unwrap_err();
    assert!(later
        .message
        .starts_with("adt-ls exited (code 13); cannot send other."));
    assert!(!conn.is_open());
}

#[tokio::test]
async fn dispose_rejects_pending_with_the_vscode_jsonrpc_error() {
    let (conn, _peer) = start();
    let c = conn.clone();
    let call = tokio::spawn(async move { c.request("x", None, None).await });
    tokio::time::sleep(Duration::from_millis(20)).await;
    conn.dispose();
    conn.dispose();
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(err.message, DISPOSED_MESSAGE);
    assert_eq!(err.code, Some(crate::error::ErrorCode::Num(DISPOSED_CODE)));
    assert_eq!(conn.pending_count(), 0);
}

#[tokio::test]
async fn timeouts_free_the_pending_slot() {
    let (conn, mut peer) = start();
    let err = conn
        .request("hang", None, Some(Duration::from_millis(30)))
        .await
        .unwrap_err();
    assert_eq!(err.message, "adt-ls request hang timed out after 30ms");
    assert!(err.has_code(codes::TIMEOUT));
    assert_eq!(conn.pending_count(), 0);
    // A late answer is ignored without harm.
    let req = peer.recv().await;
    peer.send(json!({"jsonrpc":"2.0","id":req["id"],"result":1}))
        .await;
    let c = conn.clone();
    let next = tokio::spawn(async move { c.request("next", None, None).await });
    let req = peer.recv().await;
    peer.send(json!({"jsonrpc":"2.0","id":req["id"],"result":2}))
        .await;
    assert_eq!(next.await.unwrap().unwrap(), json!(2));
}

#[tokio::test]
async fn notifications_are_encoded_like_requests() {
    let (conn, mut peer) = start();
    conn.notify("initialized", Some(json!({}))).await.unwrap();
    conn.notify("n", None).await.unwrap();
    assert_eq!(
        peer.recv().await,
        json!({"jsonrpc":"2.0","method":"initialized","params":{}})
    );
    assert_eq!(
        peer.recv().await,
        json!({"jsonrpc":"2.0","method":"n","params":[null]})
    );
}

/// Write raw bytes as adt-ls would, bypassing the framing.
async fn send_raw(peer: &mut Peer, bytes: &[u8]) {
    peer.io.write_all(bytes).await.unwrap();
}

#[tokio::test]
async fn a_framing_error_ends_the_connection_and_rejects_everything_pending_at_once() {
    for garbage in [
        &b"Content-Length: banana\r\n\r\n"[..],
        b"X-Other: 1\r\n\r\n",
        b"no colon here\r\n\r\n",
        b"Content-Length: 99999999999\r\n\r\n",
    ] {
        let (conn, mut peer) = start();
        let c2 = conn.clone();
        // No timeout: before the fix this waited for ever (the reader kept going).
        let call = tokio::spawn(async move { c2.request("slowpoke", None, None).await });
        peer.recv().await;
        send_raw(&mut peer, garbage).await;
        let e = tokio::time::timeout(Duration::from_secs(20), call)
            .await
            .expect("pending request rejected at once")
            .unwrap()
            .unwrap_err();
        assert!(e.has_code(codes::LSP_PROTOCOL), "{e:?}");
        assert!(
            e.message.starts_with("adt-ls broke the LSP framing ("),
            "{}",
            e.message
        );
        assert!(!conn.is_open());
        let later = conn.request("after", None, None).await.unwrap_err();
        assert!(later.has_code(codes::LSP_PROTOCOL), "{later:?}");
    }
}

#[tokio::test]
async fn a_header_trickled_without_crlf_ends_the_connection_after_the_header_bound() {
    let (conn, mut peer) = start();
    let c2 = conn.clone();
    let call = tokio::spawn(async move { c2.request("wait", None, None).await });
    peer.recv().await;
    // 64 MB offered in 64 KiB writes; the connection must stop reading long before.
    let chunk = vec![b'a'; 64 * 1024];
    let mut written = 0usize;
    for _ in 0..1024 {
        match tokio::time::timeout(Duration::from_secs(5), peer.io.write_all(&chunk)).await {
            Ok(Ok(())) => written += chunk.len(),
            // The reader is gone: the duplex is closed or no longer drained.
            _ => break,
        }
    }
    let e = tokio::time::timeout(Duration::from_secs(20), call)
        .await
        .expect("rejected")
        .unwrap()
        .unwrap_err();
    assert!(e.has_code(codes::LSP_PROTOCOL), "{e:?}");
    assert!(e.message.contains("LSP header exceeds"), "{}", e.message);
    assert!(
        written < 4 * 1024 * 1024,
        "the reader kept consuming ({written} bytes) after the header bound"
    );
}
