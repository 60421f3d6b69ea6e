//! Cancellation of JS calls (docs/cancellation.md): reading a call's `signal` and `timeoutMs`,
//! and running the engine future so that an abort rejects the promise at once (on the JS
//! thread, inside the `abort` listener) with Node's `AbortError` shape, while the engine
//! future is dropped inside a [`crate::kernel::cancel_scope`], which puts the wire cancellation out
//! (`$/cancelRequest`, `notifications/cancelled`) and stops a multi-step call before its next
//! request. `timeoutMs` drops it the same way and rejects with `ETIMEDOUT`. The listener is
//! removed when the call settles, whichever way. A call without either option takes the
//! plain path ([`coded`]) and pays nothing.

use super::call;
use super::caller_stack::CallerStack;
use super::checked;
use super::errors::{coded, js_error_at, js_error_value, EngineOutcome};
use super::raw_ref::RawRef;
use super::settle::{self, Completer, Settling};
use super::timeouts::timeout_arg;
use crate::client::registry::render::CallOptionsAt;
use crate::kernel::cancel_scope;
use crate::kernel::error::{codes, Error as EngineError, Result as EngineResult};
use napi::bindgen_prelude::*;
use napi::{sys, JsValue};
use serde_json::Value;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;
use tokio::sync::oneshot;

/// Node's message for an aborted operation (`AbortError`).
pub const ABORT_MESSAGE: &str = "The operation was aborted";

/// Work to do on the JS thread when a call rejects on an abort.
type AbortHook = Box<dyn FnOnce(&Env)>;

/// The `signal` and `timeoutMs` of one call (valid during the synchronous call only).
#[derive(Default)]
pub struct CallOptions {
    signal: Option<sys::napi_value>,
    timeout: Option<(Duration, String)>,
    /// The call has a limit of its own (a `timeoutMs` the engine enforces with its own
    /// message): run it in the cancel scope so that limit cancels on the wire too.
    own_limit: bool,
    /// Run on the JS thread when the call rejects on an abort, before the rejection: the
    /// engine work is dropped later, so whatever it still reports must be shut off here.
    on_abort: Option<AbortHook>,
}

impl CallOptions {
    /// Neither a signal nor a timeout: the call runs as if no options were given.
    pub fn is_empty(&self) -> bool {
        self.signal.is_none() && self.timeout.is_none() && !self.own_limit
    }

    /// The signal is given and already aborted (the call would reject without sending).
    pub fn is_aborted(&self, env: &Env) -> bool {
        self.signal.is_some_and(|s| is_aborted(env, s))
    }

    /// Mark that the call has a limit of its own (see [`CallOptions::own_limit`]).
    pub fn with_own_limit(mut self, limited: bool) -> Self {
        self.own_limit |= limited;
        self
    }

    /// Set the hook run when the call rejects on an abort (see [`CallOptions::on_abort`]).
    pub fn on_abort(&mut self, hook: impl FnOnce(&Env) + 'static) {
        self.on_abort = Some(Box::new(hook));
    }
}

/// Read `signal` (an `AbortSignal`) and, when `with_timeout`, `timeoutMs` from the options
/// object `obj`, named `path` in errors (`opts.signal must be an instance of AbortSignal`).
pub fn read(env: &Env, obj: &Object, path: &str, with_timeout: bool) -> EngineResult<CallOptions> {
    let mut out = CallOptions::default();
    if let Some(signal) = checked::property(obj, "signal").filter(is_given) {
        if !is_abort_signal(env, &signal) {
            return Err(crate::kernel::arg_error::type_error(
                &format!("{path}.signal"),
                "an instance of AbortSignal",
                &checked::received(env, Some(&signal)),
            ));
        }
        out.signal = Some(signal.raw());
    }
    if let Some(ms) = checked::property(obj, "timeoutMs").filter(is_given) {
        if with_timeout {
            let name = format!("{path}.timeoutMs");
            if let Some(limit) = timeout_arg(env, Some(ms), &name)? {
                out.timeout = Some((limit, name));
            }
        } else {
            out.own_limit = true;
        }
    }
    Ok(out)
}

