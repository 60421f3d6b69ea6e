//! `createAdtLs` for JS: converts the options, forwards to [`crate::client::Client::create`]
//! and hands back the client as a plain object of namespaces whose functions forward to
//! [`crate::client::Client::call`] (functions close over the client, so they also work
//! detached: `const { search } = client.repository`). Only the conversions live here.

use super::errors::coded;
use super::json;
use super::settle::Settling;
use super::strategies;
use super::timeouts::timeout_prop;
use super::values::Json;
use crate::client::{Args, Client, ClientOptions, ConnectionOptions, Health, Probe};
use crate::error::{codes, Error as EngineError};
use napi::bindgen_prelude::*;
use napi::JsValue;
use serde_json::Value;
use std::path::PathBuf;

/// Start adt-ls (discovered or `adtLs.path`), its MCP server and, with `connection` + `auth`,
/// log on to the SAP system. Resolves with the unified client.
#[napi(
    ts_args_type = "opts: CreateAdtLsOptions",
    ts_return_type = "Promise<AdtLsClient>"
)]
pub fn create_adt_ls(env: Env, opts: Option<Unknown>) -> Result<Settling<ClientObject>> {
    let options = match client_options(&env, opts) {
        Ok(o) => o,
        Err(e) => {
            return coded(&env, async move { Err::<Client, _>(e) }, |_, c| {
                Ok(ClientObject(c))
            })
        }
    };
    coded(&env, Client::create(options), |_, client| {
        Ok(ClientObject(client))
    })
}

/// The client handed to JS: converted into the namespace object on the JS thread.
pub struct ClientObject(Client);

impl ToNapiValue for ClientObject {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        let env = Env::from_raw(env);
        build(&env, val.0).map(|o| o.raw())
    }
}

