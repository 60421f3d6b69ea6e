//! Reading a JS call's arguments (already JSON) into what a method needs, with the errors a
//! caller should see for a wrong type (Node's style, [`crate::kernel::arg_error`]: `pattern must be a
//! string, received type number (42)`, `ERR_INVALID_ARG_TYPE`). `None` stands for `undefined`.

use crate::kernel::arg_error::{type_error, Received};
use crate::kernel::error::{codes, Error, Result};
use serde_json::{Map, Value};

pub(crate) type Args = Vec<Option<Value>>;

/// Argument `i` (None when absent or undefined).
pub(super) fn arg(args: &Args, i: usize) -> Option<&Value> {
    args.get(i).and_then(Option::as_ref)
}

/// A required string argument.
pub(super) fn string(args: &Args, i: usize, name: &str) -> Result<String> {
    match arg(args, i) {
        Some(Value::String(s)) => Ok(s.clone()),
        other => Err(type_error(name, "a string", &Received::of_json(other))),
    }
}

/// An optional string argument (absent or null -> `None`).
pub(super) fn opt_string(args: &Args, i: usize, name: &str) -> Result<Option<String>> {
    match arg(args, i) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        other => Err(type_error(name, "a string", &Received::of_json(other))),
    }
}

/// An optional object argument (absent or null -> empty object).
pub(super) fn object(args: &Args, i: usize, name: &str) -> Result<Map<String, Value>> {
    match arg(args, i) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        other => Err(type_error(name, "an object", &Received::of_json(other))),
    }
}

/// The options object of client method `method` (argument `i`; as [`object`], named `opts`):
/// a key its declared `opts` type in the registry lacks is logged as a warning with the
/// closest known one.
pub(super) fn method_options(args: &Args, i: usize, method: &str) -> Result<Map<String, Value>> {
    let map = object(args, i, "opts")?;
    let known = super::registry::specs::option_keys(method);
    crate::options::keys::warn_unknown_keys("opts", map.keys().map(String::as_str), known);
    Ok(map)
}

/// A required object argument (absent, null or another type: a type error).
pub(super) fn required_object(args: &Args, i: usize, name: &str) -> Result<Map<String, Value>> {
    match arg(args, i) {
        Some(Value::Object(m)) => Ok(m.clone()),
        other => Err(type_error(name, "an object", &Received::of_json(other))),
    }
}

/// `ERR_INVALID_ARG`: an argument the method cannot use (the message says why).
pub(super) fn invalid(message: String) -> Error {
    Error::coded(codes::INVALID_ARG, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wrong_types_name_the_argument_and_what_was_given() {
        let a: Args = vec![Some(json!(42)), Some(json!("x")), None];
        let e = string(&a, 0, "pattern").unwrap_err();
        assert!(e.has_code(codes::INVALID_ARG_TYPE));
        assert_eq!(
            e.message,
            "pattern must be a string, received type number (42)"
        );
        let e = object(&a, 1, "opts").unwrap_err();
        assert_eq!(
            e.message,
            "opts must be an object, received type string ('x')"
        );
        assert!(object(&a, 2, "opts").unwrap().is_empty());
        let e = required_object(&a, 2, "ref").unwrap_err();
        assert_eq!(e.message, "ref must be an object, received undefined");
        assert_eq!(opt_string(&a, 2, "x").unwrap(), None);
        assert!(opt_string(&a, 0, "x").is_err());
    }
}
