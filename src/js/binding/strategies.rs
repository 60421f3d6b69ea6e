//! The logon strategy factories (`basic`, `bearer`, `clientCert`, `interactive`, `custom`)
//! and the conversion of any strategy-shaped JS object into an engine [`Strategy`]. A strategy
//! keeps the reference's shape (`kind`, `user`, `clientCert`, `register(driver, ctx)`); ours
//! also carry the engine strategy under a symbol key, so `createAdtLs` runs them natively.

use super::driver::AdtLsDriver;
use super::types::options::{
    is_nullish, Auth, ClientCertArgs, InteractiveArgs, PemBytes, StrategyUser,
};
use crate::auth::strategy::{Kind, Logon, Registrar};
use crate::auth::{InteractiveUi, LogonContext, PromptField, Strategy, TokenProvider, TokenSource};
use crate::driver::router::ServerRequestHandler;
use crate::driver::Driver;
use crate::js::runtime::callback::JsCallback;
use crate::js::runtime::checked;
use crate::js::runtime::errors::{coded, throw};
use crate::js::runtime::option_types::FromJs;
use crate::js::runtime::settle::Settling;
use crate::js::runtime::values::{self, Json};
use crate::js::runtime::{call, json, properties};
use crate::kernel::arg_error;
use crate::kernel::error::{codes, Error as EngineError, Result as EngineResult};
use crate::kernel::future::BoxFuture;
use crate::tls::ClientCertPem;
use adt_ls_native_macros::inline_ts;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use serde_json::{json as j, Value};
use std::sync::Arc;

const PAYLOAD_SYMBOL: &str = "adt-ls-native.strategy";

fn payload_key(env: &Env) -> Result<sys::napi_value> {
    properties::symbol_for(env, PAYLOAD_SYMBOL)
}

/// Throw an argument error from a factory (they are synchronous helpers).
fn or_throw<T>(env: &Env, r: EngineResult<T>) -> Result<T> {
    r.or_else(|e| throw(env, e))
}

/// `opts?: { user?: string }` of `bearer` and `custom`.
fn user_opt(env: &Env, opts: Option<Unknown>) -> EngineResult<Option<String>> {
    Ok(Option::<StrategyUser>::from_js(env, opts, "opts")?.and_then(|o| o.user))
}

/// Log on with user and password, headless (the common on-premise case). When adt-ls asks for a
/// browser logon (`adtLs/destinations/requestBrowserBasedLogon`), the library answers at once
/// and fetches the reentrance ticket itself: a `GET` of the logon URL with
/// `Authorization: Basic …`, then the ticket delivered to adt-ls. The password never leaves
/// the process except in that header, and never appears in logs or errors.
///
/// @example
/// ```ts
/// const adt = await createAdtLs({ connection: { systemUrl }, auth: basic('DEVELOPER', password) });
/// ```
#[napi(
    ts_args_type = "user: string, password: string",
    ts_return_type = "LogonStrategy"
)]
pub fn basic<'env>(
    env: &'env Env,
    user: Unknown<'env>,
    password: Unknown<'env>,
) -> Result<Object<'env>> {
    let user = Some(user);
    let password = Some(password);
    let user = or_throw(env, checked::string(env, user, "user"))?;
    let password = or_throw(env, checked::secret(env, password, "password"))?;
    crate::kernel::redact::register(&password);
    without_cert(env, Kind::Basic, Some(user), Logon::Basic { password })
}

