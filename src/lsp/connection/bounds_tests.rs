//! The connection's bounds against a hostile peer on an in-memory stream: the reader stops
//! while what it dispatched waits (notifications held by a busy consumer, server requests
//! held by their handlers), the writer's queue refuses requests while the peer does not read
//! and replies wait for room, and frames nested too deeply are refused and reported.

use super::*;
use crate::bounds::backlog::DEFAULT_LIMITS;
use crate::lsp::framing::{encode, Decoder};
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};

/// Waits (bounded) until `done` holds.
async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Keeps every notification's charge while `hold` is set, as a busy JS thread keeps the
/// messages in its outbox.
#[derive(Default)]
struct HoldingSink {
    hold: AtomicBool,
    held: Mutex<Vec<Charge>>,
    seen: AtomicUsize,
    methods: Mutex<Vec<String>>,
}

impl NotificationSink for HoldingSink {
    fn notify(&self, method: &str, _params: Option<Value>) {
        self.seen.fetch_add(1, Ordering::SeqCst);
        if self.seen.load(Ordering::SeqCst) <= 4 {
            self.methods.lock().unwrap().push(method.to_string());
        }
        if self.hold.load(Ordering::SeqCst) {
            if let Some(charge) = backlog::take() {
                self.held.lock().unwrap().push(charge);
            }
        }
    }
}

/// Answers `echo` once the gate opens; anything else at once.
struct GatedRouter {
    gate: watch::Receiver<bool>,
}

impl RequestRouter for GatedRouter {
    fn route(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> BoxFuture<std::result::Result<Value, String>> {
        let mut gate = self.gate.clone();
        let gated = method == "gated";
        Box::pin(async move {
            if gated {
                let _ = gate.wait_for(|open| *open).await;
            }
            Ok(params.unwrap_or(Value::Null))
        })
    }
}

struct Hook;
impl CloseHook for Hook {
    fn on_eof(&self) -> BoxFuture<CloseReason> {
        Box::pin(async {
            CloseReason {
                summary: "adt-ls exited".into(),
                detail: String::new(),
                code: codes::CONNECTION_CLOSED,
            }
        })
    }
}

struct Setup {
    conn: Connection,
    sink: Arc<HoldingSink>,
    gate: watch::Sender<bool>,
    peer_read: ReadHalf<DuplexStream>,
    peer_write: WriteHalf<DuplexStream>,
}

/// A connection whose stream buffers at most 64 KiB each way.
fn setup() -> Setup {
    let (ours, theirs) = tokio::io::duplex(64 * 1024);
    let sink = Arc::new(HoldingSink::default());
    let (gate, gate_rx) = watch::channel(false);
    let conn = Connection::start(
        ours,
        Handlers {
            router: Arc::new(GatedRouter { gate: gate_rx }),
            notifications: Some(sink.clone()),
            close_hook: Arc::new(Hook),
        },
    );
    let (peer_read, peer_write) = tokio::io::split(theirs);
    Setup {
        conn,
        sink,
        gate,
        peer_read,
        peer_write,
    }
}

/// Writes `frames` frames from `make` in a task; the count written so far.
fn flood(
    mut peer_write: WriteHalf<DuplexStream>,
    frames: usize,
    make: impl Fn(usize) -> Value + Send + 'static,
) -> (
    Arc<AtomicUsize>,
    tokio::task::JoinHandle<WriteHalf<DuplexStream>>,
) {
    let written = Arc::new(AtomicUsize::new(0));
    let count = written.clone();
    let task = tokio::spawn(async move {
        for i in 0..frames {
            let frame = encode(&serde_json::to_vec(&make(i)).unwrap());
            peer_write.write_all(&frame).await.unwrap();
            count.fetch_add(1, Ordering::SeqCst);
        }
        peer_write
    });
    (written, task)
}

/// Reads frames until `n` were read; their bodies.
async fn read_frames(peer_read: &mut ReadHalf<DuplexStream>, n: usize) -> Vec<Value> {
    let mut decoder = Decoder::new();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    while out.len() < n {
        while let Some(body) = decoder.next_frame().unwrap() {
            out.push(serde_json::from_slice(&body).unwrap());
        }
        if out.len() >= n {
            break;
        }
        let read = tokio::time::timeout(Duration::from_secs(30), peer_read.read(&mut buf))
            .await
            .expect("the peer got its frames in time")
            .unwrap();
        assert!(read > 0, "stream closed");
        decoder.push(&buf[..read]);
    }
    out
}

/// A frame body holds at most this many messages of the flood below, so one read (64 KiB)
/// overshoots the bound by at most this much.
const PER_READ: usize = 64 * 1024 / 60;

#[tokio::test]
async fn a_notification_flood_stops_being_read_while_its_messages_wait() {
    let s = setup();
    s.sink.hold.store(true, Ordering::SeqCst);
    let total = 30_000;
    let (written, task) = flood(
        s.peer_write,
        total,
        |i| json!({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 4, "message": i}}),
    );
    eventually("the backlog to fill", || {
        s.conn.backlog().0 >= DEFAULT_LIMITS.items
    })
    .await;
    // Reading has stopped: nothing more is dispatched, and the peer's writes block.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let seen = s.sink.seen.load(Ordering::SeqCst);
    assert!(seen <= DEFAULT_LIMITS.items + PER_READ, "{seen} dispatched");
    assert_eq!(s.conn.backlog().0, seen, "every dispatched one is waiting");
    assert!(
        written.load(Ordering::SeqCst) < total,
        "the peer is blocked"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(s.sink.seen.load(Ordering::SeqCst), seen, "still stopped");
    // The consumer catches up: reading resumes and everything arrives, in order.
    s.sink.hold.store(false, Ordering::SeqCst);
    s.sink.held.lock().unwrap().clear();
    eventually("the whole flood", || {
        s.sink.seen.load(Ordering::SeqCst) == total
    })
    .await;
    task.await.unwrap();
    assert_eq!(s.conn.backlog(), (0, 0));
    assert_eq!(s.sink.methods.lock().unwrap()[0], "window/logMessage");
    s.conn.dispose();
}

#[tokio::test]
async fn server_requests_waiting_for_their_handlers_stop_the_reading_at_the_bound() {
    let mut s = setup();
    let total = 6_000;
    let (written, task) = flood(
        s.peer_write,
        total,
        |i| json!({"jsonrpc": "2.0", "id": format!("s{i}"), "method": "gated", "params": {"i": i}}),
    );
    eventually("the server-request bound to fill", || {
        s.conn.backlog().0 >= SERVER_REQUEST_LIMITS.items
    })
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let in_flight = s.conn.backlog().0;
    assert!(
        in_flight <= SERVER_REQUEST_LIMITS.items + PER_READ,
        "{in_flight} handlers in flight"
    );
    assert!(
        written.load(Ordering::SeqCst) < total,
        "the peer is blocked"
    );
    // The handlers answer: every request gets its reply, the reader having resumed.
    s.gate.send(true).unwrap();
    let replies = read_frames(&mut s.peer_read, total).await;
    let mut ids: Vec<String> = replies
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), total);
    task.await.unwrap();
    eventually("the backlog to drain", || s.conn.backlog() == (0, 0)).await;
    s.conn.dispose();
}

