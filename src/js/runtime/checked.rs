//! Checked, path-aware conversion of JS arguments and options: every export takes `Unknown`
//! values and reads them through here, so a wrong type is an `ERR_INVALID_ARG_TYPE` naming
//! the argument path and what was given (`adtLs.path must be a string, received type number
//! (123)`), never napi's conversion wording. `undefined` and `null` count as "not given" for
//! optional values. Unknown keys of an options object are logged ([`crate::options::keys`]).

use crate::js::runtime::json;
use crate::kernel::arg_error::{self, Received};
use crate::kernel::error::{Error as EngineError, Result as EngineResult};
use napi::bindgen_prelude::*;
use napi::JsValue;
use serde_json::Value;

/// What `value` is, for a message.
pub fn received(env: &Env, value: Option<&Unknown>) -> Received {
    let Some(value) = value else {
        return Received::Undefined;
    };
    let raw = |env: &Env| (env.raw(), value.raw());
    match value.get_type().unwrap_or(ValueType::Unknown) {
        ValueType::Undefined => Received::Undefined,
        ValueType::Null => Received::Null,
        ValueType::Boolean => {
            let (e, v) = raw(env);
            // SAFETY: `e` is the live env of the current call on the JS thread and `v` a boolean
            // (its type read above) of its scope.
            Received::Bool(unsafe { bool::from_napi_value(e, v) }.unwrap_or(false))
        }
        ValueType::Number => {
            let (e, v) = raw(env);
            // SAFETY: `e` is the live env of the current call on the JS thread and `v` a number
            // (its type read above) of its scope.
            Received::Number(unsafe { f64::from_napi_value(e, v) }.unwrap_or(f64::NAN))
        }
        ValueType::String => {
            let (e, v) = raw(env);
            // SAFETY: `e` is the live env of the current call on the JS thread and `v` a string
            // (its type read above) of its scope; it is copied out.
            Received::Str(unsafe { String::from_napi_value(e, v) }.unwrap_or_default())
        }
        ValueType::BigInt => Received::BigInt,
        ValueType::Symbol => Received::Symbol,
        ValueType::Function => Received::Function(name_of(value, "name").unwrap_or_default()),
        _ => Received::Instance(constructor_name(value).unwrap_or_else(|| "Object".into())),
    }
}

fn name_of(value: &Unknown, key: &str) -> Option<String> {
    let obj = value.coerce_to_object().ok()?;
    obj.get::<String>(key).ok().flatten()
}

fn constructor_name(value: &Unknown) -> Option<String> {
    let obj = value.coerce_to_object().ok()?;
    let ctor: Object = obj.get::<Object>("constructor").ok().flatten()?;
    ctor.get::<String>("name").ok().flatten()
}