/// Log on with an OAuth bearer token, headless (e.g. SAP BTP ABAP environment): like
/// {@link basic}, with `Authorization: Bearer <token>` on the ticket request. `token` is a string
/// or a (sync or async) function called at every logon, so a refreshed token is used on re-logon.
/// The library does not obtain tokens itself.
///
/// @param opts - `user`: recorded on the adt-ls destination
/// @example
/// ```ts
/// auth: bearer(async () => (await oauth.getToken()).access_token, { user: 'DEVELOPER' })
/// ```
#[inline_ts(StrategyUserOptions)]
#[napi(
    ts_args_type = "token: string | (() => string | Promise<string>), opts?: StrategyUserOptions",
    ts_return_type = "LogonStrategy"
)]
pub fn bearer<'env>(
    env: &'env Env,
    token: Unknown<'env>,
    opts: Unknown<'env>,
) -> Result<Object<'env>> {
    let token = Some(token);
    let opts = Some(opts);
    let is_function = token
        .as_ref()
        .is_some_and(|t| matches!(t.get_type(), Ok(ValueType::Function)));
    let source = if is_function {
        let f = or_throw(env, checked::function(env, token, "token"))?;
        TokenSource::Provider(Arc::new(JsTokenProvider(JsCallback::new(env, f)?)))
    } else {
        let got = checked::received(env, token.as_ref());
        let t = match token.filter(|t| matches!(t.get_type(), Ok(ValueType::String))) {
            Some(t) => values::string(env, &t)?,
            None => {
                let e = arg_error::secret_type_error("token", "a string or a function", &got);
                return throw(env, e);
            }
        };
        crate::kernel::redact::register(&t);
        TokenSource::Value(t)
    };
    let user = or_throw(env, user_opt(env, opts))?;
    without_cert(env, Kind::Bearer, user, Logon::Bearer { token: source })
}

/// Log on with a client certificate (mutual TLS), headless and passwordless: the localhost TLS
/// proxy presents `cert` and `key` (PEM, string or Buffer) to the system on every request, so the
/// system maps the certificate to a user (e.g. AS ABAP `icm/HTTPS/verify_client` with CERTRULE);
/// the ticket request carries no credentials.
///
/// Requires `connection.selfSigned: true` (the proxy does the mutual TLS); `createAdtLs` rejects
/// otherwise with `clientCert auth requires connection.selfSigned — ...`.
/// @throws Error `clientCert: cert is required` / `clientCert: key is required` when one is missing
#[inline_ts(ClientCertOptions)]
#[napi(
    js_name = "clientCert",
    ts_args_type = "opts: ClientCertOptions",
    ts_return_type = "LogonStrategy"
)]
pub fn client_cert<'env>(env: &'env Env, opts: Unknown<'env>) -> Result<Object<'env>> {
    let opts = Some(opts);
    let opts = or_throw(env, checked::object(env, opts, "opts"))?;
    let given = or_throw(env, ClientCertArgs::read(env, &opts, "opts"))?;
    let pem = ClientCertPem::new(given.cert.0, given.key.0);
    let user = given.user;
    let strategy = Strategy {
        kind: Kind::ClientCert,
        user,
        client_cert: Some(pem),
        logon: Logon::ClientCert,
    };
    // The object exposes cert and key exactly as given.
    let mut exposed = Object::new(env)?;
    exposed.set_named_property("cert", checked::property(&opts, "cert"))?;
    exposed.set_named_property("key", checked::property(&opts, "key"))?;
    strategy_object(env, strategy, Some(exposed))
}

/// `{cert, key}` (strings or bytes, both required) of a client-certificate object at `path`.
fn client_cert_pem(env: &Env, obj: &Object, path: &str) -> EngineResult<ClientCertPem> {
    let read = |key: &str| PemBytes::from_property(env, obj, key, &format!("{path}.{key}"));
    let cert = read("cert")?;
    let key = read("key")?;
    Ok(ClientCertPem::new(cert.0, key.0))
}

/// Log on interactively: you supply the user interface. `cb.openUrl(url)` is called with the
/// logon URL when adt-ls asks for a browser logon (SSO: the user signs in there), and adt-ls is
/// answered once it returned (its promise settled, when it returns one); with
/// `cb.promptField`, adt-ls's input requests (`adtLs/destinations/requestLogonInput`, e.g. user
/// and password) are asked field by field. Nothing is opened or printed by the library itself.
///
/// @example
/// ```ts
/// auth: interactive({
///   openUrl: (url) => open(url),
///   promptField: async ({ label, sensitive }) => ask(label, { hidden: sensitive }),
/// })
/// ```
#[napi(
    ts_args_type = "cb: InteractiveCallbacks",
    ts_return_type = "LogonStrategy"
)]
pub fn interactive<'env>(env: &'env Env, cb: Unknown<'env>) -> Result<Object<'env>> {
    let cb = Some(cb);
    let cb = or_throw(env, checked::object(env, cb, "cb"))?;
    let given = or_throw(env, InteractiveArgs::read(env, &cb, "cb"))?;
    let open = JsCallback::new(env, given.open_url.bind(cb)?)?;
    let prompt = match given.prompt_field {
        Some(f) => Some(JsCallback::new(env, f.bind(cb)?)?),
        None => None,
    };
    let logon = Logon::Interactive(Arc::new(JsUi { open, prompt }));
    without_cert(env, Kind::Interactive, given.user, logon)
}

