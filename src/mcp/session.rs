//! The MCP session engine behind `McpClient`: id allocation, session state (session id,
//! negotiated protocol version, connected flag), the single-flight connect handshake, the
//! per-call timeout, shutdown cancellation, the HTTP 404 re-initialisation rule (no replay,
//! docs/decisions.md#d5-1) and close (DELETE).

use super::errors;
use super::http::{Failure, SessionHeaders, Transport};
use super::jsonrpc;
use super::ClientInfo;
use crate::kernel::error::{Error, Result};
use crate::kernel::log;
use futures_util::future::{BoxFuture, FutureExt, Shared};
use serde_json::{json, Value};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// The protocol version we ask for in `initialize`.
pub(crate) const LATEST_PROTOCOL_VERSION: &str = "2025-06-18";
/// The versions we accept from the server.
pub(crate) const SUPPORTED_PROTOCOL_VERSIONS: [&str; 2] = ["2025-06-18", "2025-03-26"];
/// `close()` never waits longer than this for the DELETE.
const CLOSE_TIMEOUT_CAP: Duration = Duration::from_secs(5);

type ConnectFuture = Shared<BoxFuture<'static, Result<()>>>;

/// Why a call failed. `SessionExpired` means the server dropped our session (HTTP 404), the
/// client has re-initialised, and the call was not replayed; read-only callers may retry.
#[derive(Debug)]
pub(super) enum CallError {
    SessionExpired(Error),
    Failed(Error),
}

impl CallError {
    pub(super) fn into_error(self) -> Error {
        match self {
            CallError::SessionExpired(e) | CallError::Failed(e) => e,
        }
    }
}

impl From<Error> for CallError {
    fn from(e: Error) -> Self {
        CallError::Failed(e)
    }
}

#[derive(Default)]
struct State {
    session_id: Option<String>,
    protocol_version: Option<String>,
    connected: bool,
    /// The connect attempt in flight, shared by every concurrent caller.
    connecting: Option<ConnectFuture>,
}

pub(super) struct Session {
    transport: Transport,
    info: ClientInfo,
    /// Default per-call timeout.
    pub timeout: Duration,
    next_id: AtomicU64,
    state: Mutex<State>,
    shutdown: watch::Sender<bool>,
}