/// Sends a callback request; true when it was refused at once for a full write queue.
fn refused_at_once(conn: &Connection, i: usize) -> bool {
    let refused = Arc::new(AtomicBool::new(false));
    let flag = refused.clone();
    let params = RawValue::from_string(format!("{{\"i\":{i}}}")).unwrap();
    conn.send_request_raw_then(
        "m",
        Some(&params),
        Duration::from_secs(600),
        Box::new(move |outcome| {
            if let Err(e) = outcome {
                if e.has_code(codes::NOT_READING) {
                    flag.store(true, Ordering::SeqCst);
                }
            }
        }),
    );
    refused.load(Ordering::SeqCst)
}

#[tokio::test]
async fn requests_are_refused_while_adt_ls_does_not_read_and_go_through_once_it_does() {
    let mut s = setup();
    let mut accepted = 0;
    let mut first_refusal = None;
    for i in 0..100_000 {
        if refused_at_once(&s.conn, i) {
            first_refusal.get_or_insert(i);
        } else {
            accepted += 1;
        }
    }
    let first = first_refusal.expect("requests were refused");
    assert!(first >= WRITE_QUEUE_LIMITS.items, "refused after {first}");
    assert_eq!(s.conn.unwritten().0, WRITE_QUEUE_LIMITS.items);
    // The message says why.
    let (tx, rx) = oneshot::channel();
    s.conn.send_request_raw_then(
        "x/y",
        None,
        Duration::from_secs(1),
        Box::new(move |o| drop(tx.send(o))),
    );
    let e = rx.await.unwrap().unwrap_err();
    assert!(e.has_code(codes::NOT_READING));
    assert!(
        e.message
            .starts_with("adt-ls is not reading what is sent to it: 32768 messages ("),
        "{}",
        e.message
    );
    assert!(e.message.ends_with("x/y was not sent."), "{}", e.message);
    assert!(
        s.conn.send_notification("n", None).is_err(),
        "notifications too"
    );
    // adt-ls reads again: the queue drains and calls go through again.
    read_frames(&mut s.peer_read, accepted).await;
    eventually("the queue to drain", || s.conn.unwritten() == (0, 0)).await;
    assert!(!refused_at_once(&s.conn, 0));
    s.conn.dispose();
}

