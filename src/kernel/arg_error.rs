//! Argument and option errors in Node's style: `<path> must be <expected>, received <what>`
//! with Node's codes (`ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE`, `ERR_OUT_OF_RANGE`).
//! [`Received`] describes what the caller gave (`number (123)`, `string ('x')`, `undefined`,
//! `an instance of Array`); a secret's value is never shown, only its type. Shared by the
//! N-API layer (from JS values) and the client methods (from JSON arguments).

use crate::kernel::error::{codes, Error};
use serde_json::Value;

/// A number as JavaScript would print it (enough for messages).
pub(crate) fn show_number(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else if v.fract() == 0.0 && v.abs() < 1e21 {
        format!("{}", v as i128)
    } else {
        format!("{v:?}")
    }
}

/// What a caller passed, as much as a message shows of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Received {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    BigInt,
    Symbol,
    Function(String),
    /// An object: its constructor's name (`Object`, `Array`, `Buffer`, ...).
    Instance(String),
}

/// The longest string value a message quotes before cutting it short.
const MAX_SHOWN: usize = 40;

impl Received {
    /// The description of a JSON value (an argument that already crossed as JSON).
    pub(crate) fn of_json(value: Option<&Value>) -> Self {
        match value {
            None => Received::Undefined,
            Some(Value::Null) => Received::Null,
            Some(Value::Bool(b)) => Received::Bool(*b),
            Some(Value::Number(n)) => Received::Number(n.as_f64().unwrap_or(f64::NAN)),
            Some(Value::String(s)) => Received::Str(s.clone()),
            Some(Value::Array(_)) => Received::Instance("Array".into()),
            Some(Value::Object(_)) => Received::Instance("Object".into()),
        }
    }

    /// `number (123)`, `string ('CLAS/OC')`, `undefined`, `an instance of Array`, ...
    pub(crate) fn describe(&self) -> String {
        match self {
            Received::Str(s) => {
                let redacted = crate::kernel::redact::redact(s);
                let shown: String = redacted.chars().take(MAX_SHOWN).collect();
                let more = if redacted.chars().count() > MAX_SHOWN {
                    "..."
                } else {
                    ""
                };
                format!("type string ('{shown}{more}')")
            }
            Received::Number(n) => format!("type number ({})", show_number(*n)),
            Received::Bool(b) => format!("type boolean ({b})"),
            other => other.kind(),
        }
    }

    /// The type alone, for values that must not be shown (passwords, tokens).
    pub(crate) fn kind(&self) -> String {
        match self {
            Received::Undefined => "undefined".into(),
            Received::Null => "null".into(),
            Received::Bool(_) => "type boolean".into(),
            Received::Number(_) => "type number".into(),
            Received::Str(_) => "type string".into(),
            Received::BigInt => "type bigint".into(),
            Received::Symbol => "type symbol".into(),
            Received::Function(name) if name.is_empty() => "function".into(),
            Received::Function(name) => format!("function {name}"),
            Received::Instance(name) => format!("an instance of {name}"),
        }
    }

    #[cfg(test)]
    /// True for `undefined` and `null` (what `??` treats as "not given").
    pub(crate) fn is_nullish(&self) -> bool {
        matches!(self, Received::Undefined | Received::Null)
    }
}

/// An argument error with `code`: `<path> must be <expected>, received <received>`.
fn arg_error(code: &str, path: &str, expected: &str, received: &str) -> Error {
    Error::coded(
        code,
        format!("{path} must be {expected}, received {received}"),
    )
}

/// `ERR_INVALID_ARG_TYPE`: `path` must be `expected` (`a string`, `an object`, ...).
pub(crate) fn type_error(path: &str, expected: &str, got: &Received) -> Error {
    arg_error(codes::INVALID_ARG_TYPE, path, expected, &got.describe())
}

/// As [`type_error`] for a secret: only the type of what was given is shown.
pub(crate) fn secret_type_error(path: &str, expected: &str, got: &Received) -> Error {
    arg_error(codes::INVALID_ARG_TYPE, path, expected, &got.kind())
}

/// `ERR_INVALID_ARG_VALUE`: the right type with a value that is not accepted.
pub(crate) fn value_error(path: &str, expected: &str, got: &Received) -> Error {
    arg_error(codes::INVALID_ARG_VALUE, path, expected, &got.describe())
}

/// `ERR_OUT_OF_RANGE`: a number outside `expected`.
pub(crate) fn range_error(path: &str, expected: &str, got: &Received) -> Error {
    arg_error(codes::OUT_OF_RANGE, path, expected, &got.describe())
}

/// True for the codes of argument errors (they become `TypeError`/`RangeError` in JS).
pub(crate) fn is_argument_code(code: &str) -> bool {
    matches!(
        code,
        codes::INVALID_ARG | codes::INVALID_ARG_TYPE | codes::INVALID_ARG_VALUE
    )
}

