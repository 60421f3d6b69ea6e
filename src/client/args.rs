//! Reading a JS call's arguments (already JSON) into what a method needs, with the errors a
//! caller should see for a wrong type. `None` stands for `undefined`.

use crate::error::{codes, Error, Result};
use serde_json::{Map, Value};

pub type Args = Vec<Option<Value>>;

/// Argument `i` (None when absent or undefined).
pub fn arg(args: &Args, i: usize) -> Option<&Value> {
    args.get(i).and_then(Option::as_ref)
}

/// A required string argument.
pub fn string(args: &Args, i: usize, name: &str) -> Result<String> {
    match arg(args, i) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(invalid(format!("{name} must be a string"))),
    }
}

/// An optional object argument (absent or null -> empty object).
pub fn object(args: &Args, i: usize, name: &str) -> Result<Map<String, Value>> {
    match arg(args, i) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(_) => Err(invalid(format!("{name} must be an object"))),
    }
}

pub fn invalid(message: String) -> Error {
    Error::coded(codes::INVALID_ARG, message)
}