/// Log on with your own handlers: `register(driver, ctx)` is called once with the
/// {@link AdtLsDriver} before `ensureLoggedOn`, to install handlers for adt-ls's server->client
/// requests with `driver.setRequestHandler(method, handler)`. `ctx.insecure` is
/// `connection.selfSigned`; `ctx.client` is the destination's SAP client (`connection.client`,
/// default `'001'`), which a handler fetching the reentrance ticket itself sends as `sap-client`.
/// A returned promise is awaited; a throw fails `createAdtLs`.
///
/// @param opts - `user`: recorded on the adt-ls destination
/// @example
/// ```ts
/// auth: custom((driver) => {
///   driver.setRequestHandler('adtLs/destinations/requestBrowserBasedLogon', async (params) => {
///     await deliverTicketMyself(params);
///     return true;
///   });
/// })
/// ```
#[inline_ts(StrategyUserOptions)]
#[napi(
    ts_args_type = "register: (driver: LogonHandlerRegistrar, ctx: LogonContext) => void, opts?: StrategyUserOptions",
    ts_return_type = "LogonStrategy"
)]
pub fn custom<'env>(
    env: &'env Env,
    register: Unknown<'env>,
    opts: Unknown<'env>,
) -> Result<Object<'env>> {
    let register = Some(register);
    let opts = Some(opts);
    let register = or_throw(env, checked::function(env, register, "register"))?;
    let user = or_throw(env, user_opt(env, opts))?;
    let mut obj = Object::new(env)?;
    obj.set_named_property("kind", "custom")?;
    set_user(&mut obj, user.as_deref())?;
    obj.set_named_property("register", register)?;
    Ok(obj)
}

/// The engine strategy for a JS strategy object (ours, or any object with the shape), the
/// `auth` option: a wrong shape is an argument error naming `auth.<key>`.
pub fn from_js(env: &Env, value: Unknown) -> std::result::Result<Arc<Strategy>, EngineError> {
    let obj = checked::object(env, Some(value), "auth")?;
    if let Some(strategy) = payload(env, &obj) {
        return Ok(strategy);
    }
    let kind =
        match checked::opt_string(env, checked::property(&obj, "kind"), "auth.kind")?.as_deref() {
            Some("basic") => Kind::Basic,
            Some("bearer") => Kind::Bearer,
            Some("interactive") => Kind::Interactive,
            Some("clientCert") => Kind::ClientCert,
            _ => Kind::Custom,
        };
    let user = checked::opt_string(env, checked::property(&obj, "user"), "auth.user")?;
    let client_cert = checked::opt_object(
        env,
        checked::property(&obj, "clientCert"),
        "auth.clientCert",
    )?
    .map(|cc| client_cert_pem(env, &cc, "auth.clientCert"))
    .transpose()?;
    let register = checked::property(&obj, "register");
    let register = checked::opt_function(env, register, "auth.register")?.ok_or_else(|| {
        arg_error::type_error(
            "auth.register",
            "a function (auth must be a logon strategy such as basic(user, password))",
            &checked::received(env, register.as_ref()),
        )
    })?;
    let invalid = |m: String| EngineError::coded(codes::INVALID_ARG, m);
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

/// The object of a strategy without a client certificate (every factory but `clientCert`).
fn without_cert<'env>(
    env: &'env Env,
    kind: Kind,
    user: Option<String>,
    logon: Logon,
) -> Result<Object<'env>> {
    let strategy = Strategy {
        kind,
        user,
        client_cert: None,
        logon,
    };
    strategy_object(env, strategy, None)
}

