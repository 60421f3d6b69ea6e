//! The logon strategy factories (`basic`, `bearer`, `clientCert`, `interactive`, `custom`)
//! and the conversion of any strategy-shaped JS object into an engine [`Strategy`]. A strategy
//! keeps the reference's shape (`kind`, `user`, `clientCert`, `register(driver, ctx)`); ours
//! also carry the engine strategy under a symbol key, so `createAdtLs` runs them natively.

use super::callback::JsCallback;
use super::driver::AdtLsDriver;
use super::errors::coded;
use super::settle::Settling;
use super::values::Json;
use super::{call, json};
use crate::auth::{
    InteractiveUi, Kind, Logon, LogonContext, PromptField, Registrar, Strategy, TokenProvider,
    TokenSource,
};
use crate::driver::router::ServerRequestHandler;
use crate::driver::Driver;
use crate::error::{codes, Error as EngineError, Result as EngineResult};
use crate::lsp::BoxFuture;
use crate::tls::ClientCertPem;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use serde_json::{json as j, Value};
use std::sync::Arc;

const PAYLOAD_SYMBOL: &str = "adt-ls-native.strategy";

fn payload_key(env: &Env) -> Result<sys::napi_value> {
    unsafe { Symbol::to_napi_value(env.raw(), Symbol::for_desc(PAYLOAD_SYMBOL)) }
}

/// Basic (user and password): headless reentrance-ticket logon.
#[napi(ts_return_type = "LogonStrategy")]
pub fn basic(env: &Env, user: String, password: String) -> Result<Object<'_>> {
    crate::redact::register(&password);
    let strategy = Strategy {
        kind: Kind::Basic,
        user: Some(user),
        client_cert: None,
        logon: Logon::Basic { password },
    };
    strategy_object(env, Arc::new(strategy), None)
}

/// Bearer token, or a provider called at every logon (BTP ABAP environment).
#[napi(
    ts_args_type = "token: string | (() => string | Promise<string>), opts?: { user?: string }",
    ts_return_type = "LogonStrategy"
)]
pub fn bearer<'env>(
    env: &'env Env,
    token: Unknown<'env>,
    opts: Option<Object<'env>>,
) -> Result<Object<'env>> {
    let source = match token.get_type()? {
        ValueType::Function => {
            let f: Function<Unknown, Unknown> =
                unsafe { Function::from_napi_value(env.raw(), token.raw())? };
            TokenSource::Provider(Arc::new(JsTokenProvider(JsCallback::new(env, f)?)))
        }
        _ => {
            let t: String = unsafe { String::from_napi_value(env.raw(), token.raw())? };
            crate::redact::register(&t);
            TokenSource::Value(t)
        }
    };
    let user = match opts {
        Some(o) => o.get::<String>("user")?,
        None => None,
    };
    let strategy = Strategy {
        kind: Kind::Bearer,
        user,
        client_cert: None,
        logon: Logon::Bearer { token: source },
    };
    strategy_object(env, Arc::new(strategy), None)
}

/// Client certificate (mutual TLS through the localhost proxy; needs `connection.selfSigned`).
#[napi(
    js_name = "clientCert",
    ts_args_type = "opts: { cert: string | Buffer; key: string | Buffer; user?: string }",
    ts_return_type = "LogonStrategy"
)]
pub fn client_cert<'env>(env: &'env Env, opts: Object<'env>) -> Result<Object<'env>> {
    let cert: Unknown = opts
        .get("cert")?
        .ok_or_else(|| Error::from_reason("clientCert: cert is required"))?;
    let key: Unknown = opts
        .get("key")?
        .ok_or_else(|| Error::from_reason("clientCert: key is required"))?;
    let pem = ClientCertPem::new(bytes(env, cert)?, bytes(env, key)?);
    let strategy = Strategy {
        kind: Kind::ClientCert,
        user: opts.get::<String>("user")?,
        client_cert: Some(pem),
        logon: Logon::ClientCert,
    };
    // The object exposes cert and key exactly as given.
    let mut exposed = Object::new(env)?;
    exposed.set_named_property("cert", cert)?;
    exposed.set_named_property("key", key)?;
    strategy_object(env, Arc::new(strategy), Some(exposed))
}

/// Interactive: the caller opens the logon URL (and answers input prompts).
#[napi(
    ts_args_type = "cb: InteractiveCallbacks",
    ts_return_type = "LogonStrategy"
)]
pub fn interactive<'env>(env: &'env Env, cb: Object<'env>) -> Result<Object<'env>> {
    let open: Function<Unknown, Unknown> = cb.get_named_property("openUrl")?;
    let open = JsCallback::new(env, open.bind(cb)?)?;
    let prompt = match cb.get::<Function<Unknown, Unknown>>("promptField")? {
        Some(f) => Some(JsCallback::new(env, f.bind(cb)?)?),
        None => None,
    };
    let strategy = Strategy {
        kind: Kind::Interactive,
        user: cb.get::<String>("user")?,
        client_cert: None,
        logon: Logon::Interactive(Arc::new(JsUi { open, prompt })),
    };
    strategy_object(env, Arc::new(strategy), None)
}