/// `None` for an absent, `undefined` or `null` value.
fn given(value: Option<Unknown<'_>>) -> Option<Unknown<'_>> {
    value.filter(|v| {
        !matches!(
            v.get_type(),
            Ok(ValueType::Undefined | ValueType::Null) | Err(_)
        )
    })
}

fn is(value: &Unknown, kind: ValueType) -> bool {
    value.get_type().is_ok_and(|t| t == kind)
}

fn wrong(env: &Env, value: Option<&Unknown>, path: &str, expected: &str) -> EngineError {
    arg_error::type_error(path, expected, &received(env, value))
}

/// A required string.
pub fn string(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<String> {
    opt_string(env, value, path)?.ok_or_else(|| wrong(env, value.as_ref(), path, "a string"))
}

/// An optional value of the JS type `kind`, read as `T` (the Rust type napi-rs reads that
/// type as); any other given value is a type error expecting `expected`.
fn opt_of_type<T: FromNapiValue>(
    env: &Env,
    value: Option<Unknown>,
    path: &str,
    kind: ValueType,
    expected: &str,
) -> EngineResult<Option<T>> {
    let Some(v) = given(value) else {
        return Ok(None);
    };
    if !is(&v, kind) {
        return Err(wrong(env, Some(&v), path, expected));
    }
    // SAFETY: `env` is the env of the current call on the JS thread and `v` a value of type
    // `kind` (checked above) of its scope; every caller reads it as the type napi-rs reads
    // `kind` as, which copies a primitive out or wraps the handle for the argument's lifetime.
    unsafe { T::from_napi_value(env.raw(), v.raw()) }
        .map(Some)
        .map_err(|_| wrong(env, Some(&v), path, expected))
}

/// An optional string.
pub fn opt_string(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<Option<String>> {
    opt_of_type(env, value, path, ValueType::String, "a string")
}

/// A required secret string (password, token): a wrong value's content is never shown.
pub fn secret(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<String> {
    let bad = || arg_error::secret_type_error(path, "a string", &received(env, value.as_ref()));
    let Some(v) = given(value).filter(|v| is(v, ValueType::String)) else {
        return Err(bad());
    };
    // SAFETY: `env` is the env of the current call on the JS thread and `v` a string (filtered
    // above) of its scope; it is copied out.
    unsafe { String::from_napi_value(env.raw(), v.raw()) }.map_err(|_| bad())
}

/// An optional boolean.
pub fn opt_bool(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<Option<bool>> {
    opt_of_type(env, value, path, ValueType::Boolean, "a boolean")
}

/// An optional number (any number, `NaN` included; ranges are the caller's).
pub fn opt_number(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<Option<f64>> {
    opt_of_type(env, value, path, ValueType::Number, "a number")
}

/// A required number.
pub fn number(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<f64> {
    opt_number(env, value, path)?.ok_or_else(|| wrong(env, value.as_ref(), path, "a number"))
}

/// An optional port for adt-ls's MCP server (1024 to 65535, what adt-ls accepts).
pub fn opt_adt_ls_port(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<Option<u16>> {
    opt_number(env, value, path)?
        .map(|n| arg_error::adt_ls_port(path, n))
        .transpose()
}

/// An optional plain object (not an array or a function).
pub fn opt_object<'e>(
    env: &Env,
    value: Option<Unknown<'e>>,
    path: &str,
) -> EngineResult<Option<Object<'e>>> {
    let Some(v) = given(value) else {
        return Ok(None);
    };
    if !is(&v, ValueType::Object) || is_array(&v) {
        return Err(wrong(env, Some(&v), path, "an object"));
    }
    v.coerce_to_object()
        .map(Some)
        .map_err(|_| wrong(env, Some(&v), path, "an object"))
}

/// A required plain object.
pub fn object<'e>(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Object<'e>> {
    opt_object(env, value, path)?.ok_or_else(|| wrong(env, value.as_ref(), path, "an object"))
}

fn is_array(v: &Unknown) -> bool {
    v.is_array().unwrap_or(false)
}

/// An optional array of strings; a bad element is named `path[i]`.
pub fn opt_strings(
    env: &Env,
    value: Option<Unknown>,
    path: &str,
) -> EngineResult<Option<Vec<String>>> {
    let Some(v) = given(value) else {
        return Ok(None);
    };
    if !is_array(&v) {
        return Err(wrong(env, Some(&v), path, "an array of strings"));
    }
    let array = v
        .coerce_to_object()
        .map_err(|_| wrong(env, Some(&v), path, "an array of strings"))?;
    let len = array.get_array_length().unwrap_or(0);
    // Grown as elements are read, not sized by `length`: a sparse `[]` whose `length` is
    // 2**32 - 1 would ask for 100 GB up front (the first hole fails the loop at once).
    let mut out = Vec::new();
    for i in 0..len {
        let item = array.get_element::<Unknown>(i).ok();
        out.push(string(env, item, &format!("{path}[{i}]"))?);
    }
    Ok(Some(out))
}

/// An optional `Record<string, string>`; a bad value is named `path.<key>`.
pub fn opt_string_map(
    env: &Env,
    value: Option<Unknown>,
    path: &str,
) -> EngineResult<Option<Vec<(String, String)>>> {
    let Some(obj) = opt_object(env, value, path)? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for key in keys(&obj) {
        let item = property(&obj, &key);
        out.push((key.clone(), string(env, item, &format!("{path}.{key}"))?));
    }
    Ok(Some(out))
}

/// An optional function.
pub fn opt_function<'e>(
    env: &Env,
    value: Option<Unknown<'e>>,
    path: &str,
) -> EngineResult<Option<Function<'e, Unknown<'e>, Unknown<'e>>>> {
    // The `Function` keeps the argument's lifetime `'e`.
    opt_of_type(env, value, path, ValueType::Function, "a function")
}

/// A required function.
pub fn function<'e>(
    env: &Env,
    value: Option<Unknown<'e>>,
    path: &str,
) -> EngineResult<Function<'e, Unknown<'e>, Unknown<'e>>> {
    opt_function(env, value, path)?.ok_or_else(|| wrong(env, value.as_ref(), path, "a function"))
}

/// An optional string or Buffer/Uint8Array, as bytes.
pub fn opt_bytes(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<Option<Vec<u8>>> {
    let Some(v) = given(value) else {
        return Ok(None);
    };
    if is(&v, ValueType::String) {
        return opt_string(env, Some(v), path).map(|s| s.map(String::into_bytes));
    }
    let expected = "a string, Buffer or Uint8Array";
    if v.is_buffer().unwrap_or(false) || v.is_typedarray().unwrap_or(false) {
        // SAFETY: `env` is the env of the current call on the JS thread and `v` a buffer or typed
        // array (checked above) of its scope; napi-rs checks the kind again, and the bytes are
        // copied out.
        if let Ok(b) = unsafe { Uint8Array::from_napi_value(env.raw(), v.raw()) } {
            return Ok(Some(b.to_vec()));
        }
        // SAFETY: `env` is the env of the current call on the JS thread and `v` a buffer or typed
        // array (checked above) of its scope; napi-rs checks the kind again, and the bytes are
        // copied out.
        if let Ok(b) = unsafe { Buffer::from_napi_value(env.raw(), v.raw()) } {
            return Ok(Some(b.to_vec()));
        }
    }
    Err(wrong(env, Some(&v), path, expected))
}

/// Any JSON-able value (what `JSON.stringify` makes of it); a BigInt or a cycle is a type error.
pub fn opt_json(env: &Env, value: Option<Unknown>, path: &str) -> EngineResult<Option<Value>> {
    let Some(v) = value else {
        return Ok(None);
    };
    json::from_js(env, v).map_err(|_| wrong(env, Some(&v), path, "a JSON-serialisable value"))
}

/// Same as [`opt_json`], as the JSON text (not parsed), for callers that parse it straight
/// into their own types.
pub fn opt_json_text(
    env: &Env,
    value: Option<Unknown>,
    path: &str,
) -> EngineResult<Option<String>> {
    let Some(v) = value else {
        return Ok(None);
    };
    json::stringify(env, v).map_err(|_| wrong(env, Some(&v), path, "a JSON-serialisable value"))
}

/// `obj[key]` (absent when reading throws, e.g. a getter that throws).
pub fn property<'e>(obj: &Object<'e>, key: &str) -> Option<Unknown<'e>> {
    obj.get::<Unknown>(key).ok().flatten()
}

/// The own enumerable string keys of `obj`.
pub fn keys(obj: &Object) -> Vec<String> {
    Object::keys(obj).unwrap_or_default()
}

/// Log a warning for every key of `obj` that `known` lacks (see [`crate::options::keys`]).
pub fn warn_unknown_keys(obj: &Object, path: &str, known: &[&str]) {
    let given = keys(obj);
    crate::options::keys::warn_unknown_keys(path, given.iter().map(String::as_str), known);
}