fn build(env: &Env, client: Client) -> Result<Object<'_>> {
    let mut root = Object::new(env)?;
    for method in crate::client::METHODS {
        let f = method_fn(env, client.clone(), method)?;
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
    let for_health = client.clone();
    let health = env.create_function_from_closure::<(), Json, _>("health", move |_| {
        Ok(Json(Some(health_json(&for_health.health()))))
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
    super::dispose::attach(env, &root, dispose_raw)?;
    Ok(root)
}

/// One JS function forwarding to `client.call(method, args)`; never throws synchronously.
fn method_fn<'env>(
    env: &'env Env,
    client: Client,
    method: &'static str,
) -> Result<Function<'env, Unknown<'env>, Settling<Json>>> {
    let name = method.rsplit('.').next().unwrap_or(method);
    env.create_function_from_closure(name, move |ctx| {
        let env = &*ctx.env;
        let mut args: Args = Vec::with_capacity(ctx.length());
        for i in 0..ctx.length() {
            let value = ctx.get::<Unknown>(i).and_then(|v| json::from_js(env, v));
            match value {
                Ok(v) => args.push(v),
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
        coded(env, client.call(method, args), |_, v| Ok(Json(v)))
    })
}

fn health_json(h: &Health) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("connected".into(), Value::Bool(h.connected));
    out.insert("backendLive".into(), Value::Bool(h.backend_live));
    out.insert("destination".into(), Value::String(h.destination.clone()));
    if let Some(n) = &h.adt_ls_name {
        out.insert("adtLsName".into(), Value::String(n.clone()));
    }
    if let Some(v) = &h.adt_ls_version {
        out.insert("adtLsVersion".into(), Value::String(v.clone()));
    }
    out.insert("mcpPort".into(), Value::from(h.mcp_port));
    Value::Object(out)
}

/// `CreateAdtLsOptions` to engine options. `auth` may be a strategy made by our factories or
/// any object with the strategy shape.
fn client_options(
    env: &Env,
    opts: Option<Unknown>,
) -> std::result::Result<ClientOptions, EngineError> {
    let invalid = |m: String| EngineError::coded(codes::INVALID_ARG, m);
    let mut o = ClientOptions {
        host: Some(super::host::capture(env)),
        ..ClientOptions::default()
    };
    let Some(opts) = opts else { return Ok(o) };
    if !matches!(opts.get_type(), Ok(ValueType::Object)) {
        return Ok(o);
    }
    let obj = opts
        .coerce_to_object()
        .map_err(|e| invalid(e.reason.clone()))?;
    let auth = obj
        .get::<Unknown>("auth")
        .map_err(|e| invalid(e.reason.clone()))?;
    if let Some(auth) = auth.filter(|a| matches!(a.get_type(), Ok(ValueType::Object))) {
        o.auth = Some(strategies::from_js(env, auth)?);
    }
    // Everything else is plain data: read it as JSON.
    let data = json::from_js(env, opts)
        .map_err(|e| invalid(e.reason.clone()))?
        .unwrap_or(Value::Null);
    if let Some(adt) = data.get("adtLs") {
        o.adt_ls_path = adt.get("path").and_then(Value::as_str).map(str::to_string);
        o.extra_args = strings(adt.get("extraArgs"));
        if let Some(Value::Object(env_map)) = adt.get("extraEnv") {
            o.extra_env = env_map
                .iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect();
        }
    }
    // Timeouts from the JS values themselves (JSON would turn NaN/Infinity into null).
    if let Some(adt) = obj
        .get::<Unknown>("adtLs")
        .ok()
        .flatten()
        .filter(|a| matches!(a.get_type(), Ok(ValueType::Object)))
    {
        let adt = adt
            .coerce_to_object()
            .map_err(|e| invalid(e.reason.clone()))?;
        let start = "adtLs.startTimeoutMs";
        if let Some(ms) = timeout_prop(env, &adt, "startTimeoutMs", start)? {
            o.start_timeout = ms;
        }
        let request = "adtLs.requestTimeoutMs";
        if let Some(ms) = timeout_prop(env, &adt, "requestTimeoutMs", request)? {
            o.request_timeout = ms;
        }
    }
    if let Some(ms) = timeout_prop(env, &obj, "mcpTimeoutMs", "mcpTimeoutMs")? {
        o.mcp_timeout = ms;
    }
    if let Some(ms) = timeout_prop(env, &obj, "logonTimeoutMs", "logonTimeoutMs")? {
        o.logon_timeout = ms;
    }
    if let Some(c) = data.get("connection").filter(|c| c.is_object()) {
        o.connection = Some(connection(c)?);
    }
    o.destination_id = data
        .get("destinationId")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(port) = data.get("mcpPort").and_then(Value::as_f64) {
        o.mcp_port = port as i64;
    }
    match data.get("keepAlive") {
        Some(Value::Bool(k)) => o.keep_alive = *k,
        Some(Value::Object(_)) => {
            o.keep_alive = true;
            if let Some(Ok(keep_alive)) = obj.get::<Object>("keepAlive").transpose() {
                if let Some(ms) =
                    timeout_prop(env, &keep_alive, "intervalMs", "keepAlive.intervalMs")?
                {
                    o.keep_alive_interval = ms;
                }
            }
        }
        _ => {}
    }
    Ok(o)
}

fn connection(c: &Value) -> std::result::Result<ConnectionOptions, EngineError> {
    let system_url = c.get("systemUrl").and_then(Value::as_str).ok_or_else(|| {
        EngineError::coded(codes::INVALID_ARG, "connection.systemUrl must be a string")
    })?;
    let forward_proxy = c.get("forwardProxy").and_then(|fp| {
        let host = fp.get("host")?.as_str()?.to_string();
        let port = fp.get("port")?.as_f64()? as u16;
        Some((host, port))
    });
    let probe = c.get("probe").and_then(|p| {
        let pattern = p.get("pattern")?.as_str()?.to_string();
        let types = match p.get("types") {
            Some(t) => strings(Some(t)),
            None => Vec::new(),
        };
        Some(Probe { pattern, types })
    });
    Ok(ConnectionOptions {
        system_url: system_url.to_string(),
        client: c.get("client").and_then(Value::as_str).map(str::to_string),
        language: c
            .get("language")
            .and_then(Value::as_str)
            .map(str::to_string),
        self_signed: c
            .get("selfSigned")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        extra_ca_certs: strings(c.get("extraCaCerts"))
            .into_iter()
            .map(PathBuf::from)
            .collect(),
        forward_proxy,
        probe,
    })
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