/// Read the call options from an optional argument that is only call options (the trailing
/// `options?: CallOptions` of a method without an options object of its own).
pub fn read_arg(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<CallOptions> {
    match checked::opt_object(env, value, path)? {
        Some(obj) => {
            checked::warn_unknown_keys(&obj, path, crate::options::keys::CALL);
            read(env, &obj, path, true)
        }
        None => Ok(CallOptions::default()),
    }
}

/// The `signal` of a request's `opts?: { timeoutMs, signal }` (driver and MCP client), whose
/// `timeoutMs` the engine enforces itself (with the cancel scope, so it cancels on the wire).
pub fn read_request_opts(env: &Env, value: Option<Unknown>) -> EngineResult<CallOptions> {
    match value.filter(|v| matches!(v.get_type(), Ok(ValueType::Object))) {
        Some(v) => match v.coerce_to_object() {
            Ok(obj) => read(env, &obj, "opts", false),
            Err(_) => Ok(CallOptions::default()),
        },
        None => Ok(CallOptions::default()),
    }
}

fn is_given(v: &Unknown) -> bool {
    !matches!(
        v.get_type(),
        Ok(ValueType::Undefined | ValueType::Null) | Err(_)
    )
}

fn is_abort_signal(env: &Env, value: &Unknown) -> bool {
    if !matches!(value.get_type(), Ok(ValueType::Object)) {
        return false;
    }
    let Ok(global) = env.get_global() else {
        return false;
    };
    let Ok(ctor) = global.get_named_property::<Unknown>("AbortSignal") else {
        return false;
    };
    let mut result = false;
    // SAFETY: `env` is the env of the current call on the JS thread; `value` and `ctor` are handles
    // of its scope (the argument, and `AbortSignal` read just above); `result` is a local.
    let status = unsafe { sys::napi_instanceof(env.raw(), value.raw(), ctor.raw(), &mut result) };
    status == sys::Status::napi_ok && result
}

/// Call options kept across calls (an iterator's pages): the signal by a weak reference,
/// released with [`HeldCallOptions::release`].
pub struct HeldCallOptions {
    signal: Option<RawRef>,
    timeout: Option<(Duration, String)>,
}

impl HeldCallOptions {
    /// Keep `opts` beyond the current call.
    pub fn hold(env: &Env, opts: CallOptions) -> Result<HeldCallOptions> {
        let signal = match opts.signal {
            Some(s) => Some(RawRef::weak(env, s)?),
            None => None,
        };
        Ok(HeldCallOptions {
            signal,
            timeout: opts.timeout,
        })
    }

    /// The options for one more call (a collected signal counts as absent).
    pub fn options(&self, env: &Env) -> CallOptions {
        CallOptions {
            signal: self.signal.as_ref().and_then(|s| s.value(env)),
            timeout: self.timeout.clone(),
            own_limit: false,
            on_abort: None,
        }
    }

    /// Drop the reference to the signal.
    pub fn release(&mut self, env: &Env) {
        if let Some(s) = self.signal.take() {
            s.delete(env);
        }
    }
}

/// How a cancellable call ended.
enum Ending<T> {
    Done(EngineOutcome<T>),
    Aborted,
}

/// Run the engine call `start` under `opts`: as [`coded`] when there are none; otherwise
/// an aborted signal rejects at once without calling `start` (nothing is sent), an abort
/// while it runs rejects at once and drops it, and `timeoutMs` drops it and rejects with
/// `ETIMEDOUT` (`<label> timed out after <ms>ms`).
pub fn run<T, F, M, R>(
    env: &Env,
    opts: CallOptions,
    label: &str,
    start: impl FnOnce() -> F,
    map: M,
) -> Result<Settling<R>>
where
    T: Send + 'static,
    F: Future<Output = EngineOutcome<T>> + Send + 'static,
    M: FnOnce(&Env, T) -> Result<R> + 'static,
    R: ToNapiValue + 'static,
{
    if opts.is_empty() {
        return coded(env, start(), map);
    }
    let caller = CallerStack::capture(env);
    let signal = match opts.signal {
        Some(s) => Some(RawRef::strong(env, s)?),
        None => None,
    };
    let aborted = opts.signal.is_some_and(|s| is_aborted(env, s));
    let id_slot: Rc<Cell<Option<u64>>> = Rc::new(Cell::new(None));
    let (cancel_tx, cancel_rx) = oneshot::channel::<()>();
    let listener = match opts.signal.filter(|_| !aborted) {
        Some(s) => Some(listen::<T>(env, s, id_slot.clone(), cancel_tx)?),
        None => None,
    };
    let held = Held {
        caller,
        signal,
        listener,
        on_abort: opts.on_abort,
        map,
    };
    let (promise, completer) = settle::deferred(env, move |env, ending| held.settle(env, ending))?;
    let id = completer.id();
    if aborted {
        settle::settle_now(env, id, Ending::<T>::Aborted);
        return Ok(promise.typed());
    }
    id_slot.set(Some(id));
    let timeout = opts
        .timeout
        .map(|(limit, name)| (limit, timeout_error(label, &name, limit)));
    let work = cancel_scope::cancellable(start());
    napi::bindgen_prelude::spawn(race(work, cancel_rx, timeout, completer));
    Ok(promise.typed())
}

/// What a cancellable call holds on the JS thread until its promise settles.
struct Held<M> {
    caller: CallerStack,
    signal: Option<RawRef>,
    listener: Option<RawRef>,
    on_abort: Option<AbortHook>,
    map: M,
}

impl<M> Held<M> {
    /// Settle the call's promise with `ending` (on the JS thread): remove the listener,
    /// turn the ending into the value or the rejection, then release what was held.
    fn settle<T, R>(self, env: &Env, ending: Ending<T>) -> Result<sys::napi_value>
    where
        M: FnOnce(&Env, T) -> Result<R>,
        R: ToNapiValue,
    {
        let Held {
            caller,
            signal,
            listener,
            on_abort,
            map,
        } = self;
        if let (Some(s), Some(l)) = (signal.as_ref(), listener.as_ref()) {
            unlisten(env, s, l);
        }
        // The caller's frames are formatted only for a rejection.
        let settled = match ending {
            Ending::Done(Ok(value)) => {
                // SAFETY: this runs in the settlement on the JS thread: `env` is the env
                // `settle_one` passes to `finish`, inside the handle scope it opened, which the
                // returned value belongs to.
                map(env, value).and_then(|v| unsafe { R::to_napi_value(env.raw(), v) })
            }
            Ending::Done(Err(e)) => Err(js_error_at(env, &e, caller.frames(env).as_deref())),
            Ending::Aborted => {
                if let Some(hook) = on_abort {
                    hook(env);
                }
                let reason = signal.as_ref().and_then(|s| reason_of(env, s));
                Err(abort_error(env, reason, caller.frames(env).as_deref()))
            }
        };
        caller.release(env);
        if let Some(s) = signal {
            s.delete(env);
        }
        if let Some(l) = listener {
            l.delete(env);
        }
        settled
    }
}

/// Race the engine `work` against the abort (`cancel_rx`) and the `timeout`, and complete
/// the promise with the work's outcome or the timeout error.
async fn race<T: Send + 'static>(
    work: impl Future<Output = EngineOutcome<T>>,
    cancel_rx: oneshot::Receiver<()>,
    timeout: Option<(Duration, EngineError)>,
    completer: Completer<Ending<T>>,
) {
    let cancelled = async {
        if cancel_rx.await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let expired = async {
        match timeout {
            Some((limit, e)) => {
                tokio::time::sleep(limit).await;
                e
            }
            None => std::future::pending().await,
        }
    };
    let ending = tokio::select! {
        out = work => Some(Ending::Done(out)),
        e = expired => Some(Ending::Done(Err(e))),
        _ = cancelled => None,
    };
    // None: the abort listener settled the promise already; the dropped completer's
    // late notice finds nothing waiting.
    if let Some(ending) = ending {
        completer.complete(ending);
    }
}

fn timeout_error(label: &str, name: &str, limit: Duration) -> EngineError {
    EngineError::coded(
        codes::TIMEOUT,
        format!("{label} timed out after {}ms ({name})", limit.as_millis()),
    )
}

fn is_aborted(env: &Env, signal: sys::napi_value) -> bool {
    let obj = Object::from_raw(env.raw(), signal);
    obj.get::<bool>("aborted").ok().flatten().unwrap_or(false)
}

fn reason_of(env: &Env, signal: &RawRef) -> Option<sys::napi_value> {
    let raw = signal.value(env)?;
    let obj = Object::from_raw(env.raw(), raw);
    obj.get::<Unknown>("reason").ok().flatten().map(|r| r.raw())
}

/// Add the `abort` listener that settles promise `id` (once known) and drops the work.
fn listen<T: Send + 'static>(
    env: &Env,
    signal: sys::napi_value,
    id_slot: Rc<Cell<Option<u64>>>,
    cancel: oneshot::Sender<()>,
) -> Result<RawRef> {
    let cancel = Cell::new(Some(cancel));
    let listener = env.create_function_from_closure::<(), (), _>("onAbort", move |ctx| {
        if let Some(tx) = cancel.take() {
            let _ = tx.send(());
        }
        if let Some(id) = id_slot.take() {
            settle::settle_now(ctx.env, id, Ending::<T>::Aborted);
        }
        Ok(())
    })?;
    let listener = listener.raw();
    event_listener_call(env, signal, "addEventListener", listener)?;
    RawRef::strong(env, listener)
}

