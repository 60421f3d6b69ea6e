//! Engine errors as JS `Error` objects: the (redacted) message, `code` (a number for
//! JSON-RPC errors, a string otherwise) and JSON-RPC `data` when the wire gave them. Also the
//! `coded` helper that turns an engine future into a JS promise rejecting with such an error
//! (a plain `#[napi] async fn` can only reject with napi's generic status codes); `coded`
//! captures the caller's frames at the call and grafts them onto a rejection's `stack`.
//! Every error is an `AdtLsError` ([`super::error_class`]) with `cause` and the details;
//! argument errors (`ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE`, `ERR_INVALID_ARG`) are
//! `TypeError`s and `ERR_OUT_OF_RANGE` a `RangeError`, as Node's own, branded as `AdtLsError`.

use super::caller_stack::{self, CallerStack};
use super::error_class;
use super::json;
use super::settle::{self, Completer, Settling};
use crate::kernel::error::{codes, Error as EngineError, ErrorCode};
use napi::bindgen_prelude::*;
use napi::{JsError, JsRangeError, JsTypeError, JsValue};
use std::future::Future;

/// Build the JS error object for an engine error and wrap it so napi throws/rejects it.
/// Its stack is the current JS frames (a synchronous throw).
pub fn js_error(env: &Env, e: &EngineError) -> napi::Error {
    js_error_at(env, e, None)
}

/// As [`js_error`], with the stack made of `frames` captured earlier at the caller's call
/// (an asynchronous rejection: the current frames would hold no user code).
pub fn js_error_at(env: &Env, e: &EngineError, frames: Option<&str>) -> napi::Error {
    napi::Error::from(js_error_value(env, e, frames))
}

/// The JS error object [`js_error_at`] throws, for callers that finish it themselves.
pub fn js_error_value<'env>(
    env: &'env Env,
    e: &EngineError,
    frames: Option<&str>,
) -> Unknown<'env> {
    let message = crate::kernel::redact::redact(&e.message);
    let kind = kind_of(e);
    let plain = napi::Error::new(Status::GenericFailure, message.clone());
    let unknown = match kind {
        "TypeError" => JsTypeError::from(plain).into_unknown(*env),
        "RangeError" => JsRangeError::from(plain).into_unknown(*env),
        _ => JsError::from(plain).into_unknown(*env),
    };
    if let Ok(mut obj) = unknown.coerce_to_object() {
        let _ = error_class::brand(env, &obj);
        if kind == "Error" {
            let _ = error_class::adopt(env, obj);
        }
        let _ = match &e.code {
            Some(ErrorCode::Num(n)) => obj.set_named_property("code", *n as f64),
            Some(ErrorCode::Str(s)) => obj.set_named_property("code", s.as_str()),
            None => obj.set_named_property("code", codes::UNCATEGORIZED),
        };
        if let Some(data) = &e.data {
            if let Ok(value) = json::to_js(env, data) {
                let _ = obj.set_named_property("data", value);
            }
        }
        if let Some(cause) = e.cause() {
            let text = crate::kernel::redact::redact(cause);
            let cause = JsError::from(napi::Error::new(Status::GenericFailure, text));
            let _ = obj.set_named_property("cause", cause.into_unknown(*env));
        }
        for (key, value) in e.details() {
            if let Ok(value) = json::to_js(env, value) {
                let _ = obj.set_named_property(key, value);
            }
        }
        let _ = match frames {
            Some(frames) => obj.set_named_property("stack", format!("{kind}: {message}\n{frames}")),
            None => caller_stack::capture_on(env, obj),
        };
    }
    unknown
}

/// The JS constructor for an engine error: argument errors are Node's `TypeError` /
/// `RangeError`, everything else an `Error`.
fn kind_of(e: &EngineError) -> &'static str {
    match &e.code {
        Some(ErrorCode::Str(c)) if c == codes::OUT_OF_RANGE => "RangeError",
        Some(ErrorCode::Str(c)) if crate::kernel::arg_error::is_argument_code(c) => "TypeError",
        _ => "Error",
    }
}

/// Run an engine future on the runtime and hand JS a promise; rejections are proper
/// errors with `code`/`data` and the caller's frames. Promises are settled in batches per
/// JS-thread wake-up ([`settle`]), after pending log lines are delivered.
pub fn coded<T, F, M, R>(env: &Env, fut: F, map: M) -> Result<Settling<R>>
where
    T: Send + 'static,
    F: Future<Output = std::result::Result<T, EngineError>> + Send + 'static,
    M: FnOnce(&Env, T) -> Result<R> + 'static,
    R: ToNapiValue + 'static,
{
    let (promise, completer) = coded_deferred(env, map)?;
    napi::bindgen_prelude::spawn(async move { completer.complete(fut.await) });
    Ok(promise)
}

/// As [`coded`], for an outcome some engine callback delivers instead of a future: the
/// promise, and the completer to hand the outcome to (from any thread).
pub fn coded_deferred<T, M, R>(
    env: &Env,
    map: M,
) -> Result<(Settling<R>, Completer<EngineOutcome<T>>)>
where
    T: Send + 'static,
    M: FnOnce(&Env, T) -> Result<R> + 'static,
    R: ToNapiValue + 'static,
{
    let caller = CallerStack::capture(env);
    let (promise, completer) = settle::deferred(env, move |env, outcome| {
        let settled = match outcome {
            // SAFETY: this runs in the settlement on the JS thread: `env` is the env `settle_one`
            // passes to `finish`, inside the handle scope it opened, which the returned value
            // belongs to.
            Ok(value) => map(env, value).and_then(|v| unsafe { R::to_napi_value(env.raw(), v) }),
            Err(e) => Err(js_error_at(env, &e, caller.frames(env).as_deref())),
        };
        caller.release(env);
        settled
    })?;
    Ok((promise.typed(), completer))
}

/// What an engine operation ends with.
pub type EngineOutcome<T> = std::result::Result<T, EngineError>;

/// Throw an engine error from a synchronous function.
pub fn throw<T>(env: &Env, e: EngineError) -> Result<T> {
    Err(js_error(env, &e))
}
