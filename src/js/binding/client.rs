//! `createAdtLs` for JS: converts the options, forwards to [`crate::client::Client::create`]
//! and hands back the client as a plain object of namespaces whose functions forward to
//! [`crate::client::Client::call`], one function per entry of the method registry
//! ([`crate::client::registry`]; functions close over the client, so they also work
//! detached: `const { search } = client.repository`). Only the conversions live here.

use super::types::options::{Connection, CreateAdtLs, KeepAliveChoice};
use crate::client::registry::render::CallOptionsAt;
use crate::client::{
    Args, Client, ClientOptions, ConnectionOptions, Probe, SEMANTIC_TOKENS_METHOD,
};
use crate::js::runtime::cancel::{self, MethodCallOptions};
use crate::js::runtime::checked;
use crate::js::runtime::errors::coded;
use crate::js::runtime::json;
use crate::js::runtime::settle::Settling;
use crate::js::runtime::values::{self, Json, Raw};
use crate::kernel::error::{codes, Error as EngineError};
use napi::bindgen_prelude::*;
use napi::JsValue;
use serde_json::Value;
use std::path::PathBuf;

/// Start adt-ls and return the unified client. In order: check the options, find the binary
/// ({@link resolveAdtLsPath} or `adtLs.path`), make a private work dir, prepare TLS (with
/// `connection.selfSigned` or `extraCaCerts`), start adt-ls ({@link AdtLsDriver}), point it at a
/// private destination store (`adtLs/destinations/initializeService`), log on with `auth` when
/// `connection` is given (`adtLs/destinations/create`, `ensureLoggedOn`), start adt-ls's MCP
/// server (`adtLs/mcp/startMCPServer`, port fallback from `mcpPort`) and connect to it, then
/// probe the session and start the keep-alive. Without `connection` and `auth` the client runs in
/// foundation mode: no system is contacted and destination-scoped methods reject with
/// `No ABAP destination is connected.`.
///
/// Call `dispose()` when done (or hold the client with `await using`). A failure at any step
/// releases everything made so far before the promise rejects. Every method of the client
/// returns a promise and never throws synchronously.
///
/// @throws rejects with `Provide connection and auth together, or omit both for foundation mode.`
/// @throws rejects with `clientCert auth requires connection.selfSigned — the reverse proxy presents the client cert to the backend.`
/// @throws rejects with the discovery errors of {@link resolveAdtLsPath}, the start errors of
/// {@link AdtLsDriver.start} and `ERR_INVALID_ARG_VALUE` / `ERR_OUT_OF_RANGE` for bad option values
/// @throws rejects with `Logon to <id> did not reach 'connected' (<state>[: <message>]).` when the
/// logon fails
/// @example
/// ```ts
/// import { createAdtLs, basic } from 'adt-ls-native';
///
/// const adt = await createAdtLs({
///   connection: { systemUrl: 'https://a4h.example.com:44300', client: '001' },
///   auth: basic('DEVELOPER', process.env.SAP_PASSWORD!),
/// });
/// const { references } = await adt.repository.search('CL_ABAP_*', { types: ['CLAS/OC'] });
/// await adt.dispose();
/// ```
#[napi(
    ts_args_type = "opts: CreateAdtLsOptions",
    ts_return_type = "Promise<AdtLsClient>"
)]
pub fn create_adt_ls(env: Env, opts: Unknown) -> Result<Settling<Raw>> {
    let opts = Some(opts);
    let options = match client_options(&env, opts) {
        Ok(o) => o,
        Err(e) => return coded(&env, async move { Err::<Client, _>(e) }, client_object),
    };
    coded(&env, Client::create(options), client_object)
}

/// The client handed to JS: converted into the namespace object on the JS thread.
fn client_object(env: &Env, client: Client) -> Result<Raw> {
    build(env, client).map(|o| Raw(o.raw()))
}

fn build(env: &Env, client: Client) -> Result<Object<'_>> {
    let mut root = Object::new(env)?;
    for spec in crate::client::registry::specs() {
        let method = spec.name;
        let f = method_fn(env, client.clone(), method, spec.call_options_at())?;
        match method.split_once('.') {
            Some((ns, name)) => {
                let mut space = match root.get::<Object>(ns)? {
                    Some(o) => o,
                    None => {
                        let o = Object::new(env)?;
                        root.set_named_property(ns, o)?;
                        root.get::<Object>(ns)?
                            .ok_or_else(|| Error::from_reason("namespace vanished"))?
                    }
                };
                space.set_named_property(name, f)?;
            }
            None => root.set_named_property(method, f)?,
        }
    }
    if let Some(mut transport) = root.get::<Object>("transport")? {
        transport.set_named_property(
            "diffPages",
            super::diff_pages::function(env, client.clone())?,
        )?;
    }
    let for_health = client.clone();
    let events_of = client.clone();
    let health = env.create_function_from_closure::<(), Json, _>("health", move |_| {
        Ok(Json(Some(for_health.health())))
    })?;
    root.set_named_property("health", health)?;
    let dispose =
        env.create_function_from_closure::<(), Settling<()>, _>("dispose", move |ctx| {
            let client = client.clone();
            coded(
                ctx.env,
                async move {
                    client.dispose().await;
                    Ok::<(), EngineError>(())
                },
                |_, ()| Ok(()),
            )
        })?;
    let dispose_raw = dispose.raw();
    root.set_named_property("dispose", dispose)?;
    crate::js::runtime::dispose::attach(env, &root, dispose_raw)?;
    super::events::attach(env, &mut root, &events_of)?;
    Ok(root)
}

