//! JS value <-> JSON conversion with JavaScript's own `JSON.stringify` / `JSON.parse`, so
//! values cross the boundary exactly as vscode-jsonrpc would put them on the wire:
//! `undefined` members are omitted, functions dropped, `NaN` becomes `null`, `toJSON` is
//! honoured, a circular value or a BigInt is a clean error (never a crash), and large
//! integers come back as (lossy) numbers, never as BigInts.

use super::call;
use super::raw_ref::RawRef;
use crate::lsp::message::RawJson;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use serde_json::value::RawValue;
use serde_json::Value;
use std::cell::OnceCell;

thread_local! {
    /// `JSON`, `JSON.stringify` and `JSON.parse` of this JS thread, looked up at the first
    /// conversion: every request converts its params and its result, and four property lookups
    /// by name per call cost more than the conversion of a small value. Holding the originals
    /// also keeps a script that replaces `JSON.parse` later from changing what we do.
    static JSON_FNS: OnceCell<JsonFns> = const { OnceCell::new() };
}

struct JsonFns {
    json: RawRef,
    stringify: RawRef,
    parse: RawRef,
}

impl JsonFns {
    fn look_up(env: &Env) -> Result<JsonFns> {
        let json = env.get_global()?.get_named_property::<Object>("JSON")?;
        let stringify: Unknown = json.get_named_property("stringify")?;
        let parse: Unknown = json.get_named_property("parse")?;
        Ok(JsonFns {
            json: RawRef::strong(env, json.raw())?,
            stringify: RawRef::strong(env, stringify.raw())?,
            parse: RawRef::strong(env, parse.raw())?,
        })
    }
}

/// `JSON` and one of its two functions (by `pick`), from this thread's cache.
fn json_fn(env: &Env, pick: fn(&JsonFns) -> &RawRef) -> Result<(sys::napi_value, sys::napi_value)> {
    JSON_FNS.with(|cell| {
        let fns = match cell.get() {
            Some(fns) => fns,
            None => {
                let _ = cell.set(JsonFns::look_up(env)?);
                cell.get()
                    .ok_or_else(|| Error::from_reason("JSON is not cached"))?
            }
        };
        match (fns.json.value(env), pick(fns).value(env)) {
            (Some(json), Some(func)) => Ok((json, func)),
            _ => Err(Error::from_reason("JSON is gone")),
        }
    })
}

/// Serialise a JS value; `None` when JSON.stringify yields `undefined` (undefined, a
/// function, a symbol).
pub fn from_js(env: &Env, value: Unknown) -> Result<Option<Value>> {
    match stringify(env, value)? {
        Some(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| Error::new(Status::InvalidArg, format!("value is not JSON: {e}"))),
        None => Ok(None),
    }
}

/// `JSON.stringify(value)` as a string, for callers that parse it straight into their own
/// types; `None` when it yields `undefined`.
pub fn stringify(env: &Env, value: Unknown) -> Result<Option<String>> {
    if matches!(value.get_type()?, ValueType::Undefined) {
        return Ok(None);
    }
    let (json, stringify) = json_fn(env, |f| &f.stringify)?;
    let out = call::call(env, json, stringify, &[value.raw()])?;
    match out.get_type()? {
        // SAFETY: `out` is a string (checked above), JSON.stringify's result in this scope on
        // `env`; it is copied out.
        ValueType::String => Ok(Some(unsafe {
            String::from_napi_value(env.raw(), out.raw())?
        })),
        _ => Ok(None),
    }
}

/// The JSON text of a JS value (JSON.stringify); `None` when it yields `undefined`. The text
/// is not parsed: it goes on the wire as it is.
pub fn text_from_js(env: &Env, value: Unknown) -> Result<Option<RawJson>> {
    match stringify(env, value)? {
        Some(text) => RawValue::from_string(text)
            .map(Some)
            .map_err(|e| Error::new(Status::InvalidArg, format!("value is not JSON: {e}"))),
        None => Ok(None),
    }
}

/// Build the JS value for a JSON text with JSON.parse. The JS string is made once, straight
/// from the text (no Rust-side copy); ASCII text (the usual case: serde_json and adt-ls escape
/// little) becomes a one-byte V8 string without UTF-8 decoding.
pub fn text_to_js<'env>(env: &'env Env, text: &str) -> Result<Unknown<'env>> {
    let (json, parse) = json_fn(env, |f| &f.parse)?;
    let text = js_string(env, text)?;
    call::call(env, json, parse, &[text])
}

/// A JS string with the contents of `text`, copied once by the engine.
pub(crate) fn js_string(env: &Env, text: &str) -> Result<napi::sys::napi_value> {
    let mut value = std::ptr::null_mut();
    let (ptr, len) = (text.as_ptr().cast(), text.len());
    // SAFETY: `env` is the env of the current call on the JS thread; `ptr` and `len` are the bytes
    // of `text`, alive across the call, which copies them (ASCII text is valid Latin-1, any `&str`
    // valid UTF-8); `value` is a local.
    let status = unsafe {
        if text.is_ascii() {
            napi::sys::napi_create_string_latin1(env.raw(), ptr, len as isize, &mut value)
        } else {
            napi::sys::napi_create_string_utf8(env.raw(), ptr, len as isize, &mut value)
        }
    };
    if status != napi::sys::Status::napi_ok {
        return Err(Error::new(
            Status::from(status),
            "creating a JS string failed",
        ));
    }
    Ok(value)
}

/// Same as [`from_js`] for an optional argument (undefined and absent are `None`).
pub fn from_js_opt(env: &Env, value: Option<Unknown>) -> Result<Option<Value>> {
    match value {
        Some(v) => from_js(env, v),
        None => Ok(None),
    }
}

/// Build the JS value for `value` with JSON.parse.
pub fn to_js<'env>(env: &'env Env, value: &Value) -> Result<Unknown<'env>> {
    let text = serde_json::to_string(value)
        .map_err(|e| Error::new(Status::GenericFailure, e.to_string()))?;
    text_to_js(env, &text)
}