fn unlisten(env: &Env, signal: &RawRef, listener: &RawRef) {
    if let (Some(s), Some(l)) = (signal.value(env), listener.value(env)) {
        let _ = event_listener_call(env, s, "removeEventListener", l);
    }
}

/// `signal[method]('abort', listener)`.
fn event_listener_call(
    env: &Env,
    signal: sys::napi_value,
    method: &str,
    listener: sys::napi_value,
) -> Result<()> {
    let obj = Object::from_raw(env.raw(), signal);
    let f = obj.get_named_property::<Unknown>(method)?;
    // SAFETY: `env` is the env of the current call on the JS thread; the string made is a handle of
    // its scope.
    let kind = unsafe { String::to_napi_value(env.raw(), "abort".to_string())? };
    call::call(env, signal, f.raw(), &[kind, listener]).map(|_| ())
}

/// Node's `AbortError`: `name` `AbortError`, `code` `ABORT_ERR`, `cause` the signal's reason,
/// an `AdtLsError` with the caller's frames.
fn abort_error(env: &Env, reason: Option<sys::napi_value>, frames: Option<&str>) -> Error {
    let e = EngineError::coded(codes::ABORTED, ABORT_MESSAGE);
    let value = js_error_value(env, &e, frames);
    if let Ok(mut obj) = value.coerce_to_object() {
        let _ = obj.set_named_property("name", "AbortError");
        if let Some(reason) = reason {
            // SAFETY: `reason` was read from the signal (`reason_of`) in this same settlement scope
            // on `env`, so it is a live handle.
            let reason = unsafe { Unknown::from_raw_unchecked(env.raw(), reason) };
            let _ = obj.set_named_property("cause", reason);
        }
        if let Ok(Some(stack)) = obj.get::<String>("stack") {
            if let Some(rest) = stack.strip_prefix("Error:") {
                let _ = obj.set_named_property("stack", format!("AbortError:{rest}"));
            }
        }
    }
    Error::from(value)
}