impl Session {
    pub(super) fn new(transport: Transport, info: ClientInfo, timeout: Duration) -> Self {
        Session {
            transport,
            info,
            timeout,
            next_id: AtomicU64::new(1),
            state: Mutex::new(State::default()),
            shutdown: watch::channel(false).0,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn headers(&self) -> SessionHeaders {
        let state = self.lock();
        SessionHeaders {
            session_id: state.session_id.clone(),
            protocol_version: state.protocol_version.clone(),
        }
    }

    pub(super) fn session_id(&self) -> Option<String> {
        self.lock().session_id.clone()
    }

    pub(super) fn protocol_version(&self) -> Option<String> {
        self.lock().protocol_version.clone()
    }

    /// Reject every in-flight and later call with `adt-ls MCP client closed`.
    pub(super) fn shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Run `work` unless or until the client is shut down.
    pub(super) async fn guarded<T, E: From<Error>>(
        &self,
        work: impl Future<Output = std::result::Result<T, E>>,
    ) -> std::result::Result<T, E> {
        let mut down = self.shutdown.subscribe();
        if *down.borrow() {
            return Err(errors::disposed().into());
        }
        tokio::select! {
            biased;
            _ = down.wait_for(|is_down| *is_down) => Err(errors::disposed().into()),
            result = work => result,
        }
    }

    /// Connect unless connected; concurrent callers share one attempt.
    pub(super) async fn connect(self: &Arc<Self>) -> Result<()> {
        match self.connect_attempt() {
            None => Ok(()),
            Some(attempt) => attempt.await,
        }
    }

    fn connect_attempt(self: &Arc<Self>) -> Option<ConnectFuture> {
        let mut state = self.lock();
        if state.connected {
            return None;
        }
        if let Some(attempt) = &state.connecting {
            return Some(attempt.clone());
        }
        // A task, so the attempt finishes (and cleans up) even if every caller goes away.
        let task = tokio::spawn(Arc::clone(self).run_connect());
        let attempt = async move {
            task.await
                .unwrap_or_else(|_| Err(Error::new("adt-ls MCP connect attempt was aborted")))
        }
        .boxed()
        .shared();
        state.connecting = Some(attempt.clone());
        Some(attempt)
    }

    async fn run_connect(self: Arc<Self>) -> Result<()> {
        let result = self.handshake().await;
        if result.is_err() {
            if let Err(e) = self.close().await {
                log::debug(format!("adt-ls MCP close after a failed connect: {e}"));
            }
        }
        {
            let mut state = self.lock();
            state.connecting = None;
            state.connected = result.is_ok();
        }
        if result.is_ok() {
            log::debug("federation: connected to adt-ls MCP");
        }
        result
    }

    /// `initialize`, version check, `notifications/initialized` (must be HTTP 202).
    async fn handshake(&self) -> Result<()> {
        const INITIALIZE: &str = "initialize";
        const INITIALIZED: &str = "notifications/initialized";
        let params = json!({
            "protocolVersion": LATEST_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": { "name": self.info.name, "version": self.info.version },
        });
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let body = jsonrpc::request_body(id, INITIALIZE, Some(&params));
        let fresh = SessionHeaders::default();
        let exchange = self.transport.request(INITIALIZE, id, &body, &fresh);
        let answer = self
            .guarded(timed(INITIALIZE, self.timeout, exchange))
            .await
            .map_err(|f| failure_error(INITIALIZE, f))?;
        if let Some(session_id) = answer.session_id {
            self.lock().session_id = Some(session_id);
        }
        let result = jsonrpc::into_result(INITIALIZE, answer.response)?;
        let version = result.get("protocolVersion");
        match version.and_then(Value::as_str) {
            Some(v) if SUPPORTED_PROTOCOL_VERSIONS.contains(&v) => {
                self.lock().protocol_version = Some(v.to_string());
            }
            _ => return Err(errors::unsupported_version(version)),
        }
        let headers = self.headers();
        let notify = self.transport.notify(INITIALIZED, &headers);
        self.guarded(timed(INITIALIZED, self.timeout, notify))
            .await
            .map_err(|f| failure_error(INITIALIZED, f))
    }

    /// Send one request on the current session and return its result. On HTTP 404 while a
    /// session id was sent: forget that session (no DELETE), re-initialise, and fail with
    /// "session expired ... not retried" (never replayed here).
    pub(super) async fn call(
        self: &Arc<Self>,
        method: &str,
        params: Option<&Value>,
        timeout: Duration,
    ) -> std::result::Result<Value, CallError> {
        let headers = self.headers();
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let body = jsonrpc::request_body(id, method, params);
        let in_flight = InFlight {
            session: Arc::clone(self),
            id,
            headers: headers.clone(),
            done: false,
        };
        let exchange = self.transport.request(method, id, &body, &headers);
        let outcome = timed(method, timeout, exchange).await;
        // A timed-out request is left unfinished: its drop cancels it inside a cancel scope.
        if !matches!(&outcome, Err(Failure::Error(e)) if e.has_code(crate::kernel::error::codes::TIMEOUT))
        {
            in_flight.finish();
        }
        match outcome {
            Ok(answer) => Ok(jsonrpc::into_result(method, answer.response)?),
            Err(Failure::Status(404)) if headers.session_id.is_some() => {
                self.forget_session(headers.session_id.as_deref());
                self.connect().await?;
                Err(CallError::SessionExpired(errors::session_expired(method)))
            }
            Err(failure) => Err(failure_error(method, failure).into()),
        }
    }

    /// Drop the session state if it is still the session a failed request used.
    fn forget_session(&self, used: Option<&str>) {
        let mut state = self.lock();
        if state.session_id.as_deref() == used {
            state.session_id = None;
            state.protocol_version = None;
            state.connected = false;
        }
    }

    /// Clear the session state, then DELETE the session if there was one.
    pub(super) async fn close(&self) -> Result<()> {
        let headers = {
            let mut state = self.lock();
            state.connected = false;
            SessionHeaders {
                session_id: state.session_id.take(),
                protocol_version: state.protocol_version.take(),
            }
        };
        if headers.session_id.is_none() {
            return Ok(());
        }
        let limit = self.timeout.min(CLOSE_TIMEOUT_CAP);
        tokio::time::timeout(limit, self.transport.delete(&headers))
            .await
            .unwrap_or_else(|_| Err(errors::timeout("close", limit)))
    }
}

/// How long a best-effort `notifications/cancelled` may take.
const CANCEL_NOTICE_LIMIT: Duration = Duration::from_secs(5);

/// A request whose answer is awaited. Dropped before [`InFlight::finish`] inside a
/// [`crate::kernel::cancel_scope`] (the caller aborted), it tells the server with
/// `notifications/cancelled {requestId, reason}` from a spawned, bounded task. The request
/// itself is never re-sent: what it already did on the server stays done.
struct InFlight {
    session: Arc<Session>,
    id: u64,
    headers: SessionHeaders,
    done: bool,
}

impl InFlight {
    fn finish(mut self) {
        self.done = true;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.done || !crate::kernel::cancel_scope::active() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let session = Arc::clone(&self.session);
        let headers = self.headers.clone();
        let body = jsonrpc::cancelled_body(self.id, CANCEL_REASON);
        runtime.spawn(async move {
            let notice = session
                .transport
                .notify_body(jsonrpc::CANCELLED, &body, &headers);
            if let Ok(Err(f)) = tokio::time::timeout(CANCEL_NOTICE_LIMIT, notice).await {
                log::debug(format!(
                    "adt-ls MCP notifications/cancelled: {}",
                    failure_error(jsonrpc::CANCELLED, f)
                ));
            }
        });
    }
}

/// The `reason` of our `notifications/cancelled`.
pub(super) const CANCEL_REASON: &str = "The operation was aborted by the caller";

/// Bound an exchange by `timeout`.
async fn timed<T>(
    method: &str,
    timeout: Duration,
    exchange: impl Future<Output = std::result::Result<T, Failure>>,
) -> std::result::Result<T, Failure> {
    tokio::time::timeout(timeout, exchange)
        .await
        .unwrap_or_else(|_| Err(Failure::Error(errors::timeout(method, timeout))))
}

fn failure_error(method: &str, failure: Failure) -> Error {
    match failure {
        Failure::Status(status) => errors::http_status(method, status),
        Failure::Error(e) => e,
    }
}
