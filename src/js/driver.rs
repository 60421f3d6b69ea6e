//! `AdtLsDriver` for JS: converts arguments, wraps JS request handlers, forwards to
//! [`crate::driver::Driver`].

use super::callback::JsCallback;
use super::errors::{coded, coded_deferred, throw};
use super::json;
use super::settle::Settling;
use super::timeouts::{timeout_arg, timeout_prop};
use super::values::{Json, JsonText};
use crate::auth::proxy_url::user_request_handler;
use crate::driver::router::ServerRequestHandler;
use crate::driver::{Driver, DriverOptions, DEFAULT_START_TIMEOUT};
use crate::error::{codes, Error as EngineError, Result as EngineResult};
use crate::identity::ClientInfo;
use crate::lsp::message::RawJson;
use crate::lsp::BoxFuture;
use napi::bindgen_prelude::*;
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

#[napi]
pub struct AdtLsDriver {
    driver: Driver,
}

#[napi]
impl AdtLsDriver {
    /// Prepare a driver for the adt-ls binary at `binPath`; nothing is spawned until `start`.
    #[napi(
        constructor,
        ts_args_type = "binPath: string, opts?: AdtLsDriverOptions"
    )]
    pub fn new(env: Env, bin_path: String, opts: Option<Object>) -> Result<Self> {
        let mut options = DriverOptions {
            host: Some(super::host::capture(&env)),
            ..DriverOptions::default()
        };
        let mut handlers = Vec::new();
        if let Some(opts) = opts {
            if let Some(dir) = opts.get::<String>("dataDir")? {
                options.data_dir = Some(PathBuf::from(dir));
            }
            if let Some(args) = opts.get::<Vec<String>>("extraArgs")? {
                options.extra_args = args;
            }
            if let Some(extra) = opts.get::<Object>("extraEnv")? {
                for key in Object::keys(&extra)? {
                    if let Some(value) = extra.get::<String>(&key)? {
                        options.extra_env.push((key, value));
                    }
                }
            }
            if let Some(info) = opts.get::<Object>("clientInfo")? {
                let defaults = ClientInfo::default();
                options.client_info = ClientInfo {
                    name: info.get::<String>("name")?.unwrap_or(defaults.name),
                    version: info.get::<String>("version")?.unwrap_or(defaults.version),
                };
            }
            match timeout_prop(&env, &opts, "requestTimeoutMs", "opts.requestTimeoutMs") {
                Ok(Some(ms)) => options.request_timeout = ms,
                Ok(None) => {}
                Err(e) => return throw(&env, e),
            }
            if let Some(map) = opts.get::<Object>("requestHandlers")? {
                for method in Object::keys(&map)? {
                    if let Some(f) = map.get::<Function<Unknown, Unknown>>(&method)? {
                        handlers.push((method, JsCallback::new(&env, f)?));
                    }
                }
            }
        }
        let driver = Driver::new(PathBuf::from(bin_path), options);
        for (method, cb) in handlers {
            let handler = user_request_handler(&method, Arc::new(JsRequestHandler(cb)));
            driver.set_request_handler(&method, handler);
        }
        Ok(AdtLsDriver { driver })
    }

    /// The engine driver behind this object (for the client and strategies).
    pub fn engine(&self) -> &Driver {
        &self.driver
    }

    /// A JS driver object for an engine driver the client created.
    pub fn from_engine(driver: Driver) -> AdtLsDriver {
        AdtLsDriver { driver }
    }

    /// The `initialize` result while started, else `undefined`.
    #[napi(getter, ts_return_type = "AdtLsInitializeResult | undefined")]
    pub fn initialize_result(&self) -> Json {
        Json(self.driver.initialize_result())
    }

    /// Spawn adt-ls and complete the LSP handshake (default timeout 60 000 ms per phase).
    #[napi(
        ts_args_type = "timeoutMs?: number",
        ts_return_type = "Promise<AdtLsInitializeResult>"
    )]
    pub fn start(&self, env: Env, timeout_ms: Option<Unknown>) -> Result<Settling<Json>> {
        let timeout = match timeout_arg(&env, timeout_ms, "timeoutMs") {
            Ok(t) => t.unwrap_or(DEFAULT_START_TIMEOUT),
            Err(e) => return rejected(&env, e),
        };
        coded(&env, self.driver.start(timeout), |_, v| Ok(Json(Some(v))))
    }

    /// Send an LSP request; params are encoded as vscode-jsonrpc does (a non-object is
    /// wrapped in a one-element array, an absent one is `[null]`).
    #[napi(
        ts_generic_types = "T = unknown",
        ts_args_type = "method: string, params?: unknown, opts?: { timeoutMs?: number }",
        ts_return_type = "Promise<T>"
    )]
    pub fn send_request(
        &self,
        env: Env,
        method: String,
        params: Option<Unknown>,
        opts: Option<Object>,
    ) -> Result<Settling<JsonText>> {
        // JSON text both ways: params and results cross without being parsed in Rust.
        let params = match params.map(|p| json::text_from_js(&env, p)).transpose() {
            Ok(p) => p.flatten(),
            Err(e) => {
                return rejected(
                    &env,
                    EngineError::coded(codes::INVALID_ARG, e.reason.clone()),
                )
            }
        };
        let timeout = match opts.map(|o| timeout_prop(&env, &o, "timeoutMs", "opts.timeoutMs")) {
            Some(Ok(t)) => t,
            Some(Err(e)) => return rejected(&env, e),
            None => None,
        };
        // The outcome settles the promise straight from the connection (no task per call).
        let (promise, completer) = coded_deferred(&env, |_, v| Ok(JsonText(v)))?;
        let detail = method.clone();
        let done = move |outcome: EngineResult<RawJson>| {
            completer.complete(outcome.map_err(|e| e.with_detail("method", detail)));
        };
        self.driver
            .request_raw_then(&method, params, timeout, Box::new(done));
        Ok(promise)
    }

    /// Send an LSP notification.
    #[napi(
        ts_args_type = "method: string, params?: unknown",
        ts_return_type = "Promise<void>"
    )]
    pub fn send_notification(
        &self,
        env: Env,
        method: String,
        params: Option<Unknown>,
    ) -> Result<Settling<()>> {
        let params = match json::from_js_opt(&env, params) {
            Ok(p) => p,
            Err(e) => {
                return rejected(
                    &env,
                    EngineError::coded(codes::INVALID_ARG, e.reason.clone()),
                )
            }
        };
        let sent = self.driver.notification(&method, params);
        coded(
            &env,
            async move { sent.await.map_err(|e| e.with_detail("method", method)) },
            |_, ()| Ok(()),
        )
    }

    /// Answer the server->client request `method` with `handler` (sync or async). A throw
    /// or rejection is sent back as a JSON-RPC error; `undefined` is answered `null`.
    #[napi(ts_args_type = "method: string, handler: ServerRequestHandler")]
    pub fn set_request_handler(
        &self,
        env: Env,
        method: String,
        handler: Function<Unknown, Unknown>,
    ) -> Result<()> {
        let cb = JsCallback::new(&env, handler)?;
        let handler = user_request_handler(&method, Arc::new(JsRequestHandler(cb)));
        self.driver.set_request_handler(&method, handler);
        Ok(())
    }

    /// Stop adt-ls and release everything. Idempotent.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn dispose(&self, env: Env) -> Result<Settling<()>> {
        let teardown = self.driver.dispose();
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

/// A promise that rejects at once (API methods never throw synchronously, decisions D5.4).
pub fn rejected<T: ToNapiValue + Send + 'static>(env: &Env, e: EngineError) -> Result<Settling<T>> {
    coded(env, async move { Err::<T, EngineError>(e) }, |_, v| Ok(v))
}
