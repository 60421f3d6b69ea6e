//! One LSP connection over a byte stream: a reader task (frames in, responses matched to
//! pending requests, server requests answered concurrently), a writer task (frames out, in
//! order, single writer) and the pending map. Modelled on helix-lsp's transport: requests
//! get integer ids from 0 and a oneshot each; when the stream ends every pending request is
//! failed at once with the reason the [`CloseHook`] supplies (docs/decisions.md#d5-2), and every
//! wait is bounded by a timeout or cancelled by [`Connection::dispose`]. A framing violation
//! ends the connection at once: pending requests fail with `ERR_LSP_PROTOCOL`.
//! With a [`DirectWriter`] (a second handle on the socket, non-blocking), a frame is written
//! by the calling thread itself while the writer task has nothing queued, sparing a thread
//! hand-off per request; whatever the socket does not take at once goes to the writer task,
//! and nothing is written directly while the writer has frames queued, so frames never
//! interleave and keep their order.
//!
//! Both directions are bounded (docs/security.md, "Hostile peers: queues"): what the reader
//! dispatched and is not yet done with is charged to its [`Backlog`], and the reader stops
//! reading while that is full; frames waiting for the writer are charged to a second one, and
//! while it is full new requests and notifications are refused (`ERR_ADT_LS_NOT_READING`)
//! and replies to server requests wait for room.

use super::framing;
use super::message::RawJson;
use super::message::{self, RpcError};
use super::params::{encode_params, encode_params_raw, encode_raw_params};
use crate::bounds::backlog::{self, Backlog, Charge, Limits};
use crate::kernel::error::{codes, Error, Result};
use crate::kernel::log;
use crate::trace::{Direction, Tracer};
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::io::Write as _;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot, watch, Notify};

use crate::kernel::future::BoxFuture;

/// Answers server->client requests. `Err(message)` becomes the JSON-RPC error
/// `Request <method> failed with message: <message>` (code -32603), as vscode-jsonrpc words it.
pub(crate) trait RequestRouter: Send + Sync + 'static {
    fn route(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> BoxFuture<std::result::Result<Value, String>>;
}

/// Receives server notifications; the default is to drop them, as the reference does.
pub(crate) trait NotificationSink: Send + Sync + 'static {
    fn notify(&self, method: &str, params: Option<Value>);
}

/// Why the stream ended, as the owner of the connection explains it (for example
/// "adt-ls exited (code 13)" plus the last stderr lines).
#[derive(Debug, Clone)]
pub(crate) struct CloseReason {
    pub summary: String,
    pub detail: String,
    /// The error code pending and later requests get: [`codes::CONNECTION_CLOSED`] when the
    /// peer went away, [`codes::LSP_PROTOCOL`] when it broke the framing.
    pub code: &'static str,
}

impl CloseReason {
    fn error_for(&self, method: &str, was_pending: bool) -> Error {
        let what = if was_pending {
            format!("{} while {method} was pending.", self.summary)
        } else {
            format!("{}; cannot send {method}.", self.summary)
        };
        let message = if self.detail.is_empty() {
            what
        } else {
            format!("{what}\n{}", self.detail)
        };
        Error::coded(self.code, message)
    }

    /// The reason for ending the connection after a framing violation.
    pub(crate) fn framing(e: &framing::FramingError) -> CloseReason {
        CloseReason {
            summary: format!("adt-ls broke the LSP framing ({e}); the connection was closed"),
            detail: String::new(),
            code: codes::LSP_PROTOCOL,
        }
    }
}

/// Supplies the [`CloseReason`] when the peer closes the stream.
pub(crate) trait CloseHook: Send + Sync + 'static {
    fn on_eof(&self) -> BoxFuture<CloseReason>;
}

/// The message and code pending requests get when the connection is disposed, as
/// vscode-jsonrpc 8.2.1 words it.
pub(crate) const DISPOSED_MESSAGE: &str = "Pending response rejected since connection got disposed";
pub(crate) const DISPOSED_CODE: i64 = -32097;

/// A second, non-blocking handle on the connection's socket for writes from the calling
/// thread ([`Connection::start_with_direct`]); `WouldBlock` or a short write hands the rest
/// to the writer task.
pub(crate) type DirectWriter = Box<dyn std::io::Write + Send>;

