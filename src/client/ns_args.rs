//! Option readers shared by the namespace methods, with the JavaScript semantics the
//! reference relies on: `opts.x ?? default` (absent and `null` take the default), truthiness,
//! copying a caller's value through untouched, printing a number the way a JS template
//! literal does, and listing names the way the reference's "not found" messages do.

use crate::kernel::error::Result;
use crate::kernel::truthy::truthy;
use serde_json::{Map, Value};

/// `map[key]` unless it is absent or `null` (what `??` falls through on).
pub(super) fn given<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// `map[key] ?? default`, the caller's value passed through as it is.
pub(super) fn or(map: &Map<String, Value>, key: &str, default: Value) -> Value {
    given(map, key).cloned().unwrap_or(default)
}

/// `map[key]` when it is a string (anything else counts as not given).
pub(super) fn string<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

/// A number option (`None` when absent or null); any other type is a caller error.
pub(super) fn number(map: &Map<String, Value>, key: &str) -> Result<Option<f64>> {
    match given(map, key) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        other => Err(crate::kernel::arg_error::type_error(
            &format!("opts.{key}"),
            "a number",
            &crate::kernel::arg_error::Received::of_json(other),
        )),
    }
}

/// A timeout option (`None` when absent or null): a finite positive number of milliseconds a
/// timer can hold ([`crate::options::values::timeout_ms`], `ERR_OUT_OF_RANGE`), never "wait
/// for ever" or "no time at all".
pub(super) fn timeout_number(map: &Map<String, Value>, key: &str) -> Result<Option<f64>> {
    match number(map, key)? {
        None => Ok(None),
        Some(ms) => {
            crate::options::values::timeout_ms(&format!("opts.{key}"), ms).map(|_| Some(ms))
        }
    }
}

/// Copy `from[key]` into `to[key]` when the caller gave it (JSON drops `undefined`).
pub(super) fn copy(to: &mut Map<String, Value>, from: &Map<String, Value>, key: &str) {
    if let Some(v) = from.get(key) {
        to.insert(key.to_string(), v.clone());
    }
}

/// `to[key] = from[key] ?? ""` for each of `keys` (an optional string a tool wants present).
pub(super) fn or_empty(to: &mut Map<String, Value>, from: &Map<String, Value>, keys: &[&str]) {
    for key in keys {
        to.insert(key.to_string(), or(from, key, Value::String(String::new())));
    }
}

/// `Boolean(map[key])`.
pub(super) fn flag(map: &Map<String, Value>, key: &str) -> bool {
    map.get(key).is_some_and(truthy)
}

/// A number as a JS template literal prints it (`20000`, `0.5`).
pub(super) fn js_number_text(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// A computed number as JSON: an integer when it is one (as JS would serialise it).
pub(super) fn js_number(n: f64) -> Value {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 9.0e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// Names as the reference's "not found" messages list them: comma-separated, `(none)` when
/// there are none.
pub(super) fn listed(names: &[String]) -> String {
    match names {
        [] => "(none)".to_string(),
        _ => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn timeouts_are_finite_positive_and_timer_sized() {
        let m = map(json!({"a": 1500, "b": -1, "c": 0, "d": 1e308, "e": null}));
        assert_eq!(timeout_number(&m, "a").unwrap(), Some(1500.0));
        assert_eq!(timeout_number(&m, "e").unwrap(), None);
        assert_eq!(timeout_number(&m, "missing").unwrap(), None);
        for key in ["b", "c", "d"] {
            let e = timeout_number(&m, key).unwrap_err();
            assert!(
                e.has_code(crate::kernel::error::codes::OUT_OF_RANGE),
                "{key}"
            );
            assert!(e
                .message
                .starts_with(&format!("opts.{key} must be a finite number")));
        }
    }

    #[test]
    fn nullish_defaults() {
        let m = map(json!({"a": null, "b": 0, "c": "x"}));
        assert_eq!(or(&m, "a", json!(1)), json!(1));
        assert_eq!(or(&m, "b", json!(1)), json!(0));
        assert_eq!(or(&m, "z", json!("d")), json!("d"));
        assert_eq!(string(&m, "c"), Some("x"));
        assert_eq!(string(&m, "b"), None);
        assert_eq!(number(&m, "b").unwrap(), Some(0.0));
        assert!(number(&m, "c").is_err());
    }

    #[test]
    fn numbers() {
        assert_eq!(js_number_text(20000.0), "20000");
        assert_eq!(js_number_text(0.5), "0.5");
        assert_eq!(js_number(3.0), json!(3));
        assert_eq!(js_number(1.5), json!(1.5));
    }
}
