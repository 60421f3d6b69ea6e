//! `AdtLsDriver`: one adt-ls process and its LSP connection. Start: private data dir, pipe
//! listener, spawn, wait for adt-ls to connect (racing its exit and a timeout), `initialize`
//! with `userAgentInfos`, the version gate BEFORE `initialized` (docs/decisions.md#d5-11), then
//! `initialized`. Any failure releases everything it made (#d5-17). Dispose rejects pending
//! requests, closes the pipe, kills the process tree (waiting up to 5 s) and removes what the
//! driver owns. While running, a dead adt-ls fails every pending request within a second with
//! its exit status and last output (docs/decisions.md#d5-2).

pub(crate) mod router;
mod session_host;
mod start;

pub(crate) use session_host::SessionHost;

use crate::kernel::error::{codes, Error, Result};
use crate::kernel::future::BoxFuture;
use crate::kernel::identity::ClientInfo;
use crate::kernel::log;
use crate::lsp::message::RawJson;
use crate::lsp::{CloseHook, CloseReason, Connection, LspRequester, ResponseCallback};
use crate::process::pipe::{PipeGuard, PipeListener};
use crate::process::{child, reaper};
use crate::trace::Tracer;
use router::{NotificationListener, Router, ServerRequestHandler};
use serde_json::Value;
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// Default for `start(timeoutMs)`.
pub(crate) const DEFAULT_START_TIMEOUT: Duration = Duration::from_millis(60_000);
/// Default bound on any single LSP request (docs/decisions.md#d5-3; the reference has none).
pub(crate) const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_millis(300_000);
/// How long dispose waits for the killed process to exit.
const EXIT_WAIT: Duration = Duration::from_millis(5_000);
/// How long a closed pipe waits for the exit status before explaining itself.
const EOF_EXIT_GRACE: Duration = Duration::from_millis(750);
/// Output chunks quoted in error messages.
const TAIL_CHUNKS: usize = 12;

pub(crate) const NOT_STARTED: &str = "AdtLsDriver not started";
pub(crate) const ALREADY_STARTED: &str = "AdtLsDriver already started";

#[derive(Clone)]
pub(crate) struct DriverOptions {
    /// Use this data dir (kept on dispose) instead of a fresh `<tmp>/adt-ls-<12hex>`.
    pub data_dir: Option<PathBuf>,
    pub extra_env: Vec<(String, String)>,
    pub extra_args: Vec<String>,
    pub client_info: ClientInfo,
    /// Bound on each LSP request unless the call gives its own.
    pub request_timeout: Duration,
    /// Host state, trace file and socket reader.
    pub host: SessionHost,
}

impl Default for DriverOptions {
    fn default() -> Self {
        DriverOptions {
            data_dir: None,
            extra_env: Vec::new(),
            extra_args: Vec::new(),
            client_info: ClientInfo::default(),
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            host: SessionHost::default(),
        }
    }
}

/// What a running driver holds.
struct Session {
    conn: Connection,
    child: Arc<child::ChildProcess>,
    _pipe_guard: PipeGuard,
    #[cfg_attr(not(test), allow(dead_code))] // read by the tests
    pipe_address: String,
    socket_dir: Option<PathBuf>,
    data_dir: PathBuf,
    owns_data_dir: bool,
    initialize_result: Value,
    tracer: Option<Arc<Tracer>>,
}

enum Phase {
    Idle,
    /// Starting; sending `true` cancels the start.
    Starting(watch::Sender<bool>),
    Started(Arc<Session>),
}

struct Inner {
    bin_path: PathBuf,
    opts: DriverOptions,
    router: Arc<Router>,
    phase: Mutex<Phase>,
    /// Signals (by becoming `false`) that no start is in progress.
    start_idle: watch::Sender<bool>,
}

#[derive(Clone)]
pub(crate) struct Driver {
    inner: Arc<Inner>,
}

impl Driver {
    pub(crate) fn new(bin_path: PathBuf, opts: DriverOptions) -> Driver {
        let (start_idle, _) = watch::channel(false);
        Driver {
            inner: Arc::new(Inner {
                bin_path,
                opts,
                router: Arc::new(Router::default()),
                phase: Mutex::new(Phase::Idle),
                start_idle,
            }),
        }
    }

    #[cfg(test)]
    pub(crate) fn bin_path(&self) -> &PathBuf {
        &self.inner.bin_path
    }

    /// Add or replace the handler for a server->client request; effective at once.
    pub(crate) fn set_request_handler(&self, method: &str, handler: Arc<dyn ServerRequestHandler>) {
        self.inner.router.set_handler(method, handler);
    }