/// Your own handlers: `register(driver, ctx)` is called with the driver before logon.
#[napi(
    ts_args_type = "register: (driver: LogonHandlerRegistrar, ctx: LogonContext) => void, opts?: { user?: string }",
    ts_return_type = "LogonStrategy"
)]
pub fn custom<'env>(
    env: &'env Env,
    register: Function<'env, Unknown<'env>, Unknown<'env>>,
    opts: Option<Object>,
) -> Result<Object<'env>> {
    let user = match opts {
        Some(o) => o.get::<String>("user")?,
        None => None,
    };
    let mut obj = Object::new(env)?;
    obj.set_named_property("kind", "custom")?;
    match &user {
        Some(u) => obj.set_named_property("user", u.as_str())?,
        None => obj.set_named_property("user", ())?,
    }
    obj.set_named_property("register", register)?;
    Ok(obj)
}

/// The engine strategy for a JS strategy object (ours, or any object with the shape).
pub fn from_js(env: &Env, value: Unknown) -> std::result::Result<Arc<Strategy>, EngineError> {
    let invalid = |m: String| EngineError::coded(codes::INVALID_ARG, m);
    let obj = value
        .coerce_to_object()
        .map_err(|e| invalid(e.reason.clone()))?;
    if let Some(strategy) = payload(env, &obj) {
        return Ok(strategy);
    }
    let kind = match obj.get::<String>("kind").ok().flatten().as_deref() {
        Some("basic") => Kind::Basic,
        Some("bearer") => Kind::Bearer,
        Some("interactive") => Kind::Interactive,
        Some("clientCert") => Kind::ClientCert,
        _ => Kind::Custom,
    };
    let user = obj.get::<String>("user").ok().flatten();
    let client_cert = match obj.get::<Object>("clientCert").ok().flatten() {
        Some(cc) => {
            let cert = cc
                .get::<Unknown>("cert")
                .ok()
                .flatten()
                .and_then(|v| bytes(env, v).ok());
            let key = cc
                .get::<Unknown>("key")
                .ok()
                .flatten()
                .and_then(|v| bytes(env, v).ok());
            match (cert, key) {
                (Some(c), Some(k)) => Some(ClientCertPem::new(c, k)),
                _ => return Err(invalid("auth.clientCert must have cert and key".into())),
            }
        }
        None => None,
    };
    let register: Function<Unknown, Unknown> =
        obj.get_named_property("register").map_err(|_| {
            invalid("auth must be a logon strategy with a register(driver, ctx) function".into())
        })?;
    let bound = register.bind(obj).map_err(|e| invalid(e.reason.clone()))?;
    let registrar =
        JsRegistrar(JsCallback::new(env, bound).map_err(|e| invalid(e.reason.clone()))?);
    Ok(Arc::new(Strategy {
        kind,
        user,
        client_cert,
        logon: Logon::Custom(Arc::new(registrar)),
    }))
}

/// `{kind, user, [clientCert], register}` plus the engine strategy under the symbol key.
fn strategy_object<'env>(
    env: &'env Env,
    strategy: Arc<Strategy>,
    client_cert: Option<Object>,
) -> Result<Object<'env>> {
    let mut obj = Object::new(env)?;
    obj.set_named_property("kind", strategy.kind.as_str())?;
    match &strategy.user {
        Some(u) => obj.set_named_property("user", u.as_str())?,
        None => obj.set_named_property("user", ())?,
    }
    if let Some(cc) = client_cert {
        obj.set_named_property("clientCert", cc)?;
    }
    let for_register = strategy.clone();
    let register = env.create_function_from_closure::<Unknown, (), _>("register", move |ctx| {
        let env = &*ctx.env;
        let target = ctx.get::<Unknown>(0)?;
        let insecure = ctx
            .get::<Object>(1)
            .ok()
            .and_then(|o| o.get::<bool>("insecure").ok().flatten())
            .unwrap_or(false);
        register_on(env, &for_register, target, insecure)
    })?;
    obj.set_named_property("register", register)?;
    let key = payload_key(env)?;
    let external = unsafe { External::to_napi_value(env.raw(), External::new(strategy))? };
    check_status!(unsafe { sys::napi_set_property(env.raw(), obj.raw(), key, external) })?;
    Ok(obj)
}

fn payload(env: &Env, obj: &Object) -> Option<Arc<Strategy>> {
    let key = payload_key(env).ok()?;
    let mut raw = std::ptr::null_mut();
    let status = unsafe { sys::napi_get_property(env.raw(), obj.raw(), key, &mut raw) };
    if status != sys::Status::napi_ok {
        return None;
    }
    let external: &External<Arc<Strategy>> =
        unsafe { <&External<Arc<Strategy>>>::from_napi_value(env.raw(), raw).ok()? };
    Some(Arc::clone(external))
}

