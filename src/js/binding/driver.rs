//! `AdtLsDriver` for JS: converts arguments, wraps JS request handlers, forwards to
//! [`crate::driver::Driver`].

use super::types::options::{ClientIdentity, DriverOpts};
use crate::auth::proxy_url::user_request_handler;
use crate::driver::router::ServerRequestHandler;
use crate::driver::{Driver, DriverOptions, SessionHost, DEFAULT_START_TIMEOUT};
use crate::js::runtime::callback::JsCallback;
use crate::js::runtime::cancel;
use crate::js::runtime::checked;
use crate::js::runtime::errors::{coded, coded_deferred, throw};
use crate::js::runtime::json;
use crate::js::runtime::outbox::{self, Message};
use crate::js::runtime::settle::Settling;
use crate::js::runtime::timeouts::{timeout_arg, timeout_prop};
use crate::js::runtime::values::{Json, JsonText, Raw};
use crate::kernel::error::{codes, Error as EngineError, Result as EngineResult};
use crate::kernel::future::BoxFuture;
use crate::kernel::identity::ClientInfo;
use crate::lsp::message::RawJson;
use crate::options::keys;
use napi::bindgen_prelude::*;
use napi::JsValue;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// A JS function answering a server->client request.
pub struct JsRequestHandler(pub Arc<JsCallback>);

impl ServerRequestHandler for JsRequestHandler {
    fn handle(&self, params: Option<Value>) -> BoxFuture<std::result::Result<Value, String>> {
        let cb = self.0.clone();
        Box::pin(async move {
            cb.call_json(vec![params])
                .await
                .map(|v| v.unwrap_or(Value::Null))
        })
    }
}

/// One adt-ls process and its LSP connection: the building block under `createAdtLs`, for
/// talking LSP to adt-ls yourself. The driver listens on a private local socket (a named pipe on
/// Windows), spawns adt-ls with `--pipe=<address>`, and speaks JSON-RPC over it exactly as
/// vscode-jsonrpc does. Server->client requests go to the handlers you register (unhandled ones
/// are answered `null`). The process tree is killed on `dispose()`, and also when Node exits.
///
/// @example
/// ```ts
/// await using driver = new AdtLsDriver(resolveAdtLsPath());
/// driver.setRequestHandler('adtLs/destinations/requestBrowserBasedLogon', () => true);
/// const init = await driver.start();
/// console.log(init.serverInfo?.version);
/// await driver.sendRequest('adtLs/destinations/initializeService', {
///   destinationsStorePath: '/tmp/my-store.json', workspaceFolderUris: [], fileUris: [],
/// });
/// ```
#[napi]
pub struct AdtLsDriver {
    driver: Driver,
}