/// One frame for the writer; `written` is told once it is on the wire, and its charge to the
/// unwritten frames is released then.
struct Outgoing {
    frame: Vec<u8>,
    written: Option<oneshot::Sender<()>>,
    _unwritten: Charge,
}

/// How many server requests may wait for their answers before the reader stops: adt-ls asks
/// a handful at a time (the logon), a flood of them to a handler that does not answer costs
/// a task and a JS call each.
pub(crate) const SERVER_REQUEST_LIMITS: Limits = Limits {
    items: 256,
    bytes: 4 * 1024 * 1024,
};

/// How many frames, and how many bytes of them, may wait for the writer before new requests
/// and notifications are refused: a burst of 20,000 calls in flight fits (the socket takes
/// thousands at once and adt-ls reads while we write), while a peer that stopped reading is
/// noticed before the waiting calls (about 1 KB each, JS promise included) cost more than a
/// few tens of MB.
pub(crate) const WRITE_QUEUE_LIMITS: Limits = Limits {
    items: 32_768,
    bytes: 16 * 1024 * 1024,
};

/// How long a dispose waits for already queued frames to go out.
const FLUSH_ON_CLOSE: Duration = Duration::from_millis(500);

struct Pending {
    method: String,
    waiter: Waiter,
    /// For [`Waiter::Callback`]: when it times out, and the limit for the message.
    deadline: Option<(Instant, Duration)>,
}

/// Told the outcome of a request: a [`PendingResponse`] awaiting a channel, or a callback
/// run on the thread that sees the outcome (the reader, the deadline task, or whoever
/// closes the connection), which spares a task per request.
enum Waiter {
    Channel(oneshot::Sender<Result<RawJson>>),
    Callback(ResponseCallback),
}

/// Receives a request's outcome exactly once ([`Connection::send_request_raw_then`]).
pub(crate) type ResponseCallback = Box<dyn FnOnce(Result<RawJson>) + Send>;

impl Waiter {
    fn finish(self, outcome: Result<RawJson>) {
        match self {
            Waiter::Channel(tx) => {
                let _ = tx.send(outcome);
            }
            Waiter::Callback(done) => done(outcome),
        }
    }
}

/// How long the deadline task sleeps while no callback request is pending; a request whose
/// deadline is sooner than the task's wake-up wakes it (only short explicit timeouts do).
const DEADLINE_IDLE_TICK: Duration = Duration::from_secs(1);

/// The LSP notification that cancels a request in flight.
pub(crate) const CANCEL_REQUEST: &str = "$/cancelRequest";

fn timeout_error(method: &str, limit: Duration) -> Error {
    Error::coded(
        codes::TIMEOUT,
        format!(
            "adt-ls request {method} timed out after {}ms",
            limit.as_millis()
        ),
    )
}

enum Phase {
    Open,
    Disposed,
    Closed(CloseReason),
}

struct State {
    phase: Phase,
    pending: HashMap<u64, Pending>,
    /// Dropped (closing its handle) when the connection ends or a direct write fails.
    direct: Option<DirectWriter>,
    /// Deadlines of callback requests, earliest first.
    deadlines: BTreeSet<(Instant, u64)>,
    /// When the deadline task wakes up next (None while it is not sleeping on a time).
    deadline_wake: Option<Instant>,
}

struct Inner {
    next_id: AtomicU64,
    state: Mutex<State>,
    writer: mpsc::UnboundedSender<Outgoing>,
    /// Frames handed to the writer task and not yet fully written (charged under the state
    /// lock; a direct write happens only under that lock while there are none).
    unwritten: Arc<Backlog>,
    /// What the reader dispatched and is not yet done with.
    backlog: Arc<Backlog>,
    /// Server requests read and not yet answered (a tighter bound: each holds a task and
    /// often a JS call).
    requests: Arc<Backlog>,
    /// Wakes the deadline task for a deadline sooner than its wake-up.
    deadline_changed: Notify,
    shutdown: watch::Sender<bool>,
    /// Every message in and out is recorded here when a wire trace is on (docs/tracing.md).
    trace: Option<Arc<Tracer>>,
}