/// The call options of a client method's arguments (`at` from the registry) and what the
/// engine must not see of them: the extra trailing argument, or the keys inside `opts`.
pub struct MethodCallOptions {
    pub opts: CallOptions,
    at: CallOptionsAt,
}

impl MethodCallOptions {
    /// Read them from argument `value` (the one at `at`'s index, if given).
    pub fn read(env: &Env, value: Option<Unknown>, at: CallOptionsAt) -> EngineResult<Self> {
        let opts = match at {
            CallOptionsAt::Trailing { .. } => read_arg(env, value, "options")?,
            CallOptionsAt::Opts { own_timeout, .. } => {
                match value.filter(|v| matches!(v.get_type(), Ok(ValueType::Object))) {
                    Some(v) => match v.coerce_to_object() {
                        Ok(obj) => read(env, &obj, "opts", !own_timeout)?,
                        Err(_) => CallOptions::default(),
                    },
                    None => CallOptions::default(),
                }
            }
        };
        Ok(MethodCallOptions { opts, at })
    }

    /// No options (the given ones were unusable; their error is reported separately).
    pub fn none(at: CallOptionsAt) -> Self {
        MethodCallOptions {
            opts: CallOptions::default(),
            at,
        }
    }

    /// False for the extra trailing argument, which the engine never sees.
    pub fn passes(&self, index: usize) -> bool {
        !matches!(self.at, CallOptionsAt::Trailing { index: i } if i == index)
    }

    /// Remove our keys from the JSON of argument `index` when it is the method's `opts`.
    pub fn strip(&self, index: usize, value: &mut Value) {
        let CallOptionsAt::Opts {
            index: at,
            own_timeout,
        } = self.at
        else {
            return;
        };
        if at != index {
            return;
        }
        if let Value::Object(map) = value {
            map.remove("signal");
            if !own_timeout {
                map.remove("timeoutMs");
            }
        }
    }
}