#[napi]
impl AdtLsDriver {
    /// Prepare a driver for the adt-ls binary at `binPath`; nothing is spawned until `start()`.
    ///
    /// @param binPath - the adt-ls executable, e.g. from {@link resolveAdtLsPath}
    /// @param opts - data dir, environment, extra arguments, handlers, identity, request timeout
    /// @throws `ERR_INVALID_ARG_TYPE` / `ERR_OUT_OF_RANGE` for an option of the wrong type or range
    #[napi(
        constructor,
        ts_args_type = "binPath: string, opts?: AdtLsDriverOptions"
    )]
    pub fn new(env: Env, bin_path: Unknown, opts: Unknown) -> Result<Self> {
        let bin_path = Some(bin_path);
        let opts = Some(opts);
        let (bin_path, options, handlers) =
            driver_options(&env, bin_path, opts).or_else(|e| throw(&env, e))?;
        let driver = Driver::new(PathBuf::from(bin_path), options);
        for (method, f) in handlers {
            let cb = JsCallback::new(&env, f)?;
            let handler = user_request_handler(&method, Arc::new(JsRequestHandler(cb)));
            driver.set_request_handler(&method, handler);
        }
        Ok(AdtLsDriver { driver })
    }

    /// The engine driver behind this object (for the client and strategies).
    pub(crate) fn engine(&self) -> &Driver {
        &self.driver
    }

    /// A JS driver object for an engine driver the client created.
    pub(crate) fn from_engine(driver: Driver) -> AdtLsDriver {
        AdtLsDriver { driver }
    }

    /// What adt-ls answered to `initialize` (server identity and capabilities) while started;
    /// `undefined` before `start()` resolves and after `dispose()`.
    #[napi(getter, ts_return_type = "AdtLsInitializeResult | undefined")]
    pub fn initialize_result(&self) -> Json {
        Json(self.driver.initialize_result())
    }

    /// Spawn adt-ls and complete the LSP handshake: create the data dir, listen, spawn, wait for
    /// adt-ls to connect, send `initialize` (with `userAgentInfos`, which adt-ls needs), check the
    /// version ({@link assertSupportedAdtLsVersion}), then send `initialized`. Logs
    /// `adt-ls ready: <name> <version>`. Any failure releases everything start made, then rejects.
    ///
    /// @param timeoutMs - bound on connecting and on `initialize`, each (default 60 000 ms)
    /// @returns the `initialize` result
    /// @throws rejects with `AdtLsDriver already started` while starting or started
    /// @throws rejects with the spawn error (message containing `ENOENT` / `EACCES`)
    /// @throws rejects with `adt-ls LSP connect timed out after <ms>ms`,
    /// `adt-ls exited (code <c>) before LSP connect.` plus adt-ls's last output, or
    /// `adt-ls initialize timed out after <ms>ms`
    /// @throws rejects with `Unsupported adt-ls version <v>. ...` for an adt-ls older than 1.1.2
    #[napi(
        ts_args_type = "timeoutMs?: number",
        ts_return_type = "Promise<AdtLsInitializeResult>"
    )]
    pub fn start(&self, env: Env, timeout_ms: Unknown) -> Result<Settling<Json>> {
        let timeout_ms = Some(timeout_ms);
        let timeout = match timeout_arg(&env, timeout_ms, "timeoutMs") {
            Ok(t) => t.unwrap_or(DEFAULT_START_TIMEOUT),
            Err(e) => return rejected(&env, e),
        };
        coded(&env, self.driver.start(timeout), |_, v| Ok(Json(Some(v))))
    }

    /// Send an LSP request (standard or `adtLs/*`) and resolve with its result. `params` are encoded
    /// as vscode-jsonrpc does: an object as it is; anything else is wrapped in a one-element array,
    /// and an absent one is sent as `[null]` (so `sendRequest('adtLs/destinations/ensureLoggedOn', 'A4H')`
    /// sends `["A4H"]`).
    ///
    /// @param opts - `timeoutMs` overrides the driver's `requestTimeoutMs` for this call (with it,
    /// the request is cancelled with `$/cancelRequest` when the limit passes); `signal` aborts
    /// it (docs/cancellation.md)
    /// @throws rejects with `AdtLsDriver not started` before `start()` or after `dispose()`
    /// @throws rejects with adt-ls's own error: its `message` verbatim, its numeric `code` and `data`
    /// @throws rejects with code `ETIMEDOUT` after the timeout, and with code `ERR_ADT_LS_EXITED`
    /// (`adt-ls exited (code <c>) while <method> was pending.` plus its last output) when adt-ls dies
    #[napi(
        ts_generic_types = "T = unknown",
        ts_args_type = "method: string, params?: unknown, opts?: CallOptions",
        ts_return_type = "Promise<T>"
    )]
    pub fn send_request(
        &self,
        env: Env,
        method: Unknown,
        params: Option<Unknown>,
        opts: Unknown,
    ) -> Result<Settling<JsonText>> {
        let method = Some(method);
        let opts = Some(opts);
        let read = || {
            let method = checked::string(&env, method, "method")?;
            // JSON text both ways: params and results cross without being parsed in Rust.
            let params = params.map(|p| json::text_from_js(&env, p)).transpose();
            let params = params.map_err(invalid_arg)?.flatten();
            let timeout = request_timeout(&env, opts)?;
            let call = cancel::read_request_opts(&env, opts)?;
            Ok((method, params, timeout, call))
        };
        with_checked(&env, read, |(method, params, timeout, call)| {
            self.send_checked(&env, method, params, timeout, call)
        })
    }

    /// `sendRequest` with its arguments checked: through the cancellation race when the call
    /// has a `signal` or its own `timeoutMs`, else settled straight from the connection.
    fn send_checked(
        &self,
        env: &Env,
        method: String,
        params: Option<RawJson>,
        timeout: Option<std::time::Duration>,
        call: cancel::CallOptions,
    ) -> Result<Settling<JsonText>> {
        if !call.is_empty() {
            let detail = method.clone();
            let driver = &self.driver;
            let start = move || {
                let sent = driver.request_raw(&method, params, timeout);
                async move { sent.await.map_err(|e| e.with_detail("method", detail)) }
            };
            return cancel::run(env, call, "adt-ls request", start, |_, v| Ok(JsonText(v)));
        }
        // The outcome settles the promise straight from the connection (no task per call).
        let (promise, completer) = coded_deferred(env, |_, v| Ok(JsonText(v)))?;
        let detail = method.clone();
        let done = move |outcome: EngineResult<RawJson>| {
            completer.complete(outcome.map_err(|e| e.with_detail("method", detail)));
        };
        self.driver
            .request_raw_then(&method, params, timeout, Box::new(done));
        Ok(promise)
    }

    /// Send an LSP notification (e.g. `textDocument/didOpen`); params are encoded as for
    /// `sendRequest`. Resolves once written, in call order with requests.
    ///
    /// @throws rejects with `AdtLsDriver not started` before `start()` or after `dispose()`
    #[napi(
        ts_args_type = "method: string, params?: unknown",
        ts_return_type = "Promise<void>"
    )]
    pub fn send_notification(
        &self,
        env: Env,
        method: Unknown,
        params: Option<Unknown>,
    ) -> Result<Settling<()>> {
        let method = Some(method);
        let method = match checked::string(&env, method, "method") {
            Ok(m) => m,
            Err(e) => return rejected(&env, e),
        };
        let params = match json::from_js_opt(&env, params) {
            Ok(p) => p,
            Err(e) => return rejected(&env, invalid_arg(e)),
        };
        let sent = self.driver.notification(&method, params);
        coded(
            &env,
            async move { sent.await.map_err(|e| e.with_detail("method", method)) },
            |_, ()| Ok(()),
        )
    }

    /// Answer the server->client request `method` (e.g.
    /// `adtLs/destinations/requestBrowserBasedLogon`) with `handler` from now on, replacing an
    /// earlier one; works before and after `start()`. The handler may be sync or async; `undefined`
    /// is answered `null`, and a throw or rejection is sent back as the JSON-RPC error
    /// `Request <method> failed with message: <msg>`. Handlers run concurrently with everything
    /// else, so one may wait (for a user, say) while adt-ls keeps talking.
    #[napi(ts_args_type = "method: string, handler: ServerRequestHandler")]
    pub fn set_request_handler(&self, env: Env, method: Unknown, handler: Unknown) -> Result<()> {
        let method = Some(method);
        let handler = Some(handler);
        let method = checked::string(&env, method, "method").or_else(|e| throw(&env, e))?;
        let handler = checked::function(&env, handler, "handler").or_else(|e| throw(&env, e))?;
        let cb = JsCallback::new(&env, handler)?;
        let handler = user_request_handler(&method, Arc::new(JsRequestHandler(cb)));
        self.driver.set_request_handler(&method, handler);
        Ok(())
    }

    /// Call `handler(params)` for every server notification `method` (for example
    /// `adtLs/destinations/logonStateChanged` or `$/progress`), on the JS thread, in arrival
    /// order; works before `start()` and across restarts. A handler that throws or rejects is
    /// logged as a warning and changes nothing else. Returns a function that removes the handler.
    ///
    /// @example
    /// ```ts
    /// const off = driver.onNotification('adtLs/destinations/logonStateChanged', (p) => console.log(p));
    /// off();
    /// ```
    #[napi(
        ts_args_type = "method: string, handler: NotificationHandler",
        ts_return_type = "() => void"
    )]
    pub fn on_notification(&self, env: Env, method: Unknown, handler: Unknown) -> Result<Raw> {
        let method = checked::string(&env, Some(method), "method").or_else(|e| throw(&env, e))?;
        let handler =
            checked::function(&env, Some(handler), "handler").or_else(|e| throw(&env, e))?;
        let label = format!("the notification handler for {method}");
        let (target, outbox) = outbox::function_target(&env, handler.raw(), label)?;
        let id = self.driver.add_notification_listener(
            &method,
            Arc::new(move |params: Option<Value>| {
                outbox.post(target, Message::Call(params.unwrap_or(Value::Null)));
            }),
        );
        let driver = self.driver.clone();
        let off = env.create_function_from_closure::<(), (), _>("off", move |ctx| {
            if driver.remove_notification_listener(&method, id) {
                outbox::close_now(ctx.env, target);
            }
            Ok(())
        })?;
        Ok(Raw(off.raw()))
    }

    /// Stop adt-ls and release everything: pending requests reject, the pipe closes, the process tree
    /// is killed (waiting up to 5 s for it), and the data dir is removed when the driver made it. No
    /// LSP `shutdown` is sent. Idempotent; never rejects.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn dispose(&self, env: Env) -> Result<Settling<()>> {
        let teardown = self.driver.dispose();
        #[cfg(unix)]
        crate::js::runtime::js_thread_reads::close_ended();
        coded(
            &env,
            async move {
                teardown.await;
                Ok::<(), EngineError>(())
            },
            |_, ()| Ok(()),
        )
    }
}