/// `obj.user`: the user, or `undefined` without one.
fn set_user(obj: &mut Object, user: Option<&str>) -> Result<()> {
    match user {
        Some(u) => obj.set_named_property("user", u),
        None => obj.set_named_property("user", ()),
    }
}

/// `{kind, user, [clientCert], register}` plus the engine strategy under the symbol key.
fn strategy_object<'env>(
    env: &'env Env,
    strategy: Strategy,
    client_cert: Option<Object>,
) -> Result<Object<'env>> {
    let strategy = Arc::new(strategy);
    let mut obj = Object::new(env)?;
    obj.set_named_property("kind", strategy.kind.as_str())?;
    set_user(&mut obj, strategy.user.as_deref())?;
    if let Some(cc) = client_cert {
        obj.set_named_property("clientCert", cc)?;
    }
    let for_register = strategy.clone();
    let register = env.create_function_from_closure::<Unknown, (), _>("register", move |ctx| {
        let env = &*ctx.env;
        let target = ctx.get::<Unknown>(0)?;
        let given = ctx.get::<Object>(1).ok();
        let insecure = given
            .as_ref()
            .and_then(|o| o.get::<bool>("insecure").ok().flatten())
            .unwrap_or(false);
        let client = given.and_then(|o| o.get::<String>("client").ok().flatten());
        register_on(env, &for_register, target, insecure, client)
    })?;
    obj.set_named_property("register", register)?;
    let key = payload_key(env)?;
    let external = values::external(env, strategy)?;
    properties::set(env, &obj, key, external)?;
    Ok(obj)
}

fn payload(env: &Env, obj: &Object) -> Option<Arc<Strategy>> {
    let key = payload_key(env).ok()?;
    let raw = properties::get(env, obj, key)?;
    values::external_clone::<Arc<Strategy>>(env, raw)
}

/// `strategy.register(driver, ctx)` called from JS: natively on our driver, otherwise through
/// the registrar's own `setRequestHandler`. `ctx.client` goes on the ticket request as
/// `sap-client`.
fn register_on(
    env: &Env,
    strategy: &Strategy,
    target: Unknown,
    insecure: bool,
    client: Option<String>,
) -> Result<()> {
    let ctx = LogonContext {
        insecure,
        sap_client: client.filter(|c| !c.is_empty()),
        ..LogonContext::default()
    };
    let handlers = strategy.builtin_handlers(&ctx);
    if AdtLsDriver::instance_of(env, &target)? {
        let driver = values::class_instance::<AdtLsDriver>(env, &target)?;
        for (method, handler) in handlers {
            driver.engine().set_request_handler(method, handler);
        }
        return Ok(());
    }
    let registrar = target.coerce_to_object()?;
    let set: Unknown = registrar.get_named_property("setRequestHandler")?;
    for (method, handler) in handlers {
        let f = handler_function(env, handler)?;
        let method = env.create_string(method)?.raw();
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

struct JsTokenProvider(Arc<JsCallback>);

impl TokenProvider for JsTokenProvider {
    fn token(&self) -> BoxFuture<EngineResult<String>> {
        let cb = self.0.clone();
        Box::pin(async move {
            match cb.call_json(Vec::new()).await {
                Ok(Some(Value::String(t))) => {
                    crate::kernel::redact::register(&t);
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
        let client = ctx.sap_client.clone();
        Box::pin(async move {
            cb.call(Box::new(move |env: &Env| {
                let instance = AdtLsDriver::from_engine(driver).into_instance(env)?;
                let mut ctx = Object::new(env)?;
                ctx.set_named_property("insecure", insecure)?;
                if let Some(client) = client {
                    ctx.set_named_property("client", client)?;
                }
                Ok(vec![instance.value, ctx.raw()])
            }))
            .await
            .map(|_| ())
            .map_err(|e| {
                EngineError::coded(
                    crate::kernel::error::codes::CALLBACK,
                    format!("auth.register failed: {e}"),
                )
            })
        })
    }
}

impl<'e> FromJs<'e> for Option<Auth> {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, _path: &str) -> EngineResult<Self> {
        match value.filter(|v| !is_nullish(v)) {
            Some(v) => from_js(env, v).map(|s| Some(Auth(s))),
            None => Ok(None),
        }
    }
}