    /// Listen to a server notification (for example `adtLs/destinations/logonStateChanged`);
    /// the id removes the listener again. Works before `start()`.
    pub(crate) fn add_notification_listener(
        &self,
        method: &str,
        listener: NotificationListener,
    ) -> u64 {
        self.inner.router.add_listener(method, listener)
    }

    /// Remove a listener added with [`Driver::add_notification_listener`].
    pub(crate) fn remove_notification_listener(&self, method: &str, id: u64) -> bool {
        self.inner.router.remove_listener(method, id)
    }

    /// The `initialize` result while started.
    pub(crate) fn initialize_result(&self) -> Option<Value> {
        self.session().map(|s| s.initialize_result.clone())
    }

    #[cfg(test)]
    /// The data dir of the running process.
    pub(crate) fn data_dir(&self) -> Option<PathBuf> {
        self.session().map(|s| s.data_dir.clone())
    }

    #[cfg(test)]
    /// The `--pipe=` address of the running process.
    pub(crate) fn pipe_address(&self) -> Option<String> {
        self.session().map(|s| s.pipe_address.clone())
    }

    /// The exit status of the running process, `None` until it exits (while started).
    pub(crate) fn exit_watch(&self) -> Option<watch::Receiver<Option<child::ExitInfo>>> {
        self.session().map(|s| s.child.exit_watch())
    }

