//! The unified client behind `createAdtLs` (docs/wire.md#startup-order, docs/wire.md#client-methods): startup orchestration, the shared
//! machinery every namespace uses (activity tracking, the destination guard, LSP requests and
//! MCP tool calls wrapped in re-logon), `health()`, and dispose. Namespaces live in their own
//! modules; the method [`registry`] names every method and [`dispatch`] reaches it.

mod args;
mod connect_session;
mod deadline;
mod deferred;
mod directory;
mod dispatch;
pub(crate) mod events;
mod lifecycle;
mod locate;
mod navigation;
mod ns_args;
mod object_queue;
pub(crate) mod options;
mod quality;
mod raw;
mod ref_uri;
pub(crate) mod registry;
mod repository;
mod resolve;
mod search_types;
mod services;
mod source;
mod startup;
pub(crate) mod state;
mod tool_call;
mod transport;
mod versions;

pub(crate) use transport::DiffPaging;

pub(crate) use args::Args;
#[cfg(not(test))] // the binding's, which `cargo test` does not build
pub(crate) use navigation::{TokensReply, SEMANTIC_TOKENS_METHOD};
pub(crate) use options::{ClientOptions, ConnectionOptions, Probe};

use crate::driver::Driver;
use crate::kernel::error::{Error, Result};
use crate::mcp::McpClient;
use crate::process::reaper;
use crate::resilience::classify::is_logged_off_federated_result;
use crate::resilience::single_flight::SingleFlight;
use crate::resilience::wrappers::{with_relogon, Relogon};
use serde_json::Value;
use state::State;
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// A running client. Clones share it.
#[derive(Clone)]
pub(crate) struct Client {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub driver: Driver,
    pub mcp: McpClient,
    pub mcp_port: i64,
    pub work_base: PathBuf,
    pub destination: Option<String>,
    pub probe: Probe,
    /// The `initialize` result (capabilities, server identity).
    pub init: Value,
    pub state: State,
    pub relogon_flight: SingleFlight,
    /// One operation queue per object (docs/wire.md#the-object-queue).
    pub objects: object_queue::ObjectQueues,
    /// Set once by dispose; every pending client call ends with "disposed".
    pub disposed_tx: watch::Sender<bool>,
    pub background: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    pub proxy: Mutex<Option<crate::tls::proxy::ProxyHandle>>,
    /// Where the client's events go (docs/events.md).
    pub events: events::EventBus,
    /// adt-ls's exit status (for the `exit` event).
    pub exit: Option<watch::Receiver<Option<crate::process::child::ExitInfo>>>,
    /// Background logon failures, so a re-logon ends with the cause instead of a timeout.
    pub logon_failures: connect_session::LogonFailures,
    pub opts: ClientOptions,
}

impl Inner {
    /// Keep a background task (keep-alive, exit watcher) so that dispose aborts it.
    pub(crate) fn keep_background(&self, task: tokio::task::JoinHandle<()>) {
        self.background
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(task);
    }
}

impl Client {
    /// `createAdtLs`.
    pub(crate) async fn create(opts: ClientOptions) -> Result<Client> {
        startup::create(opts).await
    }

    pub(crate) fn from_inner(inner: Inner) -> Client {
        Client {
            inner: Arc::new(inner),
        }
    }

    pub(crate) fn inner(&self) -> &Inner {
        &self.inner
    }

    pub(crate) fn inner_arc(&self) -> Arc<Inner> {
        self.inner.clone()
    }

    pub(crate) fn from_arc(inner: Arc<Inner>) -> Client {
        Client { inner }
    }