/// A port number: an integer from 1 to 65535.
pub(crate) fn port(path: &str, n: f64) -> Result<u16, Error> {
    port_from(path, n, 1)
}

/// A port number from `min` to 65535 (`0` where the peer decides what it means, as adt-ls's
/// `startMCPServer` does with its own range message).
pub(crate) fn port_from(path: &str, n: f64, min: u16) -> Result<u16, Error> {
    if n.fract() == 0.0 && (f64::from(min)..=65535.0).contains(&n) {
        return Ok(n as u16);
    }
    Err(range_error(
        path,
        &format!("an integer from {min} to 65535"),
        &Received::Number(n),
    ))
}

/// The ports adt-ls's MCP server accepts, and its own words for the range.
const ADT_LS_PORTS: std::ops::RangeInclusive<u16> = 1024..=65535;
const ADT_LS_PORT_TEXT: &str = "Port must be between 1024 and 65535";

/// A port for adt-ls's MCP server: an integer from 1024 to 65535, the range adt-ls accepts;
/// the message keeps adt-ls's fragment `Port must be between 1024 and 65535`.
pub(crate) fn adt_ls_port(path: &str, n: f64) -> Result<u16, Error> {
    let (lo, hi) = (*ADT_LS_PORTS.start(), *ADT_LS_PORTS.end());
    if n.fract() == 0.0 && (f64::from(lo)..=f64::from(hi)).contains(&n) {
        return Ok(n as u16);
    }
    Err(range_error(
        path,
        &format!("an integer from {lo} to {hi} (adt-ls: {ADT_LS_PORT_TEXT})"),
        &Received::Number(n),
    ))
}

/// A count: an integer from `min` to 2^31-1.
pub(crate) fn count(path: &str, n: f64, min: f64) -> Result<u32, Error> {
    if n.fract() == 0.0 && n >= min && n <= 2_147_483_647.0 {
        return Ok(n as u32);
    }
    Err(range_error(
        path,
        &format!("an integer >= {}", show_number(min)),
        &Received::Number(n),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_name_the_path_the_expectation_and_what_was_given() {
        let e = type_error("adtLs.path", "a string", &Received::Number(123.0));
        assert_eq!(
            e.message,
            "adtLs.path must be a string, received type number (123)"
        );
        assert!(e.has_code(codes::INVALID_ARG_TYPE));
        let e = type_error(
            "opts.types",
            "an array of strings",
            &Received::of_json(Some(&json!("CLAS/OC"))),
        );
        assert_eq!(
            e.message,
            "opts.types must be an array of strings, received type string ('CLAS/OC')"
        );
        let e = type_error("x", "a string", &Received::of_json(None));
        assert!(e.message.ends_with("received undefined"));
        let e = type_error("x", "a string", &Received::of_json(Some(&json!([1]))));
        assert!(e.message.ends_with("received an instance of Array"));
    }

    #[test]
    fn secrets_show_only_their_type_and_long_strings_are_cut() {
        let e = secret_type_error("password", "a string", &Received::Number(4711.0));
        assert_eq!(e.message, "password must be a string, received type number");
        let long = "x".repeat(100);
        let e = value_error("p", "short", &Received::Str(long));
        assert!(e.message.ends_with(&format!("('{}...')", "x".repeat(40))));
        assert!(e.has_code(codes::INVALID_ARG_VALUE));
    }

    #[test]
    fn ports_and_counts_are_integers_in_range() {
        assert_eq!(port("mcpPort", 2240.0).unwrap(), 2240);
        for bad in [0.0, 65536.0, 1.5, f64::NAN, -1.0] {
            let e = port("mcpPort", bad).unwrap_err();
            assert!(e.has_code(codes::OUT_OF_RANGE), "{bad}");
            assert!(e
                .message
                .starts_with("mcpPort must be an integer from 1 to 65535"));
        }
        for ok in [1024.0, 2240.0, 65535.0] {
            assert_eq!(f64::from(adt_ls_port("mcpPort", ok).unwrap()), ok);
        }
        for bad in [0.0, 80.0, 1023.0, 65536.0, 2240.5, f64::NAN] {
            let e = adt_ls_port("mcpPort", bad).unwrap_err();
            assert!(e.has_code(codes::OUT_OF_RANGE), "{bad}");
            assert!(e.message.starts_with(
                "mcpPort must be an integer from 1024 to 65535 (adt-ls: Port must be between 1024 and 65535), received"
            ));
        }
        assert_eq!(port_from("opts.port", 0.0, 0).unwrap(), 0);
        assert!(port_from("opts.port", 65536.0, 0).is_err());
        assert_eq!(count("attempts", 3.0, 1.0).unwrap(), 3);
        assert!(count("attempts", 0.0, 1.0).is_err());
    }
}
