//! Timeout arguments from JS: `undefined`/`null` mean "not given" (the default applies); a
//! number must pass [`crate::options::values::timeout_ms`]; anything else is
//! `ERR_INVALID_ARG_TYPE`. Read from the JS value itself, not through JSON, where `NaN` and
//! `Infinity` would silently become `null`.

use crate::kernel::error::Error as EngineError;
use crate::options::values::{timeout_ms, timeout_type_error};
use napi::bindgen_prelude::*;
use std::time::Duration;

/// The timeout `name` from a JS value, if one was given.
pub fn timeout_arg(
    env: &Env,
    value: Option<Unknown>,
    name: &str,
) -> std::result::Result<Option<Duration>, EngineError> {
    let Some(value) = value else { return Ok(None) };
    let kind = value.get_type().unwrap_or(ValueType::Unknown);
    match kind {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::Number => {
            // SAFETY: `env` is the env of the current call on the JS thread and `value` a number
            // (checked above) of its scope.
            let ms = unsafe { f64::from_napi_value(env.raw(), value.raw()) }
                .map_err(|_| timeout_type_error(name, "an unreadable number"))?;
            timeout_ms(name, ms).map(Some)
        }
        other => Err(timeout_type_error(
            name,
            &format!("type {}", type_name(other)),
        )),
    }
}

/// The timeout property `key` of a JS options object, named `name` in errors.
pub fn timeout_prop(
    env: &Env,
    obj: &Object,
    key: &str,
    name: &str,
) -> std::result::Result<Option<Duration>, EngineError> {
    let value = obj
        .get::<Unknown>(key)
        .map_err(|_| timeout_type_error(name, "an unreadable value"))?;
    timeout_arg(env, value, name)
}

fn type_name(t: ValueType) -> &'static str {
    match t {
        ValueType::Boolean => "boolean",
        ValueType::String => "string",
        ValueType::Symbol => "symbol",
        ValueType::Object => "object",
        ValueType::Function => "function",
        ValueType::BigInt => "bigint",
        ValueType::External => "external",
        _ => "unknown",
    }
}
