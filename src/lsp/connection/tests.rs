//! Connection tests against a scripted peer on an in-memory duplex stream.

use super::*;
use crate::lsp::framing::{encode, Decoder};
use serde_json::json;
#[cfg(unix)]
use std::sync::atomic::AtomicUsize;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio::task::JoinHandle;

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

/// The handlers every test connection runs with: the scripted router and the fixed hook.
fn handlers() -> Handlers {
    Handlers {
        router: Arc::new(NullRouter),
        notifications: None,
        close_hook: Arc::new(FixedHook),
    }
}

fn start() -> (Connection, Peer<DuplexStream>) {
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let conn = Connection::start(ours, handlers());
    (conn, Peer::new(theirs))
}

/// The adt-ls side of the stream: an in-memory duplex or a Unix socket pair's other end.
struct Peer<S> {
    io: S,
    decoder: Decoder,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Peer<S> {
    fn new(io: S) -> Self {
        Peer {
            io,
            decoder: Decoder::new(),
        }
    }

    /// The next whole frame the connection wrote, within 20 s.
    async fn recv(&mut self) -> Value {
        let read = async {
            loop {
                if let Some(body) = self.decoder.next_frame().unwrap() {
                    return serde_json::from_slice(&body).unwrap();
                }
                let mut buf = vec![0u8; 64 * 1024];
                let n = self.io.read(&mut buf).await.unwrap();
                assert!(n > 0, "stream closed");
                self.decoder.push(&buf[..n]);
            }
        };
        tokio::time::timeout(Duration::from_secs(20), read)
            .await
            .unwrap()
    }

    async fn send(&mut self, v: Value) {
        self.io.write_all(&frame_of(v)).await.unwrap();
    }

    /// Answers the request with this id with `result`.
    async fn reply(&mut self, id: &Value, result: Value) {
        self.send(json!({"jsonrpc":"2.0","id":id,"result":result}))
            .await;
    }
}

/// `method` (no params) requested from a spawned task; its outcome is the task's result.
fn spawn_request(conn: &Connection, method: &'static str) -> JoinHandle<Result<Value>> {
    let c = conn.clone();
    tokio::spawn(async move { c.request(method, None, None).await })
}

/// The error the spawned request `call` fails with, which must come within `within`.
async fn rejection(call: JoinHandle<Result<Value>>, within: Duration) -> Error {
    tokio::time::timeout(within, call)
        .await
        .expect("the pending request is rejected in time")
        .unwrap()
        .unwrap_err()
}

/// Sends `method` as a request from a spawned task, checks the peer sees it, answers it with
/// `result` and checks the caller gets that result: the connection still works.
async fn answered_request(
    conn: &Connection,
    peer: &mut Peer<DuplexStream>,
    method: &'static str,
    result: Value,
) {
    let next = spawn_request(conn, method);
    let req = peer.recv().await;
    assert_eq!(req["method"], json!(method));
    peer.reply(&req["id"], result.clone()).await;
    assert_eq!(next.await.unwrap().unwrap(), result);
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
        peer.reply(&r["id"], i).await;
    }
    for (i, call) in calls.into_iter().enumerate() {
        assert_eq!(call.await.unwrap().unwrap(), json!(i));
    }
}