#[tokio::test]
async fn a_reply_to_a_server_request_waits_for_room_in_the_write_queue() {
    let mut s = setup();
    // Fill the queue until it stays full: the writer blocked on the unread stream.
    let mut accepted = 0;
    loop {
        while !refused_at_once(&s.conn, accepted) {
            accepted += 1;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        if s.conn.unwritten().0 == WRITE_QUEUE_LIMITS.items {
            break;
        }
    }
    let mut peer_write = s.peer_write;
    let ask = json!({"jsonrpc": "2.0", "id": "ask", "method": "echo", "params": {"q": 1}});
    peer_write
        .write_all(&encode(&serde_json::to_vec(&ask).unwrap()))
        .await
        .unwrap();
    eventually("the request to be dispatched", || s.conn.backlog().0 == 1).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(s.conn.backlog().0, 1, "the reply waits, holding its charge");
    assert_eq!(s.conn.unwritten().0, WRITE_QUEUE_LIMITS.items, "not queued");
    let frames = read_frames(&mut s.peer_read, accepted + 1).await;
    let reply = frames.last().unwrap();
    assert_eq!(
        reply,
        &json!({"jsonrpc": "2.0", "id": "ask", "result": {"q": 1}})
    );
    eventually("the reply's charge to go", || s.conn.backlog() == (0, 0)).await;
    s.conn.dispose();
}

#[tokio::test]
async fn a_response_held_by_its_callback_counts_until_the_callback_lets_go() {
    let mut s = setup();
    let (tx, rx) = oneshot::channel();
    s.conn.send_request_raw_then(
        "m",
        None,
        Duration::from_secs(60),
        Box::new(move |outcome| {
            let _ = tx.send((outcome, backlog::take()));
        }),
    );
    let request = read_frames(&mut s.peer_read, 1).await.remove(0);
    let response = json!({"jsonrpc": "2.0", "id": request["id"], "result": [1, 2, 3]});
    let body = serde_json::to_vec(&response).unwrap();
    s.peer_write.write_all(&encode(&body)).await.unwrap();
    let (outcome, charge) = rx.await.unwrap();
    assert_eq!(outcome.unwrap().get(), "[1,2,3]");
    assert!(charge.is_some(), "the callback got the response's charge");
    assert_eq!(s.conn.backlog(), (1, body.len()));
    drop(charge);
    assert_eq!(s.conn.backlog(), (0, 0));
    s.conn.dispose();
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

async fn send_text(peer_write: &mut WriteHalf<DuplexStream>, body: String) {
    peer_write
        .write_all(&encode(body.as_bytes()))
        .await
        .unwrap();
}

#[tokio::test]
async fn frames_nested_too_deeply_are_refused_and_reported() {
    crate::kernel::log::testing::capture_logs();
    let mut s = setup();
    let c = s.conn.clone();
    let call = tokio::spawn(async move { c.request("deep/result", None, None).await });
    let request = read_frames(&mut s.peer_read, 1).await.remove(0);
    let deep = nested(1_000_000);
    let id = &request["id"];
    send_text(
        &mut s.peer_write,
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{deep}}}"#),
    )
    .await;
    let e = call.await.unwrap().unwrap_err();
    assert!(e.has_code(codes::JSON_TOO_DEEP), "{e:?}");
    assert_eq!(
        e.message,
        "adt-ls sent a response to deep/result nested deeper than 100 levels; it was refused."
    );
    send_text(
        &mut s.peer_write,
        format!(r#"{{"jsonrpc":"2.0","method":"deep/note","params":{deep}}}"#),
    )
    .await;
    send_text(
        &mut s.peer_write,
        format!(r#"{{"jsonrpc":"2.0","id":"s9","method":"deep/ask","params":{deep}}}"#),
    )
    .await;
    let reply = read_frames(&mut s.peer_read, 1).await.remove(0);
    assert_eq!(reply["id"], json!("s9"));
    assert_eq!(reply["error"]["code"], json!(-32600));
    assert_eq!(
        reply["error"]["message"],
        json!("Request deep/ask was refused: the message is nested deeper than 100 levels")
    );
    assert_eq!(
        s.sink.seen.load(Ordering::SeqCst),
        0,
        "the notification was dropped"
    );
    let warnings: Vec<String> = crate::kernel::log::testing::lines()
        .into_iter()
        .filter(|(level, _)| *level == crate::kernel::log::Level::Warn)
        .map(|(_, line)| line)
        .collect();
    for expected in [
        "lsp: adt-ls's response to deep/result was refused: the message is nested deeper than 100 levels",
        "lsp: adt-ls's notification deep/note was dropped: the message is nested deeper than 100 levels",
        "lsp: adt-ls's request deep/ask was refused with a JSON-RPC error: the message is nested deeper than 100 levels",
    ] {
        assert!(warnings.iter().any(|w| w == expected), "{expected} in {warnings:?}");
    }
    // The connection goes on.
    let c = s.conn.clone();
    let call = tokio::spawn(async move { c.request("after", None, None).await });
    let request = read_frames(&mut s.peer_read, 1).await.remove(0);
    send_text(
        &mut s.peer_write,
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":"ok"}}"#,
            request["id"]
        ),
    )
    .await;
    assert_eq!(call.await.unwrap().unwrap(), json!("ok"));
    s.conn.dispose();
}
