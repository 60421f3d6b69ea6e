//! Small return-value adapters: JSON handed to JS via JSON.parse, and optional values that
//! are `undefined` (not `null`) when absent, as the reference returns them.

use super::json;
use napi::bindgen_prelude::*;
use napi::JsValue;
use serde_json::Value;

/// A JSON value handed to JS (`undefined` for `None`), built with JSON.parse.
pub struct Json(pub Option<Value>);

impl ToNapiValue for Json {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        let env = Env::from_raw(env);
        match val.0 {
            Some(v) => json::to_js(&env, &v).map(|u| u.raw()),
            None => unsafe { <()>::to_napi_value(env.raw(), ()) },
        }
    }
}

/// A JSON text handed to JS with JSON.parse, unparsed on the Rust side.
pub struct JsonText(pub crate::lsp::message::RawJson);

impl ToNapiValue for JsonText {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        let env = Env::from_raw(env);
        json::text_to_js(&env, val.0.get()).map(|u| u.raw())
    }
}

/// `T` or `undefined`.
pub struct OrUndefined<T>(pub Option<T>);

impl<T: ToNapiValue> ToNapiValue for OrUndefined<T> {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        match val.0 {
            Some(v) => unsafe { T::to_napi_value(env, v) },
            None => unsafe { <()>::to_napi_value(env, ()) },
        }
    }
}

/// A JS value made during the current call, returned as it is.
pub struct Raw(pub napi::sys::napi_value);

impl ToNapiValue for Raw {
    unsafe fn to_napi_value(_: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        Ok(val.0)
    }
}