#[tokio::test]
async fn rpc_errors_keep_message_code_and_data() {
    let (conn, mut peer) = start();
    let call = spawn_request(&conn, "x");
    let req = peer.recv().await;
    assert_eq!(req["params"], json!([null]));
    peer.send(json!({"jsonrpc":"2.0","id":req["id"],"error":{"code":1003,"message":"Internal error.","data":{"k":1}}}))
        .await;
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(err.message, "Internal error.");
    assert_eq!(err.code, Some(crate::kernel::error::ErrorCode::Num(1003)));
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
    let call = spawn_request(&conn, "adtLs/slow");
    tokio::time::sleep(Duration::from_millis(20)).await;
    drop(peer);
    let err = rejection(call, Duration::from_secs(1)).await;
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
    let call = spawn_request(&conn, "x");
    tokio::time::sleep(Duration::from_millis(20)).await;
    conn.dispose();
    conn.dispose();
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(err.message, DISPOSED_MESSAGE);
    assert_eq!(
        err.code,
        Some(crate::kernel::error::ErrorCode::Num(DISPOSED_CODE))
    );
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
    peer.reply(&req["id"], json!(1)).await;
    answered_request(&conn, &mut peer, "next", json!(2)).await;
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
async fn send_raw(peer: &mut Peer<DuplexStream>, bytes: &[u8]) {
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
        // No timeout: the reader must stop at the broken frame.
        let call = spawn_request(&conn, "slowpoke");
        peer.recv().await;
        send_raw(&mut peer, garbage).await;
        let e = rejection(call, Duration::from_secs(20)).await;
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
    let call = spawn_request(&conn, "wait");
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
    let e = rejection(call, Duration::from_secs(20)).await;
    assert!(e.has_code(codes::LSP_PROTOCOL), "{e:?}");
    assert!(e.message.contains("LSP header exceeds"), "{}", e.message);
    assert!(
        written < 4 * 1024 * 1024,
        "the reader kept consuming ({written} bytes) after the header bound"
    );
}

/// A direct-write handle that counts the bytes it wrote.
#[cfg(unix)]
struct CountingWriter {
    inner: std::os::unix::net::UnixStream,
    bytes: Arc<AtomicUsize>,
}

#[cfg(unix)]
impl std::io::Write for CountingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes.fetch_add(n, Ordering::Relaxed);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A connection on a Unix socket pair with a direct-write handle (a dup of our end); the
/// counter of bytes written directly, and the peer's end.
#[cfg(unix)]
fn start_direct() -> (Connection, Arc<AtomicUsize>, tokio::net::UnixStream) {
    let (ours, theirs) = tokio::net::UnixStream::pair().unwrap();
    let ours = ours.into_std().unwrap();
    let bytes = Arc::new(AtomicUsize::new(0));
    let direct = CountingWriter {
        inner: ours.try_clone().unwrap(),
        bytes: bytes.clone(),
    };
    let conn = Connection::start_with_direct(
        tokio::net::UnixStream::from_std(ours).unwrap(),
        handlers(),
        Some(Box::new(direct)),
    );
    (conn, bytes, theirs)
}

#[cfg(unix)]
#[tokio::test]
async fn requests_are_written_from_the_calling_thread_when_the_writer_is_idle() {
    let (conn, bytes, theirs) = start_direct();
    let mut peer = Peer::new(theirs);
    let pending = conn.send_request("echo", Some(json!({ "i": 1 }))).unwrap();
    assert!(
        bytes.load(Ordering::Relaxed) > 0,
        "the request went out directly"
    );
    let req = peer.recv().await;
    assert_eq!(req["method"], "echo");
    peer.reply(&req["id"], json!(7)).await;
    assert_eq!(pending.wait(Some(Duration::from_secs(5))).await.unwrap(), 7);
}

#[cfg(unix)]
#[tokio::test]
async fn direct_and_queued_frames_never_interleave_and_keep_their_order() {
    // Far more than a socket buffer holds while the peer is not reading: direct writes run
    // into WouldBlock and short writes, the rest goes through the writer task, notifications
    // are queued in between. The peer must see every frame whole and in call order.
    let (conn, bytes, theirs) = start_direct();
    let payload = "x".repeat(64 * 1024);
    let mut sent = Vec::new();
    for i in 0..200u64 {
        if i % 10 == 5 {
            drop(
                conn.send_notification("note", Some(json!({ "n": i })))
                    .unwrap(),
            );
        }
        let pending = conn
            .send_request("big", Some(json!({ "i": i, "pad": payload })))
            .unwrap();
        sent.push(pending);
    }
    let mut peer = Peer::new(theirs);
    let mut next_request = 0u64;
    let mut notes = 0;
    while next_request < 200 {
        let frame = peer.recv().await;
        if frame["method"] == "note" {
            assert_eq!(
                frame["params"]["n"], next_request,
                "a notification keeps its place"
            );
            notes += 1;
            continue;
        }
        assert_eq!(frame["id"], next_request, "requests in call order");
        assert_eq!(frame["params"]["i"], next_request);
        assert_eq!(
            frame["params"]["pad"].as_str().map(str::len),
            Some(64 * 1024)
        );
        next_request += 1;
    }
    assert_eq!(notes, 20);
    assert!(
        bytes.load(Ordering::Relaxed) > 0,
        "some bytes went out directly"
    );
    assert_eq!(conn.unwritten(), (0, 0), "the writer drained");
    conn.dispose();
    drop(sent);
}

#[cfg(unix)]
#[tokio::test]
async fn a_closed_connection_drops_its_direct_handle() {
    let (conn, _bytes, theirs) = start_direct();
    conn.dispose();
    assert!(conn.lock().direct.is_none());
    drop(theirs);
}

/// A [`ResponseCallback`] that forwards the outcome to a channel.
fn callback() -> (ResponseCallback, oneshot::Receiver<Result<RawJson>>) {
    let (tx, rx) = oneshot::channel();
    let done: ResponseCallback = Box::new(move |outcome| {
        let _ = tx.send(outcome);
    });
    (done, rx)
}

async fn outcome_of(rx: oneshot::Receiver<Result<RawJson>>) -> Result<RawJson> {
    tokio::time::timeout(Duration::from_secs(5), rx)
        .await
        .expect("the callback runs within the bound")
        .expect("the callback is called, not dropped")
}

#[tokio::test]
async fn callback_requests_get_their_response_and_keep_call_order_with_awaited_ones() {
    let (conn, mut peer) = start();
    let (done, rx) = callback();
    conn.send_request_raw_then("first", None, Duration::from_secs(30), done);
    let awaited = conn.send_request("second", None).unwrap();
    let first = peer.recv().await;
    let second = peer.recv().await;
    assert_eq!(
        (first["id"].clone(), second["id"].clone()),
        (json!(0), json!(1))
    );
    peer.reply(&json!(1), json!("b")).await;
    peer.reply(&json!(0), json!("a")).await;
    assert_eq!(outcome_of(rx).await.unwrap().get(), "\"a\"");
    assert_eq!(awaited.wait(None).await.unwrap(), json!("b"));
    assert_eq!(
        conn.lock().deadlines.len(),
        0,
        "a response clears its deadline"
    );
}

#[tokio::test]
async fn callback_requests_time_out_on_their_own_deadline_without_breaking_the_connection() {
    let (conn, mut peer) = start();
    let (slow, slow_rx) = callback();
    conn.send_request_raw_then("slow", None, Duration::from_secs(30), slow);
    let started = Instant::now();
    let (quick, quick_rx) = callback();
    conn.send_request_raw_then("quick", None, Duration::from_millis(100), quick);
    let e = outcome_of(quick_rx).await.unwrap_err();
    // Well before the deadline task's idle tick (1 s): the sooner deadline woke it.
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
    assert!(e.has_code(codes::TIMEOUT));
    assert_eq!(e.message, "adt-ls request quick timed out after 100ms");
    assert_eq!(
        conn.pending_count(),
        1,
        "only the expired request is forgotten"
    );
    let _ = peer.recv().await;
    peer.reply(&json!(0), json!(1)).await;
    assert_eq!(outcome_of(slow_rx).await.unwrap().get(), "1");
}

#[tokio::test]
async fn callback_requests_fail_at_once_when_the_connection_ends_or_cannot_send() {
    let (conn, mut peer) = start();
    let (done, rx) = callback();
    conn.send_request_raw_then("x", None, Duration::from_secs(30), done);
    let _ = peer.recv().await;
    drop(peer);
    let e = outcome_of(rx).await.unwrap_err();
    assert!(e
        .message
        .contains("adt-ls exited (code 13) while x was pending."));
    let (late, late_rx) = callback();
    conn.send_request_raw_then("y", None, Duration::from_secs(30), late);
    let e = outcome_of(late_rx).await.unwrap_err();
    assert!(e.message.contains("cannot send y"), "{}", e.message);

    let (conn, _peer) = start();
    let (done, rx) = callback();
    conn.send_request_raw_then("z", None, Duration::from_secs(30), done);
    conn.dispose();
    let e = outcome_of(rx).await.unwrap_err();
    assert_eq!(e.message, DISPOSED_MESSAGE);
}

#[cfg(unix)]
#[tokio::test]
async fn the_read_only_registered_transport_carries_large_traffic_both_ways_in_order() {
    // crate::lsp::unix_socket: reads registered for read readiness only, writes registered
    // only while blocked. More than a socket buffer each way, with the peer slow to read.
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    let (transport, direct) = crate::lsp::unix_socket::transport(ours).unwrap();
    let conn = Connection::start_with_direct(transport, handlers(), Some(Box::new(direct)));
    theirs.set_nonblocking(true).unwrap();
    let mut peer = Peer::new(tokio::net::UnixStream::from_std(theirs).unwrap());
    let payload = "y".repeat(64 * 1024);
    let sent: Vec<_> = (0..100u64)
        .map(|i| {
            conn.send_request("big", Some(json!({ "i": i, "pad": payload })))
                .unwrap()
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    for i in 0..100u64 {
        let frame = peer.recv().await;
        assert_eq!(frame["id"], i);
        assert_eq!(
            frame["params"]["pad"].as_str().map(str::len),
            Some(64 * 1024)
        );
        peer.reply(&json!(i), json!({ "i": i, "pad": payload }))
            .await;
    }
    for (i, pending) in sent.into_iter().enumerate() {
        let v = pending.wait(Some(Duration::from_secs(10))).await.unwrap();
        assert_eq!(v["i"], i as u64);
    }
    drop(peer);
    tokio::time::timeout(Duration::from_secs(5), async {
        while conn.is_open() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the peer's end is seen");
}

#[tokio::test]
async fn a_request_dropped_in_a_cancel_scope_sends_cancel_request_with_its_id() {
    let (conn, mut peer) = start();
    let pending = conn.send_request("slowOne", None).unwrap();
    let id = pending.id();
    let req = peer.recv().await;
    assert_eq!(req["id"], json!(id));
    let wait = crate::kernel::cancel_scope::cancellable(pending.wait(None));
    let mut wait = Box::pin(wait);
    assert!(futures_util::poll!(wait.as_mut()).is_pending());
    drop(wait);
    let cancel = peer.recv().await;
    assert_eq!(
        cancel,
        json!({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":id}})
    );
    assert_eq!(conn.pending_count(), 0, "the pending entry is gone");
    // A late answer for the cancelled id is ignored and the connection keeps working.
    peer.reply(&json!(id), json!("late")).await;
    answered_request(&conn, &mut peer, "next", json!(1)).await;
}

#[tokio::test]
async fn a_request_dropped_outside_a_cancel_scope_is_forgotten_silently() {
    let (conn, mut peer) = start();
    let pending = conn.send_request("first", None).unwrap();
    let _ = peer.recv().await;
    drop(pending);
    assert_eq!(conn.pending_count(), 0);
    // The next frame the peer sees is the next request: no $/cancelRequest in between.
    answered_request(&conn, &mut peer, "second", json!(2)).await;
}

#[tokio::test]
async fn an_answered_request_dropped_in_a_scope_sends_nothing() {
    let (conn, mut peer) = start();
    let c = conn.clone();
    let done =
        crate::kernel::cancel_scope::cancellable(async move { c.request("a", None, None).await });
    let call = tokio::spawn(done);
    let req = peer.recv().await;
    peer.reply(&req["id"], json!("ok")).await;
    assert_eq!(call.await.unwrap().unwrap(), json!("ok"));
    let next = spawn_request(&conn, "b");
    assert_eq!(peer.recv().await["method"], json!("b"));
    drop(next);
}

#[tokio::test]
async fn abandoning_a_callback_request_tells_its_callback_once() {
    let (conn, mut peer) = start();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let id = conn.next_id_for_test();
    conn.send_request_raw_then(
        "cb",
        None,
        Duration::from_secs(30),
        Box::new(move |outcome| {
            let _ = tx.send(outcome.map(|r| r.get().to_string()));
        }),
    );
    let _ = peer.recv().await;
    assert!(conn.abandon(id, true));
    let err = rx.await.unwrap().unwrap_err();
    assert_eq!(
        err.code,
        Some(crate::kernel::error::ErrorCode::Str(codes::ABORTED.into()))
    );
    assert_eq!(peer.recv().await["method"], json!("$/cancelRequest"));
    assert!(!conn.abandon(id, true), "only once");
}

/// A connection fed by the caller: the writer side is a duplex stream, the reading side is
/// whatever the test feeds (from a thread outside the runtime, as the JS thread is).
fn start_fed() -> (Connection, Feeder, Peer<DuplexStream>) {
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let (conn, feeder) = Connection::start_fed(ours, handlers(), None, None);
    (conn, feeder, Peer::new(theirs))
}

fn frame_of(value: Value) -> Vec<u8> {
    encode(&serde_json::to_vec(&value).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fed_bytes_complete_requests_even_split_mid_frame_from_a_foreign_thread() {
    let (conn, mut feeder, mut peer) = start_fed();
    let (tx, rx) = std::sync::mpsc::channel();
    let done = Box::new(move |r: Result<RawJson>| {
        let _ = tx.send(r.map(|raw| raw.get().to_string()));
    });
    conn.send_request_raw_then("a", None, Duration::from_secs(5), done);
    let sent = peer.recv().await;
    let id = sent["id"].clone();
    let bytes = frame_of(json!({"jsonrpc": "2.0", "id": id, "result": {"ok": 1}}));
    let (first, rest) = bytes.split_at(7);
    let (first, rest) = (first.to_vec(), rest.to_vec());
    let fed = std::thread::spawn(move || {
        assert!(feeder.feed(&first));
        assert!(feeder.feed(&rest));
        feeder
    })
    .join()
    .unwrap();
    let outcome = rx.recv_timeout(Duration::from_secs(5)).unwrap().unwrap();
    assert_eq!(outcome, r#"{"ok":1}"#);
    assert_eq!(conn.pending_count(), 0);
    drop(fed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fed_server_requests_are_answered_with_the_runtime_entered() {
    let (_conn, mut feeder, mut peer) = start_fed();
    let bytes = frame_of(json!({"jsonrpc": "2.0", "id": 7, "method": "echo", "params": {"x": 1}}));
    // Dispatch spawns the handler: this must work from a thread outside the runtime.
    std::thread::spawn(move || {
        assert!(feeder.feed(&bytes));
        feeder
    })
    .join()
    .unwrap();
    let answer = peer.recv().await;
    assert_eq!(answer["id"], json!(7));
    assert_eq!(answer["result"], json!({"x": 1}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fed_eof_fails_pending_with_the_hook_reason_and_feeding_stops() {
    let (conn, feeder, _peer) = start_fed();
    let pending = conn.send_request("slowpoke", None).unwrap();
    assert!(feeder.is_open());
    std::thread::spawn(move || feeder.feed_eof())
        .join()
        .unwrap();
    let e = pending
        .wait(Some(Duration::from_secs(5)))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("adt-ls exited (code 13) while slowpoke was pending."),
        "{e}"
    );
    assert!(!conn.is_open());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fed_framing_violation_closes_at_once_and_dispose_stops_feeding() {
    let (conn, mut feeder, _peer) = start_fed();
    let pending = conn.send_request("p", None).unwrap();
    assert!(!feeder.feed(b"Content-Length: nope\r\n\r\n"));
    let e = pending
        .wait(Some(Duration::from_secs(5)))
        .await
        .unwrap_err();
    assert!(e.has_code(codes::LSP_PROTOCOL), "{e}");

    let (conn, mut feeder, _peer) = start_fed();
    conn.dispose();
    assert!(!feeder.is_open());
    assert!(!feeder.feed(&frame_of(json!({"jsonrpc": "2.0", "id": 0, "result": 1}))));
}