/// `strategy.register(driver, ctx)` called from JS: natively on our driver, otherwise through
/// the registrar's own `setRequestHandler`.
fn register_on(env: &Env, strategy: &Strategy, target: Unknown, insecure: bool) -> Result<()> {
    let ctx = LogonContext {
        insecure,
        ..LogonContext::default()
    };
    let handlers = strategy.builtin_handlers(&ctx);
    if AdtLsDriver::instance_of(env, &target)? {
        let driver =
            unsafe { ClassInstance::<AdtLsDriver>::from_napi_value(env.raw(), target.raw())? };
        for (method, handler) in handlers {
            driver.engine().set_request_handler(method, handler);
        }
        return Ok(());
    }
    let registrar = target.coerce_to_object()?;
    let set: Unknown = registrar.get_named_property("setRequestHandler")?;
    for (method, handler) in handlers {
        let f = handler_function(env, handler)?;
        let method = unsafe { String::to_napi_value(env.raw(), method.to_string())? };
        call::call(env, registrar.raw(), set.raw(), &[method, f.raw()])?;
    }
    Ok(())
}

/// A JS function running an engine handler (returns a promise of its answer).
fn handler_function(
    env: &Env,
    handler: Arc<dyn ServerRequestHandler>,
) -> Result<Function<'_, Unknown<'_>, Settling<Json>>> {
    env.create_function_from_closure("handler", move |ctx| {
        let env = &*ctx.env;
        let params = ctx
            .get::<Unknown>(0)
            .ok()
            .and_then(|v| json::from_js(env, v).ok().flatten());
        let answer = handler.handle(params);
        coded(
            env,
            async move { answer.await.map_err(EngineError::new) },
            |_, v| Ok(Json(Some(v))),
        )
    })
}

/// A string, or a Buffer / Uint8Array's bytes.
fn bytes(env: &Env, value: Unknown) -> Result<Vec<u8>> {
    match value.get_type()? {
        ValueType::String => {
            Ok(unsafe { String::from_napi_value(env.raw(), value.raw())? }.into_bytes())
        }
        _ => Ok(unsafe { Buffer::from_napi_value(env.raw(), value.raw())? }.to_vec()),
    }
}

struct JsTokenProvider(Arc<JsCallback>);

impl TokenProvider for JsTokenProvider {
    fn token(&self) -> BoxFuture<EngineResult<String>> {
        let cb = self.0.clone();
        Box::pin(async move {
            match cb.call_json(Vec::new()).await {
                Ok(Some(Value::String(t))) => {
                    crate::redact::register(&t);
                    Ok(t)
                }
                Ok(_) => Err(EngineError::new(
                    "the bearer token provider did not return a string",
                )),
                Err(e) => Err(EngineError::new(e)),
            }
        })
    }
}

struct JsUi {
    open: Arc<JsCallback>,
    prompt: Option<Arc<JsCallback>>,
}

impl InteractiveUi for JsUi {
    fn open_url(&self, url: String) -> BoxFuture<EngineResult<()>> {
        let cb = self.open.clone();
        Box::pin(async move {
            cb.call_json(vec![Some(Value::String(url))])
                .await
                .map(|_| ())
                .map_err(EngineError::new)
        })
    }

    fn prompt_field(&self, field: PromptField) -> Option<BoxFuture<EngineResult<Option<String>>>> {
        let cb = self.prompt.clone()?;
        Some(Box::pin(async move {
            let arg = j!({"key": field.key, "label": field.label, "sensitive": field.sensitive});
            match cb.call_json(vec![Some(arg)]).await {
                Ok(Some(Value::String(s))) => Ok(Some(s)),
                Ok(_) => Ok(None),
                Err(e) => Err(EngineError::new(e)),
            }
        }))
    }

    fn has_prompt(&self) -> bool {
        self.prompt.is_some()
    }
}

/// A user's `register(driver, ctx)`, called on the JS thread with an `AdtLsDriver` for our
/// engine driver; a returned promise is awaited.
struct JsRegistrar(Arc<JsCallback>);

impl Registrar for JsRegistrar {
    fn register(&self, driver: &Driver, ctx: &LogonContext) -> BoxFuture<EngineResult<()>> {
        let cb = self.0.clone();
        let driver = driver.clone();
        let insecure = ctx.insecure;
        Box::pin(async move {
            cb.call(Box::new(move |env: &Env| {
                let instance = AdtLsDriver::from_engine(driver).into_instance(env)?;
                let mut ctx = Object::new(env)?;
                ctx.set_named_property("insecure", insecure)?;
                Ok(vec![instance.value, ctx.raw()])
            }))
            .await
            .map(|_| ())
            .map_err(|e| EngineError::new(format!("auth.register failed: {e}")))
        })
    }
}