    /// Call a namespace method by its dotted name (e.g. `repository.search`) with the
    /// caller's JSON arguments. Synchronous work (the disposed check, the first send) happens
    /// before the future is returned, so calls keep their order.
    /// The result is `None` for the methods that resolve `undefined` (`Promise<void>`).
    pub(crate) fn call(
        &self,
        method: &str,
        args: Args,
    ) -> impl Future<Output = Result<Option<Value>>> + Send + 'static {
        self.call_holding(method, args, None)
    }

    /// [`Client::call`] with a caller error held back until the method has checked its own
    /// arguments ([`deferred`]): bad call options that follow them.
    pub(crate) fn call_holding(
        &self,
        method: &str,
        args: Args,
        held: Option<Error>,
    ) -> impl Future<Output = Result<Option<Value>>> + Send + 'static {
        let held = deferred::hold(held);
        let (fut, void) = held.start(|| dispatch::call(self, method, args));
        let fut = held.finish(fut);
        let mut disposed = self.inner.disposed_tx.subscribe();
        async move {
            tokio::select! {
                out = fut => out.map(|v| (!void).then_some(v)),
                _ = disposed.wait_for(|d| *d) => Err(Error::coded(crate::kernel::error::codes::DISPOSED, state::DISPOSED)),
            }
        }
    }

    /// `health()`, synchronous: the `ClientHealth` object as JS sees it (`adtLsName` and
    /// `adtLsVersion` absent when adt-ls did not report them or after `dispose()`).
    pub(crate) fn health(&self) -> Value {
        let state = &self.inner.state;
        let connected = state.connected();
        let alive = !state.is_disposed();
        let server = |key: &str| {
            alive
                .then(|| self.inner.init.pointer(&format!("/serverInfo/{key}")))
                .flatten()
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let reported = [
            ("adtLsName", server("name")),
            ("adtLsVersion", server("version")),
        ];
        let mut health = serde_json::Map::new();
        health.insert("connected".into(), connected.into());
        health.insert(
            "backendLive".into(),
            (connected && state.backend_live()).into(),
        );
        let destination = self.inner.destination.clone().unwrap_or_default();
        health.insert("destination".into(), destination.into());
        for (key, value) in reported {
            if let Some(v) = value {
                health.insert(key.into(), v.into());
            }
        }
        health.insert("mcpPort".into(), self.inner.mcp_port.into());
        Value::Object(health)
    }

    /// Record a user call; the disposed error after dispose.
    pub(crate) fn touch(&self) -> Result<()> {
        if self.inner.state.touch() {
            Ok(())
        } else {
            Err(Error::coded(
                crate::kernel::error::codes::DISPOSED,
                state::DISPOSED,
            ))
        }
    }

    /// Start a destination-scoped call: record the activity, then the destination.
    pub(crate) fn begin(&self) -> Result<String> {
        self.touch()?;
        self.dest()
    }

    /// The connected destination, or the reference's error.
    pub(crate) fn dest(&self) -> Result<String> {
        self.inner.destination.clone().ok_or_else(|| {
            Error::coded(
                crate::kernel::error::codes::NOT_CONNECTED,
                state::NO_DESTINATION,
            )
        })
    }

    /// Where the client's events go; the JS layer sets the sink.
    pub(crate) fn events(&self) -> &events::EventBus {
        &self.inner.events
    }

    /// Re-logon (single flight), when connected: `true` when the session is live afterwards.
    pub(crate) fn relogon_fn(&self) -> Option<Relogon> {
        self.inner.destination.as_ref()?;
        let me = self.clone();
        Some(Arc::new(move || {
            let me = me.clone();
            Box::pin(async move { me.relogon(events::RelogonReason::Call).await })
        }))
    }

    /// One re-logon shared by concurrent callers; emits `relogon` when it starts and ends.
    pub(crate) async fn relogon(&self, reason: events::RelogonReason) -> bool {
        let Some(dest) = self.inner.destination.clone() else {
            return false;
        };
        let me = self.clone();
        self.inner
            .relogon_flight
            .run(|| async move {
                let bus = &me.inner.events;
                bus.emit(events::ClientEvent::Relogon { reason, ok: None });
                let ok = connect_session::relogon_once(&me, &dest).await;
                me.inner.state.set_backend_live(ok);
                bus.emit(events::ClientEvent::Relogon {
                    reason,
                    ok: Some(ok),
                });
                ok
            })
            .await
    }

    /// An LSP request through the activity tracker and the re-logon wrapper. The first
    /// attempt is put on the wire before this returns.
    pub(crate) fn active_request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> impl Future<Output = Result<Value>> + Send + 'static {
        self.active_request_within(method, params, None)
    }

    /// `method {uri}` through [`Client::active_request`], the answer read by `read`; one it
    /// cannot read is `ERR_UNEXPECTED_ANSWER`, `<missing> <uri>`.
    pub(crate) async fn uri_request<T>(
        &self,
        method: &str,
        uri: &str,
        read: impl FnOnce(&Value) -> Option<T>,
        missing: &str,
    ) -> Result<T> {
        let params = serde_json::json!({ "uri": uri });
        let answer = self.active_request(method, Some(params)).await?;
        read(&answer).ok_or_else(|| {
            let code = crate::kernel::error::codes::UNEXPECTED_ANSWER;
            Error::coded(code, format!("{missing} {uri}"))
        })
    }

    /// [`Client::active_request`] bounded by `timeout` instead of the driver's default (for
    /// callers that race their own, possibly longer, limit).
    pub(crate) fn active_request_within(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Option<std::time::Duration>,
    ) -> impl Future<Output = Result<Value>> + Send + 'static {
        let held = deferred::take();
        let touched = self.touch();
        let driver = self.inner.driver.clone();
        let mut first = held
            .is_none()
            .then(|| driver.request(method, params.clone(), timeout));
        let method = method.to_string();
        let attempt = move || {
            let attempt = first.take();
            let driver = driver.clone();
            let method = method.clone();
            let params = params.clone();
            async move {
                match attempt {
                    Some(sent) => sent.await,
                    None => driver.request(&method, params, timeout).await,
                }
            }
        };
        self.tracked(held, touched, attempt, |_| false)
    }

    /// An MCP tool call through the activity tracker and the re-logon wrapper (a logged-off
    /// error, or an `isError` result that reads "logged off").
    pub(crate) fn active_tool(
        &self,
        name: &str,
        args: Value,
    ) -> impl Future<Output = Result<Value>> + Send + 'static {
        let held = deferred::take();
        let touched = self.touch();
        let mcp = self.inner.mcp.clone();
        let name = name.to_string();
        let attempt = move || {
            let mcp = mcp.clone();
            let name = name.clone();
            let args = args.clone();
            async move { mcp.call_tool(&name, args, None).await }
        };
        self.tracked(held, touched, attempt, is_logged_off_federated_result)
    }

    /// What the active calls share once their first attempt is under way: the bad option
    /// held back for the method (`held`) rejects first, then the activity tracker's verdict
    /// (`touched`), then `attempt` runs through the re-logon wrapper (`logged_off` flags the
    /// results that read logged off).
    fn tracked<F, Fut, L>(
        &self,
        held: Option<Error>,
        touched: Result<()>,
        attempt: F,
        logged_off: L,
    ) -> impl Future<Output = Result<Value>> + Send + 'static
    where
        F: FnMut() -> Fut + Send + 'static,
        Fut: Future<Output = Result<Value>> + Send,
        L: Fn(&Value) -> bool + Send + 'static,
    {
        let relogon = self.relogon_fn();
        async move {
            if let Some(e) = held {
                return Err(e);
            }
            touched?;
            with_relogon(relogon.as_ref(), attempt, logged_off).await
        }
    }

    /// Dispose: idempotent, best effort, in the reference's order.
    pub(crate) async fn dispose(&self) {
        if !self.inner.state.mark_disposed() {
            return;
        }
        self.inner.events.close();
        let _ = self.inner.disposed_tx.send(true);
        for task in std::mem::take(
            &mut *self
                .inner
                .background
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        ) {
            task.abort();
        }
        self.inner.mcp.shutdown();
        let _ = self.inner.mcp.close().await;
        self.inner.driver.dispose().await;
        self.inner.driver.clear_handlers();
        let status = self.inner.exit.as_ref().and_then(|rx| *rx.borrow());
        self.inner.events.finish(events::ClientEvent::Exit {
            code: status.and_then(|s| s.code),
            signal: status.and_then(|s| s.signal_text()),
            expected: true,
        });
        let proxy = self
            .inner
            .proxy
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(proxy) = proxy {
            proxy.close().await;
        }
        crate::safe_fs::remove_dir_all_quiet(&self.inner.work_base);
        reaper::untrack_path(&self.inner.work_base);
    }
}