/// A request on the wire, waiting for its response. Dropped unanswered inside a
/// [`crate::kernel::cancel_scope`], it sends `$/cancelRequest` with its id; elsewhere it is just
/// forgotten (its pending entry removed), as the reference does.
pub(crate) struct PendingResponse {
    conn: Connection,
    id: u64,
    method: String,
    rx: oneshot::Receiver<Result<RawJson>>,
    /// Set once the wait ended (answered, timed out or failed): nothing left to cancel.
    settled: bool,
}

impl Drop for PendingResponse {
    fn drop(&mut self) {
        if !self.settled {
            self.conn
                .abandon(self.id, crate::kernel::cancel_scope::active());
        }
    }
}

impl PendingResponse {
    /// Wait for the response, at most `timeout` when one is given (the request is then
    /// forgotten; `$/cancelRequest` is sent only inside a [`crate::kernel::cancel_scope`], the
    /// reference sends none).
    pub(crate) async fn wait(self, timeout: Option<Duration>) -> Result<Value> {
        let raw = self.wait_raw(timeout).await?;
        serde_json::from_str(raw.get())
            .map_err(|e| Error::new(format!("adt-ls sent an invalid result: {e}")))
    }

    /// [`PendingResponse::wait`] with the result left as JSON text.
    pub(crate) async fn wait_raw(mut self, timeout: Option<Duration>) -> Result<RawJson> {
        let outcome = match timeout {
            Some(limit) => match tokio::time::timeout(limit, &mut self.rx).await {
                Ok(received) => received,
                Err(_) => {
                    self.settled = true;
                    self.conn
                        .abandon(self.id, crate::kernel::cancel_scope::active());
                    return Err(timeout_error(&self.method, limit));
                }
            },
            None => (&mut self.rx).await,
        };
        self.settled = true;
        outcome.unwrap_or_else(|_| Err(closed_error()))
    }

    #[cfg(test)]
    /// The JSON-RPC id the request went out with.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }
}

/// Handle to a running connection; clones share it.
#[derive(Clone)]
pub(crate) struct Connection {
    inner: Arc<Inner>,
}

/// What a connection needs besides the stream.
pub(crate) struct Handlers {
    pub router: Arc<dyn RequestRouter>,
    pub notifications: Option<Arc<dyn NotificationSink>>,
    pub close_hook: Arc<dyn CloseHook>,
}

