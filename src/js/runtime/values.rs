//! Small value adapters: JSON handed to JS via JSON.parse, optional values that are
//! `undefined` (not `null`) when absent, as the reference returns them, a JS value made during
//! the current call returned as it is, and the napi-rs conversions of one value of the current
//! call (a string, an external, a class instance) behind safe functions.

use super::json;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use serde_json::Value;

/// A JSON value handed to JS (`undefined` for `None`), built with JSON.parse.
pub struct Json(pub Option<Value>);

impl ToNapiValue for Json {
    // SAFETY: napi-rs calls this with the env of the call (or settlement) in progress, on the
    // JS thread; the value made here is a handle of that call's scope.
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        json_value(&Env::from_raw(env), val.0)
    }
}

/// The JS value of [`Json`]: `value` through JSON.parse, `undefined` for `None`.
pub fn json_value(env: &Env, value: Option<Value>) -> Result<sys::napi_value> {
    match value {
        Some(v) => json::to_js(env, &v).map(|u| u.raw()),
        // SAFETY: `env` is the live env of the current call on the JS thread; making
        // `undefined` reads nothing else.
        None => unsafe { <()>::to_napi_value(env.raw(), ()) },
    }
}

/// A JSON text handed to JS with JSON.parse, unparsed on the Rust side.
pub struct JsonText(pub crate::lsp::message::RawJson);

impl ToNapiValue for JsonText {
    // SAFETY: napi-rs calls this with the env of the call (or settlement) in progress, on the
    // JS thread; the value made here is a handle of that call's scope.
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        let env = Env::from_raw(env);
        json::text_to_js(&env, val.0.get()).map(|u| u.raw())
    }
}

/// `T` or `undefined`.
pub struct OrUndefined<T>(pub Option<T>);

impl<T: ToNapiValue> ToNapiValue for OrUndefined<T> {
    // SAFETY: napi-rs calls this with the env of the call (or settlement) in progress, on the
    // JS thread, the same contract `T::to_napi_value` asks of its caller.
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        match val.0 {
            // SAFETY: `env` is the live env this function was called with (see above).
            Some(v) => unsafe { T::to_napi_value(env, v) },
            // SAFETY: as above; making `undefined` reads nothing else.
            None => unsafe { <()>::to_napi_value(env, ()) },
        }
    }
}

/// A JS value made during the current call, returned as it is.
pub struct Raw(pub sys::napi_value);

impl ToNapiValue for Raw {
    // SAFETY: returns the handle unchanged; whoever made the `Raw` made it in the scope of the
    // call (or settlement) that now hands it to JS, so it is still valid there.
    unsafe fn to_napi_value(_: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        Ok(val.0)
    }
}

/// A JS string of the current call as a Rust string (napi-rs's conversion, which fails on a
/// value that is not a string).
pub fn string(env: &Env, value: &Unknown) -> Result<String> {
    // SAFETY: `env` is the live env of the current call on the JS thread and `value` a handle
    // of that call's scope (an `Unknown` borrowed for the call); the string is copied out.
    unsafe { String::from_napi_value(env.raw(), value.raw()) }
}

/// A JS string of the current call as UTF-16 code units (fails on a value that is not a
/// string).
pub fn utf16_string(env: &Env, value: &Unknown) -> Result<Utf16String> {
    // SAFETY: `env` is the live env of the current call on the JS thread and `value` a handle
    // of that call's scope; the code units are copied out.
    unsafe { Utf16String::from_napi_value(env.raw(), value.raw()) }
}

/// A JS external owning `value` (freed by its finalizer when the external is collected).
pub fn external<T: 'static>(env: &Env, value: T) -> Result<sys::napi_value> {
    // SAFETY: `env` is the live env of the current call on the JS thread; napi-rs moves
    // `value` into the external and registers the finalizer that drops it.
    unsafe { External::to_napi_value(env.raw(), External::new(value)) }
}

/// A clone of what the JS external `value` holds; `None` when `value` is not an external or
/// holds another type.
pub fn external_clone<T: Clone + 'static>(env: &Env, value: sys::napi_value) -> Option<T> {
    // SAFETY: `env` is the live env of the current call on the JS thread and `value` a handle
    // the caller got in this call's scope, so the external (and the data it owns) stays alive
    // while it is read; napi-rs checks the data's type before the cast; the `'static`
    // reference it returns is not kept: the data is cloned and the reference dropped here.
    let external: &External<T> =
        unsafe { <&External<T>>::from_napi_value(env.raw(), value) }.ok()?;
    Some(T::clone(external))
}

/// The native instance behind a JS object of class `T` (the caller checks
/// `T::instance_of` first; napi-rs checks the wrapped class again before the cast).
pub fn class_instance<'env, T: 'env + MaybeTypeTag>(
    env: &'env Env,
    value: &Unknown<'env>,
) -> Result<ClassInstance<'env, T>> {
    // SAFETY: `env` is the live env of the current call on the JS thread and `value` a handle
    // of that call's scope; the instance is bounded by `'env`, the scope both borrow from, and
    // napi-rs unwraps the object's native pointer only after checking its class.
    unsafe { ClassInstance::<T>::from_napi_value(env.raw(), value.raw()) }
}