/// One JS function forwarding to `client.call(method, args)`; never throws synchronously.
/// Its call options (`signal`, `timeoutMs`, at `at`) are read by [`cancel`].
fn method_fn<'env>(
    env: &'env Env,
    client: Client,
    method: &'static str,
    at: CallOptionsAt,
) -> Result<Function<'env, Unknown<'env>, Settling<Json>>> {
    let name = method.rsplit('.').next().unwrap_or(method);
    let progress_at = super::progress::options_at(method);
    env.create_function_from_closure(name, move |ctx| {
        let env = &*ctx.env;
        let reject = |e: EngineError| {
            coded(env, async move { Err::<Option<Value>, _>(e) }, |_, v| {
                Ok(Json(v))
            })
        };
        // A bad option after other parameters is held back until the method has checked
        // those (arguments are named in order); in the first parameter it rejects at once.
        let mut held = None;
        let progress = match super::progress::from_args(env, &ctx, progress_at) {
            Ok(p) => p,
            Err(e) if progress_at.is_some_and(|(i, _)| i > 0) => {
                held = Some(e);
                None
            }
            Err(e) => return reject(e),
        };
        let index = at.index();
        let given = (index < ctx.length())
            .then(|| ctx.get::<Unknown>(index).ok())
            .flatten();
        let call = match MethodCallOptions::read(env, given, at) {
            Ok(c) => c,
            Err(e) if index > 0 => {
                held.get_or_insert(e);
                MethodCallOptions::none(at)
            }
            Err(e) => return reject(e),
        };
        let mut args: Args = Vec::with_capacity(ctx.length());
        for i in (0..ctx.length()).filter(|&i| call.passes(i)) {
            let value = ctx.get::<Unknown>(i).and_then(|v| json::from_js(env, v));
            match value {
                Ok(mut v) => {
                    if let Some(v) = v.as_mut() {
                        call.strip(i, v);
                    }
                    args.push(v)
                }
                Err(e) => {
                    let err = EngineError::coded(
                        codes::INVALID_ARG,
                        format!("argument {} of {method}: {}", i + 1, e.reason),
                    );
                    return coded(env, async move { Err::<Value, _>(err) }, |_, v| {
                        Ok(Json(Some(v)))
                    });
                }
            }
        }
        let mut opts = call.opts;
        if let Some(p) = &progress {
            opts.on_abort(p.closer());
        }
        let client = &client;
        cancel::run(
            env,
            opts,
            method,
            move || super::progress::run(progress, || client.call_holding(method, args, held)),
            move |env, value| method_result(env, method, value).map(Raw),
        )
        .map(Settling::typed)
    })
}

/// A client method's result for JS: JSON through JSON.parse, except the semantic tokens,
/// whose objects are built around shared legend strings ([`crate::js::runtime::semantic_tokens`]).
fn method_result(
    env: &Env,
    method: &'static str,
    value: Option<Value>,
) -> Result<napi::sys::napi_value> {
    match value {
        Some(v) if method == SEMANTIC_TOKENS_METHOD => {
            crate::js::runtime::semantic_tokens::navigation_result(env, &v)
        }
        value => values::json_value(env, value),
    }
}

/// `CreateAdtLsOptions` to engine options: read through its declaration
/// ([`CreateAdtLs`], every value checked with its option path, unknown keys logged as
/// warnings); `auth` may be a strategy made by our factories or any object with the strategy
/// shape.
fn client_options(
    env: &Env,
    opts: Option<Unknown>,
) -> std::result::Result<ClientOptions, EngineError> {
    let mut o = ClientOptions {
        host: super::driver::session_host(env),
        ..ClientOptions::default()
    };
    let Some(obj) = checked::opt_object(env, opts, "opts")? else {
        return Ok(o);
    };
    let given = CreateAdtLs::read(env, &obj, "")?;
    o.auth = given.auth.map(|a| a.0);
    if let Some(adt) = given.adt_ls {
        o.adt_ls_path = adt.path;
        o.extra_args = adt.extra_args.unwrap_or_default();
        o.extra_env = adt.extra_env.unwrap_or_default();
        if let Some(ms) = adt.start_timeout_ms {
            o.start_timeout = ms;
        }
        if let Some(ms) = adt.request_timeout_ms {
            o.request_timeout = ms;
        }
    }
    if let Some(ms) = given.mcp_timeout_ms {
        o.mcp_timeout = ms;
    }
    if let Some(ms) = given.logon_timeout_ms {
        o.logon_timeout = ms;
    }
    o.connection = given.connection.map(connection);
    o.host.trace_file = given.trace.map(|t| PathBuf::from(t.file));
    o.destination_id = given.destination_id;
    if let Some(port) = given.mcp_port {
        o.mcp_port = i64::from(port.0);
    }
    match given.keep_alive {
        None => {}
        Some(KeepAliveChoice::On(on)) => o.keep_alive = on,
        Some(KeepAliveChoice::Every(k)) => {
            o.keep_alive = true;
            if let Some(ms) = k.interval_ms {
                o.keep_alive_interval = ms;
            }
        }
    }
    Ok(o)
}

/// `connection: ConnectionOptions` as the engine takes it.
fn connection(c: Connection) -> ConnectionOptions {
    ConnectionOptions {
        system_url: c.system_url,
        client: c.client,
        language: c.language,
        self_signed: c.self_signed.unwrap_or(false),
        extra_ca_certs: c
            .extra_ca_certs
            .unwrap_or_default()
            .into_iter()
            .map(PathBuf::from)
            .collect(),
        forward_proxy: c.forward_proxy.map(|fp| (fp.host, fp.port.0)),
        probe: c.probe.map(|p| Probe {
            pattern: p.pattern,
            types: p.types.unwrap_or_default(),
        }),
    }
}
