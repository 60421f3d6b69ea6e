//! Calling a JS function from Rust with the exception handled: napi-rs's `Function::apply`
//! leaves a thrown exception pending (which would surface as an uncaught exception), so every
//! call into user or built-in JS goes through [`call`], which clears it and returns an error
//! carrying the thrown value's message instead.

use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use std::ptr;

/// Call `func` with `this` and `args`; a throw becomes `Err` with the thrown message.
pub fn call<'env>(
    env: &'env Env,
    this: sys::napi_value,
    func: sys::napi_value,
    args: &[sys::napi_value],
) -> Result<Unknown<'env>> {
    let mut result = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `this`, `func` and the `args`
    // are handles its callers made or read in that call's scope; `args` points to `args.len()`
    // values that outlive the call; `result` is a local.
    let status = unsafe {
        sys::napi_call_function(
            env.raw(),
            this,
            func,
            args.len(),
            args.as_ptr(),
            &mut result,
        )
    };
    if status == sys::Status::napi_pending_exception {
        let mut exception = ptr::null_mut();
        // SAFETY: an exception is pending on `env` (the status says so); `exception` is a local the
        // call writes it to.
        unsafe { sys::napi_get_and_clear_last_exception(env.raw(), &mut exception) };
        let message = if exception.is_null() {
            "the JS function threw".to_string()
        } else {
            // SAFETY: `exception` is non-null, just taken from `env` in this scope.
            error_message(env, unsafe {
                Unknown::from_raw_unchecked(env.raw(), exception)
            })
        };
        return Err(Error::new(Status::GenericFailure, message));
    }
    if status != sys::Status::napi_ok {
        return Err(Error::new(
            Status::from(status),
            "calling a JS function failed".to_string(),
        ));
    }
    // SAFETY: `result` was written by the successful call above: a handle of this scope on `env`.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), result) })
}

/// `undefined`, for `this` or arguments.
pub fn undefined(env: &Env) -> sys::napi_value {
    let mut raw = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `raw` is a local the call
    // writes `undefined` to.
    unsafe { sys::napi_get_undefined(env.raw(), &mut raw) };
    raw
}

/// `err.message` for Error-like values, `String(value)` otherwise.
pub fn error_message(env: &Env, value: Unknown) -> String {
    if let Ok(ValueType::Object) = value.get_type() {
        if let Ok(obj) = value.coerce_to_object() {
            if let Ok(msg) = obj.get_named_property::<Unknown>("message") {
                if let Ok(ValueType::String) = msg.get_type() {
                    // SAFETY: `msg` is a string (checked above) read in this scope on `env`; it is
                    // copied out.
                    if let Ok(s) = unsafe { String::from_napi_value(env.raw(), msg.raw()) } {
                        return s;
                    }
                }
            }
        }
    }
    match value.coerce_to_string().and_then(|s| s.into_utf8()) {
        Ok(s) => s.as_str().map(str::to_owned).unwrap_or_default(),
        Err(_) => "unknown error".to_string(),
    }
}