    #[cfg(test)]
    /// The child's pid while started.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.session().map(|s| s.child.pid())
    }

    /// The wire trace of the running session, when one is on.
    pub(crate) fn tracer(&self) -> Option<Arc<Tracer>> {
        self.session().and_then(|s| s.tracer.clone())
    }

    #[cfg(test)]
    /// True while started and the connection is open.
    pub(crate) fn is_alive(&self) -> bool {
        self.session().is_some_and(|s| s.conn.is_open())
    }

    fn session(&self) -> Option<Arc<Session>> {
        match &*self.lock() {
            Phase::Started(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// The session, or the `AdtLsDriver not started` error before `start()` and after
    /// `dispose()`.
    fn started(&self) -> Result<Arc<Session>> {
        self.session()
            .ok_or_else(|| Error::coded(crate::kernel::error::codes::NOT_STARTED, NOT_STARTED))
    }

    /// A request's bound: its own `timeout`, else the driver's `request_timeout`.
    fn limit(&self, timeout: Option<Duration>) -> Duration {
        timeout.unwrap_or(self.inner.opts.request_timeout)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.inner.phase.lock().unwrap_or_else(|p| p.into_inner())
    }

    #[cfg(test)]
    /// Send a request; bounded by `timeout` or the driver's default request timeout.
    pub(crate) async fn send_request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Option<Duration>,
    ) -> Result<Value> {
        self.request(method, params, timeout).await
    }

    /// Put a request on the wire now (calls keep their order) and return the wait for its
    /// response as an owned future.
    pub(crate) fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<Value>> + Send + 'static {
        let limit = self.limit(timeout);
        let (params, route) = self.with_progress_token(params);
        let sent = self
            .started()
            .and_then(|session| session.conn.send_request(method, params));
        async move {
            let out = sent?.wait(Some(limit)).await;
            drop(route);
            out
        }
    }

    /// Inside a progress scope ([`crate::kernel::progress`]): a `workDoneToken` in the (object)
    /// params, routed to the scope's sink while the request is in flight.
    fn with_progress_token(
        &self,
        params: Option<Value>,
    ) -> (Option<Value>, Option<router::ProgressRoute>) {
        let Some(sink) = crate::kernel::progress::current() else {
            return (params, None);
        };
        let Some(Value::Object(mut map)) = params else {
            return (params, None);
        };
        let token = sink.issue_token();
        map.insert("workDoneToken".into(), Value::String(token.clone()));
        let route = self.inner.router.route_progress(token, sink);
        (Some(Value::Object(map)), Some(route))
    }

    /// [`Driver::request`] with params and result as JSON text (nothing is parsed on the way:
    /// the path for callers that hand JSON through, like the JS `sendRequest`).
    pub(crate) fn request_raw(
        &self,
        method: &str,
        params: Option<RawJson>,
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<RawJson>> + Send + 'static {
        let limit = self.limit(timeout);
        let sent = self
            .started()
            .and_then(|session| session.conn.send_request_raw(method, params.as_deref()));
        async move { sent?.wait_raw(Some(limit)).await }
    }

    /// [`Driver::request_raw`] without a future: the request goes on the wire now and `done`
    /// gets its outcome (exactly once, on whichever thread sees it), so no task waits per
    /// request.
    pub(crate) fn request_raw_then(
        &self,
        method: &str,
        params: Option<RawJson>,
        timeout: Option<Duration>,
        done: ResponseCallback,
    ) {
        let limit = self.limit(timeout);
        match self.started() {
            Ok(session) => {
                session
                    .conn
                    .send_request_raw_then(method, params.as_deref(), limit, done)
            }
            Err(e) => done(Err(e)),
        }
    }

    #[cfg(test)]
    pub(crate) async fn send_notification(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<()> {
        self.notification(method, params).await
    }

    /// Put a notification on the wire now; the future resolves once it is written.
    pub(crate) fn notification(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> impl Future<Output = Result<()>> + Send + 'static {
        let sent = self
            .started()
            .and_then(|session| session.conn.send_notification(method, params));
        async move {
            sent?
                .await
                .map_err(|_| Error::coded(codes::CONNECTION_CLOSED, "Connection is closed."))
        }
    }

    /// Start adt-ls and complete the LSP handshake within `timeout` per phase. The
    /// "already started" guard is checked at the call, before the returned future runs.
    pub(crate) fn start(
        &self,
        timeout: Duration,
    ) -> impl Future<Output = Result<Value>> + Send + 'static {
        let (cancel_tx, cancel_rx) = watch::channel(false);
        let claimed = {
            let mut phase = self.lock();
            if matches!(*phase, Phase::Idle) {
                *phase = Phase::Starting(cancel_tx);
                self.inner.start_idle.send_replace(true);
                true
            } else {
                false
            }
        };
        let this = self.clone();
        async move {
            if !claimed {
                return Err(Error::new(ALREADY_STARTED));
            }
            this.run_start(timeout, cancel_rx).await
        }
    }

    async fn run_start(
        &self,
        timeout: Duration,
        cancel_rx: watch::Receiver<bool>,
    ) -> Result<Value> {
        let mut made = Made::default();
        let outcome = self.start_inner(timeout, cancel_rx, &mut made).await;
        let result = match outcome {
            Ok(session) => {
                let init = session.initialize_result.clone();
                let session = Arc::new(session);
                if self.finish_start(Some(session.clone())) {
                    Ok(init)
                } else {
                    // Disposed while finishing: release what we made.
                    teardown(&mut Made::of_session(&session)).await;
                    Err(disposed_during_start())
                }
            }
            Err(e) => {
                teardown(&mut made).await;
                self.finish_start(None);
                Err(e)
            }
        };
        self.inner.start_idle.send_replace(false);
        result
    }

    /// Leave the Starting phase: to Started with `session`, or back to Idle. False when a
    /// dispose took the phase away meanwhile.
    fn finish_start(&self, session: Option<Arc<Session>>) -> bool {
        let mut phase = self.lock();
        if !matches!(*phase, Phase::Starting(_)) {
            return false;
        }
        *phase = match session {
            Some(s) => Phase::Started(s),
            None => Phase::Idle,
        };
        true
    }

    /// Stop everything. Idempotent; after it the driver can be started again. The driver
    /// counts as not started from the call on; the returned future does the teardown.
    pub(crate) fn dispose(&self) -> impl Future<Output = ()> + Send + 'static {
        let previous = std::mem::replace(&mut *self.lock(), Phase::Idle);
        if let Phase::Started(session) = &previous {
            // Pending requests fail at once, before any await.
            session.conn.dispose();
        }
        let start_idle = self.inner.start_idle.subscribe();
        async move {
            match previous {
                Phase::Idle => {}
                Phase::Starting(cancel) => {
                    let _ = cancel.send(true);
                    // Let the start release what it made.
                    let mut idle = start_idle;
                    let _ = tokio::time::timeout(
                        EXIT_WAIT + Duration::from_secs(1),
                        idle.wait_for(|busy| !*busy),
                    )
                    .await;
                }
                Phase::Started(session) => teardown(&mut Made::of_session(&session)).await,
            }
        }
    }

    /// Release JS-held handlers (call when the owner is done with the driver).
    pub(crate) fn clear_handlers(&self) {
        self.inner.router.clear_handlers();
    }
}

impl LspRequester for Driver {
    fn send_request(&self, method: &str, params: Option<Value>) -> BoxFuture<Result<Value>> {
        Box::pin(self.request(method, params, None))
    }