type Handlers<'e> = Vec<(String, Function<'e, Unknown<'e>, Unknown<'e>>)>;

/// The session host of a driver or client started from this JS thread: the host state now
/// and, on Unix, the JS thread as the socket reader.
pub(super) fn session_host(env: &Env) -> SessionHost {
    let host = crate::js::runtime::host::capture(env);
    SessionHost {
        #[cfg(unix)]
        read_host: crate::js::runtime::js_thread_reads::read_host(env, &host),
        env: Some(host),
        trace_file: None,
    }
}

/// The constructor's arguments, checked: `binPath` and `AdtLsDriverOptions`.
fn driver_options<'e>(
    env: &Env,
    bin_path: Option<Unknown>,
    opts: Option<Unknown<'e>>,
) -> std::result::Result<(String, DriverOptions, Handlers<'e>), EngineError> {
    let bin_path = checked::string(env, bin_path, "binPath")?;
    let mut options = DriverOptions {
        host: session_host(env),
        ..DriverOptions::default()
    };
    let Some(opts) = checked::opt_object(env, opts, "opts")? else {
        return Ok((bin_path, options, Vec::new()));
    };
    let given = DriverOpts::read(env, &opts, "opts")?;
    if let Some(dir) = given.data_dir {
        options.data_dir = Some(PathBuf::from(dir));
    }
    if let Some(args) = given.extra_args {
        options.extra_args = args;
    }
    if let Some(extra) = given.extra_env {
        options.extra_env = extra;
    }
    if let Some(info) = given.client_info {
        options.client_info = client_identity(info);
    }
    if let Some(ms) = given.request_timeout_ms {
        options.request_timeout = ms;
    }
    options.host.trace_file = given.trace.map(|t| PathBuf::from(t.file));
    let handlers = given.request_handlers.map(|h| h.0).unwrap_or_default();
    Ok((bin_path, options, handlers))
}