impl Connection {
    #[cfg(test)]
    /// Start the reader and writer tasks on the current tokio runtime.
    pub(crate) fn start<S>(stream: S, handlers: Handlers) -> Connection
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        Connection::start_with_direct(stream, handlers, None)
    }

    #[cfg(test)]
    /// [`Connection::start`] with a second handle on the same socket for direct writes.
    pub(crate) fn start_with_direct<S>(
        stream: S,
        handlers: Handlers,
        direct: Option<DirectWriter>,
    ) -> Connection
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        Connection::start_traced(stream, handlers, direct, None)
    }

    /// [`Connection::start_with_direct`] recording every message to `trace`.
    pub(crate) fn start_traced<S>(
        stream: S,
        handlers: Handlers,
        direct: Option<DirectWriter>,
        trace: Option<Arc<Tracer>>,
    ) -> Connection
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (reader, writer) = tokio::io::split(stream);
        let (conn, shutdown_rx) = Connection::launch(writer, direct, trace);
        let feeder = Feeder::new(conn.clone(), handlers, shutdown_rx.clone());
        tokio::spawn(read_loop(reader, feeder, shutdown_rx));
        conn
    }

    #[cfg_attr(not(unix), allow(dead_code))] // only the JS-thread reader (Unix) feeds a connection
    /// A connection "fed by the caller": the writer and deadline tasks run, but no reader
    /// task; whoever reads the stream hands the bytes to the returned [`Feeder`] (framing,
    /// limits, trace and dispatch as for [`Connection::start_traced`]). Must be called
    /// inside the tokio runtime (the feeder dispatches with it entered).
    pub(crate) fn start_fed<W>(
        writer: W,
        handlers: Handlers,
        direct: Option<DirectWriter>,
        trace: Option<Arc<Tracer>>,
    ) -> (Connection, Feeder)
    where
        W: AsyncWrite + Send + 'static,
    {
        let (conn, shutdown_rx) = Connection::launch(writer, direct, trace);
        let feeder = Feeder::new(conn.clone(), handlers, shutdown_rx);
        (conn, feeder)
    }

    /// The state plus the writer and deadline tasks.
    fn launch<W>(
        writer: W,
        direct: Option<DirectWriter>,
        trace: Option<Arc<Tracer>>,
    ) -> (Connection, watch::Receiver<bool>)
    where
        W: AsyncWrite + Send + 'static,
    {
        let (tx, rx) = mpsc::unbounded_channel();
        let (shutdown, shutdown_rx) = watch::channel(false);
        let conn = Connection {
            inner: Arc::new(Inner {
                next_id: AtomicU64::new(0),
                state: Mutex::new(State {
                    phase: Phase::Open,
                    pending: HashMap::new(),
                    direct,
                    deadlines: BTreeSet::new(),
                    deadline_wake: None,
                }),
                writer: tx,
                unwritten: Backlog::new(WRITE_QUEUE_LIMITS),
                backlog: Backlog::new(backlog::DEFAULT_LIMITS),
                requests: Backlog::new(SERVER_REQUEST_LIMITS),
                deadline_changed: Notify::new(),
                shutdown,
                trace,
            }),
        };
        tokio::spawn(write_loop(writer, rx, shutdown_rx.clone()));
        tokio::spawn(deadline_loop(conn.clone(), shutdown_rx.clone()));
        (conn, shutdown_rx)
    }

    /// Send a request and wait for its response, at most `timeout` when one is given.
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Option<Duration>,
    ) -> Result<Value> {
        self.send_request(method, params)?.wait(timeout).await
    }

    /// Put a request on the wire now (synchronously, so calls keep their order) and return
    /// the handle to await its response.
    pub(crate) fn send_request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<PendingResponse> {
        self.send_awaited(method, &encode_params_raw(params))
    }

    /// [`Connection::send_request`] with params that are already JSON text.
    pub(crate) fn send_request_raw(
        &self,
        method: &str,
        params: Option<&RawValue>,
    ) -> Result<PendingResponse> {
        self.send_awaited(method, &encode_raw_params(params))
    }

    fn send_awaited(&self, method: &str, params: &RawValue) -> Result<PendingResponse> {
        let (tx, rx) = oneshot::channel();
        let id = self.send_encoded(method, params, Waiter::Channel(tx), None)?;
        Ok(PendingResponse {
            conn: self.clone(),
            id,
            method: method.to_string(),
            rx,
            settled: false,
        })
    }

    /// Put a request on the wire now and hand its outcome to `done` (always called exactly
    /// once: with the response, a timeout after `timeout`, the connection's end, or at once
    /// with the error when the request cannot be sent). No task waits for it.
    pub(crate) fn send_request_raw_then(
        &self,
        method: &str,
        params: Option<&RawValue>,
        timeout: Duration,
        done: ResponseCallback,
    ) {
        let deadline = Instant::now() + timeout;
        let sent = self.send_encoded(
            method,
            &encode_raw_params(params),
            Waiter::Callback(done),
            Some((deadline, timeout)),
        );
        if let Err(NotSent(e, waiter)) = sent {
            waiter.finish(Err(e));
        }
    }

    fn send_encoded(
        &self,
        method: &str,
        params: &RawValue,
        waiter: Waiter,
        deadline: Option<(Instant, Duration)>,
    ) -> std::result::Result<u64, NotSent> {
        let mut state = self.lock();
        match &state.phase {
            Phase::Open => {}
            Phase::Disposed => return Err(NotSent(disposed_error(), waiter)),
            Phase::Closed(reason) => {
                return Err(NotSent(reason.error_for(method, false), waiter));
            }
        }
        if !self.inner.unwritten.has_room() {
            return Err(NotSent(self.not_reading(method), waiter));
        }
        // Id allocation and enqueueing happen under the lock: ids go out in order.
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let body = message::request(id, method, params);
        self.trace(Direction::Out, &body);
        let frame = framing::encode(&body);
        let written = self.write_direct(&mut state, &frame);
        if written < frame.len() {
            let rest = if written == 0 {
                frame
            } else {
                frame[written..].to_vec()
            };
            if !self.enqueue(&state, rest, None) {
                return Err(NotSent(closed_error(), waiter));
            }
        }
        let wake_deadline_task = match deadline {
            Some((at, _)) => {
                state.deadlines.insert((at, id));
                state.deadline_wake.is_none_or(|wake| at < wake)
            }
            None => false,
        };
        state.pending.insert(
            id,
            Pending {
                method: method.to_string(),
                waiter,
                deadline,
            },
        );
        drop(state);
        if wake_deadline_task {
            self.inner.deadline_changed.notify_one();
        }
        Ok(id)
    }

    /// Fail every callback request whose deadline has passed; the next deadline, if any.
    fn expire(&self, now: Instant) -> Option<Instant> {
        let mut expired = Vec::new();
        let next = {
            let mut state = self.lock();
            while let Some(&(at, id)) = state.deadlines.first() {
                if at > now {
                    break;
                }
                state.deadlines.pop_first();
                if let Some(p) = state.pending.remove(&id) {
                    expired.push(p);
                }
            }
            state.deadlines.first().map(|&(at, _)| at)
        };
        for p in expired {
            let limit = p.deadline.map(|(_, limit)| limit).unwrap_or_default();
            p.waiter.finish(Err(timeout_error(&p.method, limit)));
        }
        next
    }

    /// Send a notification (params encoded like requests'); resolves once it is written.
    pub(crate) async fn notify(&self, method: &str, params: Option<Value>) -> Result<()> {
        let written = self.send_notification(method, params)?;
        written.await.map_err(|_| closed_error())
    }

    /// Put a notification on the wire now; the receiver fires once it is written.
    pub(crate) fn send_notification(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<oneshot::Receiver<()>> {
        let (tx, rx) = oneshot::channel();
        let state = self.lock();
        match &state.phase {
            Phase::Open => {}
            Phase::Disposed => return Err(disposed_error()),
            Phase::Closed(reason) => return Err(reason.error_for(method, false)),
        }
        if !self.inner.unwritten.has_room() {
            return Err(self.not_reading(method));
        }
        let body = message::notification(method, encode_params(params));
        self.trace(Direction::Out, &body);
        let frame = framing::encode(&body);
        if !self.enqueue(&state, frame, Some(tx)) {
            return Err(closed_error());
        }
        drop(state);
        Ok(rx)
    }

    /// Stop waiting for request `id`: its pending entry goes; when it was still unanswered
    /// and `cancel` is set, `$/cancelRequest {id}` goes on the wire (best effort: a closed
    /// connection has nothing to cancel). True when the request was still pending.
    pub(crate) fn abandon(&self, id: u64, cancel: bool) -> bool {
        let removed = {
            let mut state = self.lock();
            let removed = state.pending.remove(&id);
            if let Some((at, _)) = removed.as_ref().and_then(|p| p.deadline) {
                state.deadlines.remove(&(at, id));
            }
            removed
        };
        let Some(pending) = removed else {
            return false;
        };
        if cancel {
            let _ = self.send_notification(CANCEL_REQUEST, Some(serde_json::json!({ "id": id })));
        }
        // A callback waiter is told exactly once; a channel's receiver is gone already.
        pending.waiter.finish(Err(Error::coded(
            codes::ABORTED,
            "The operation was aborted",
        )));
        true
    }

    /// The id the next request will get (tests).
    #[cfg(test)]
    pub(crate) fn next_id_for_test(&self) -> u64 {
        self.inner.next_id.load(Ordering::Relaxed)
    }

    /// True until the stream ends or the connection is disposed.
    pub(crate) fn is_open(&self) -> bool {
        matches!(self.lock().phase, Phase::Open)
    }

    #[cfg(test)]
    /// Number of requests waiting for a response.
    pub(crate) fn pending_count(&self) -> usize {
        self.lock().pending.len()
    }

    /// Stop both tasks and reject every pending request with vscode-jsonrpc's "disposed"
    /// error. Idempotent.
    pub(crate) fn dispose(&self) {
        let drained = {
            let mut state = self.lock();
            if matches!(state.phase, Phase::Open) {
                state.phase = Phase::Disposed;
            }
            state.direct = None;
            std::mem::take(&mut state.pending)
        };
        for (_, p) in drained {
            p.waiter.finish(Err(disposed_error()));
        }
        let _ = self.inner.shutdown.send(true);
    }

    /// Close because the peer is gone: pending requests fail with `reason`. Idempotent.
    pub(crate) fn close(&self, reason: CloseReason) {
        let drained = {
            let mut state = self.lock();
            if matches!(state.phase, Phase::Open) {
                state.phase = Phase::Closed(reason.clone());
            }
            state.direct = None;
            std::mem::take(&mut state.pending)
        };
        for (_, p) in drained {
            let error = reason.error_for(&p.method, true);
            p.waiter.finish(Err(error));
        }
        let _ = self.inner.shutdown.send(true);
    }

    fn complete(&self, id: &Value, outcome: std::result::Result<RawJson, RpcError>) {
        if let Some(p) = self.take_pending(id) {
            let result = outcome.map_err(|e| Error::rpc(e.code, e.message, e.data));
            p.waiter.finish(result);
        }
    }

    /// Fail request `id` with the error `error` makes from its method (a response that
    /// could not be used).
    fn fail(&self, id: &Value, error: impl FnOnce(&str) -> Error) {
        if let Some(p) = self.take_pending(id) {
            let e = error(&p.method);
            p.waiter.finish(Err(e));
        }
    }

    /// The pending request a response with `id` answers, taken out of the map.
    fn take_pending(&self, id: &Value) -> Option<Pending> {
        let Some(id) = id.as_u64() else {
            log::debug(format!("lsp: response with foreign id {id} ignored"));
            return None;
        };
        let removed = {
            let mut state = self.lock();
            let p = state.pending.remove(&id);
            if let Some((at, _)) = p.as_ref().and_then(|p| p.deadline) {
                state.deadlines.remove(&(at, id));
            }
            p
        };
        if removed.is_none() {
            log::debug(format!(
                "lsp: response for unknown or expired id {id} ignored"
            ));
        }
        removed
    }

    /// Why `method` is refused while the writer's queue is full.
    fn not_reading(&self, method: &str) -> Error {
        let (frames, bytes) = self.inner.unwritten.load();
        Error::coded(
            codes::NOT_READING,
            format!(
                "adt-ls is not reading what is sent to it: {frames} messages ({bytes} bytes) \
                 are waiting to be written; {method} was not sent."
            ),
        )
    }

    #[cfg(test)]
    /// What waits for the writer: (frames, bytes).
    pub(crate) fn unwritten(&self) -> (usize, usize) {
        self.inner.unwritten.load()
    }

    #[cfg(test)]
    /// What the reader dispatched and is not yet done with: (messages, bytes).
    pub(crate) fn backlog(&self) -> (usize, usize) {
        self.inner.backlog.load()
    }

    /// Queue a reply to a server request once the writer has room (it waits, holding the
    /// request's charge, so a peer that floods requests without reading our replies stops
    /// being read); dropped when the connection ends first.
    async fn send_reply(&self, body: Vec<u8>, shutdown: &mut watch::Receiver<bool>) {
        tokio::select! {
            _ = self.inner.unwritten.room() => self.send_frame(body),
            _ = stopped(shutdown) => {}
        }
    }

    /// Record a message body when a trace is on (one branch otherwise).
    fn trace(&self, dir: Direction, body: &[u8]) {
        if let Some(trace) = &self.inner.trace {
            trace.lsp(dir, body);
        }
    }

    fn send_frame(&self, body: Vec<u8>) {
        self.trace(Direction::Out, &body);
        let state = self.lock();
        self.enqueue(&state, framing::encode(&body), None);
    }

    /// Hand a frame to the writer task (the state lock held: see [`Inner::unwritten`]).
    fn enqueue(
        &self,
        _locked: &State,
        frame: Vec<u8>,
        written: Option<oneshot::Sender<()>>,
    ) -> bool {
        let charge = self.inner.unwritten.charge(frame.len());
        let out = Outgoing {
            frame,
            written,
            _unwritten: charge,
        };
        self.inner.writer.send(out).is_ok()
    }

    /// Write as much of `frame` as the socket takes now, from this thread, when the writer
    /// task has nothing queued; the number of bytes written (0 when it was not tried).
    fn write_direct(&self, state: &mut State, frame: &[u8]) -> usize {
        if self.inner.unwritten.load().0 != 0 {
            return 0;
        }
        let Some(direct) = state.direct.as_mut() else {
            return 0;
        };
        let mut written = 0;
        while written < frame.len() {
            match direct.write(&frame[written..]) {
                Ok(0) => break,
                Ok(n) => written += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => {
                    // The writer task meets the same error and the reader the end of the
                    // stream; they close the connection with the reason.
                    log::debug(format!("lsp: direct write failed ({e}); using the writer"));
                    state.direct = None;
                    break;
                }
            }
        }
        written
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A poisoned lock only means a panic elsewhere; the state itself stays consistent.
        self.inner.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A request that was not sent: why, and its waiter back (to be told).
struct NotSent(Error, Waiter);

impl From<NotSent> for Error {
    fn from(not_sent: NotSent) -> Error {
        not_sent.0
    }
}

/// Times out callback requests: sleeps until the earliest deadline (or
/// [`DEADLINE_IDLE_TICK`] while there is none), woken early only for a sooner deadline.
async fn deadline_loop(conn: Connection, mut shutdown: watch::Receiver<bool>) {
    loop {
        let next = conn.expire(Instant::now());
        let wake = next.unwrap_or_else(|| Instant::now() + DEADLINE_IDLE_TICK);
        conn.lock().deadline_wake = Some(wake);
        tokio::select! {
            _ = tokio::time::sleep_until(wake.into()) => {}
            _ = conn.inner.deadline_changed.notified() => {}
            _ = stopped(&mut shutdown) => break,
        }
    }
}

/// Resolves once shutdown is signalled (or the sender is gone).
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}

fn closed_error() -> Error {
    Error::coded(codes::CONNECTION_CLOSED, "Connection is closed.")
}

fn disposed_error() -> Error {
    Error::rpc(DISPOSED_CODE, DISPOSED_MESSAGE, None)
}

async fn write_loop<W: AsyncWrite>(
    writer: W,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
    mut shutdown: watch::Receiver<bool>,
) {
    tokio::pin!(writer);
    loop {
        tokio::select! {
            biased;
            out = rx.recv() => {
                let Some(out) = out else { break };
                if !write_one(&mut writer, out).await {
                    return;
                }
            }
            _ = stopped(&mut shutdown) => break,
        }
    }
    // Frames queued before the close still go out (a notification sent right before dispose),
    // within a bound.
    let _ = tokio::time::timeout(FLUSH_ON_CLOSE, async {
        while let Ok(out) = rx.try_recv() {
            if !write_one(&mut writer, out).await {
                break;
            }
        }
    })
    .await;
    let _ = writer.shutdown().await;
}

async fn write_one<W: AsyncWrite>(writer: &mut Pin<&mut W>, out: Outgoing) -> bool {
    let ok = writer.write_all(&out.frame).await.is_ok() && writer.flush().await.is_ok();
    if ok {
        if let Some(done) = out.written {
            let _ = done.send(());
        }
    }
    ok
}

async fn read_loop<R: AsyncRead>(
    reader: R,
    mut feeder: Feeder,
    mut shutdown: watch::Receiver<bool>,
) {
    tokio::pin!(reader);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        if !feeder.has_room() {
            tokio::select! {
                _ = feeder.room() => {}
                _ = stopped(&mut shutdown) => return,
            }
        }
        let n = tokio::select! {
            read = reader.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            },
            _ = stopped(&mut shutdown) => return,
        };
        if !feeder.feed(&buf[..n]) {
            return;
        }
    }
    feeder.eof().await;
}

mod dispatch;
mod feeder;
use dispatch::dispatch;
pub(crate) use feeder::Feeder;
#[cfg(unix)]
pub(crate) use feeder::ReadHost;

#[cfg(test)]
mod bounds_tests;
#[cfg(test)]
mod tests;