    fn send_request_within(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> BoxFuture<Result<Value>> {
        Box::pin(self.request(method, params, Some(timeout)))
    }
}

/// What a start has created so far, so a failure can undo exactly that.
#[derive(Default)]
struct Made {
    owned_dir: Option<PathBuf>,
    socket_dir: Option<PathBuf>,
    child: Option<Arc<child::ChildProcess>>,
    conn: Option<Connection>,
    tracer: Option<Arc<Tracer>>,
}

impl Made {
    /// Everything a running session owns.
    fn of_session(session: &Session) -> Made {
        Made {
            owned_dir: session.owns_data_dir.then(|| session.data_dir.clone()),
            socket_dir: session.socket_dir.clone(),
            child: Some(session.child.clone()),
            conn: Some(session.conn.clone()),
            tracer: session.tracer.clone(),
        }
    }

    /// Ownership moved into the session.
    fn release(&mut self) {
        *self = Made::default();
    }
}

async fn teardown(made: &mut Made) {
    if let Some(conn) = made.conn.take() {
        conn.dispose();
    }
    // Nothing is recorded after dispose; the file is closed before dispose resolves.
    if let Some(tracer) = made.tracer.take() {
        tracer.close();
    }
    if let Some(child) = made.child.take() {
        if child.kill_and_wait(EXIT_WAIT).await.is_none() {
            log::warn(format!(
                "adt-ls (pid {}) did not exit within {}ms after SIGKILL",
                child.pid(),
                EXIT_WAIT.as_millis()
            ));
        }
    }
    if let Some(dir) = made.owned_dir.take() {
        crate::safe_fs::remove_dir_all_quiet(&dir);
        reaper::untrack_path(&dir);
    }
    if let Some(dir) = made.socket_dir.take() {
        PipeListener::remove_dir(&dir);
    }
}

/// Remove what dead hosts of this library left in the temp dirs we use (the socket's may
/// differ), each sweep within its budget; see [`owner`](crate::process::owner).
pub(crate) fn sweep_stale_dirs(bases: &[&crate::safe_fs::Dir]) {
    for (i, base) in bases.iter().enumerate() {
        if bases[..i].iter().any(|b| b.path() == base.path()) {
            continue;
        }
        let report = crate::process::owner::sweep_stale(base);
        let partial = report.names_truncated || report.judged < report.candidates;
        if report.removed.is_empty() && !partial {
            continue;
        }
        log::debug(format!(
            "stale sweep of {}: read {} names{}, judged {} of {} dirs with our names, removed {}{}{}",
            base.path().display(),
            report.names_read,
            if report.names_truncated { " (the limit)" } else { "" },
            report.judged,
            report.candidates,
            report.removed.len(),
            if report.removed.is_empty() { String::new() } else { format!(": {}", report.removed.join(", ")) },
            if partial { "; the rest is left to later starts" } else { "" },
        ));
    }
}

fn disposed_during_start() -> Error {
    Error::coded(codes::DISPOSED, "AdtLsDriver disposed during start")
}

async fn exited(rx: &mut watch::Receiver<Option<child::ExitInfo>>) {
    let _ = rx.wait_for(Option::is_some).await;
}

/// When the child exits but the pipe stays open (a grandchild holding it), close the
/// connection anyway so pending requests fail promptly.
fn watch_for_exit(conn: Connection, child: Arc<child::ChildProcess>) {
    let mut exit = child.exit_watch();
    tokio::spawn(async move {
        exited(&mut exit).await;
        tokio::time::sleep(Duration::from_millis(250)).await;
        if conn.is_open() {
            conn.close(ExitExplainer { child }.reason_now().await);
        }
    });
}

/// Explains a closed pipe with the child's exit status and last output.
struct ExitExplainer {
    child: Arc<child::ChildProcess>,
}

impl ExitExplainer {
    async fn reason_now(&self) -> CloseReason {
        let exit = self.child.wait_exit(EOF_EXIT_GRACE).await;
        if exit.is_some() {
            self.child
                .wait_output_drained(Duration::from_millis(200))
                .await;
        }
        let summary = match exit {
            Some(info) => format!("adt-ls exited ({})", info.describe()),
            None => "adt-ls closed the LSP connection".to_string(),
        };
        CloseReason {
            summary,
            detail: self.child.output().last(TAIL_CHUNKS).trim_end().to_string(),
            code: crate::kernel::error::codes::CONNECTION_CLOSED,
        }
    }
}

impl CloseHook for ExitExplainer {
    fn on_eof(&self) -> BoxFuture<CloseReason> {
        let me = ExitExplainer {
            child: self.child.clone(),
        };
        Box::pin(async move { me.reason_now().await })
    }
}