/// `{ name, version }` (each optional; the default fills a missing one).
pub fn client_info(
    env: &Env,
    info: &Object,
    path: &str,
) -> std::result::Result<ClientInfo, EngineError> {
    ClientIdentity::read(env, info, path).map(client_identity)
}

fn client_identity(info: ClientIdentity) -> ClientInfo {
    let defaults = ClientInfo::default();
    ClientInfo {
        name: info.name.unwrap_or(defaults.name),
        version: info.version.unwrap_or(defaults.version),
    }
}

/// `opts?: { timeoutMs?: number }` of a request.
pub fn request_timeout(
    env: &Env,
    opts: Option<Unknown>,
) -> std::result::Result<Option<std::time::Duration>, EngineError> {
    let Some(opts) = checked::opt_object(env, opts, "opts")? else {
        return Ok(None);
    };
    checked::warn_unknown_keys(&opts, "opts", keys::REQUEST);
    timeout_prop(env, &opts, "timeoutMs", "opts.timeoutMs")
}

/// A promise that rejects at once (API methods never throw synchronously, docs/decisions.md#d5-4).
pub fn rejected<T: ToNapiValue + Send + 'static>(env: &Env, e: EngineError) -> Result<Settling<T>> {
    coded(env, async move { Err::<T, EngineError>(e) }, |_, v| Ok(v))
}

/// `start` with the arguments `read` checked, or a promise that rejects at once with the first
/// unusable one (in the order `read` reads them).
pub(crate) fn with_checked<A, T: ToNapiValue + Send + 'static>(
    env: &Env,
    read: impl FnOnce() -> EngineResult<A>,
    start: impl FnOnce(A) -> Result<Settling<T>>,
) -> Result<Settling<T>> {
    match read() {
        Ok(args) => start(args),
        Err(e) => rejected(env, e),
    }
}

/// A JS value napi-rs could not convert, as an argument error with napi-rs's reason.
pub(crate) fn invalid_arg(e: napi::Error) -> EngineError {
    EngineError::coded(codes::INVALID_ARG, e.reason.clone())
}
