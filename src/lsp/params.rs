//! Parameter encoding exactly as vscode-jsonrpc 8.2.1's "auto" parameter structure emits it
//! for a single argument (docs/decisions.md#d2): a plain object is sent as-is, anything else (a
//! string, a number, an array, `null`, or an absent argument) is wrapped in a one-element
//! array. So `ensureLoggedOn("A4H")` is `"params":["A4H"]` and a request without params is
//! `"params":[null]`.

use super::message::RawJson;
use serde_json::value::RawValue;
use serde_json::Value;

/// The `params` member for a request or notification sent with one (possibly absent) argument.
pub(crate) fn encode_params(param: Option<Value>) -> Value {
    match param {
        Some(Value::Object(map)) => Value::Object(map),
        Some(other) => Value::Array(vec![other]),
        None => Value::Array(vec![Value::Null]),
    }
}

/// The same rule for params that are already JSON text: an object passes through, anything
/// else is wrapped, an absent one is `[null]`.
pub(crate) fn encode_raw_params(param: Option<&RawValue>) -> RawJson {
    let text = match param {
        None => "[null]".to_string(),
        Some(raw) if raw.get().trim_start().starts_with('{') => return raw.to_owned(),
        Some(raw) => format!("[{}]", raw.get()),
    };
    RawValue::from_string(text).unwrap_or_else(|_| super::message::null_raw())
}

/// [`encode_params`] as JSON text.
pub(crate) fn encode_params_raw(param: Option<Value>) -> RawJson {
    serde_json::value::to_raw_value(&encode_params(param))
        .unwrap_or_else(|_| super::message::null_raw())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_pass_through() {
        assert_eq!(encode_params(Some(json!({"a": 1}))), json!({"a": 1}));
    }

    #[test]
    fn raw_params_follow_the_same_rule() {
        let raw = |t: &str| RawValue::from_string(t.to_string()).unwrap();
        assert_eq!(
            encode_raw_params(Some(&raw(r#" {"a":1}"#))).get(),
            r#"{"a":1}"#
        );
        assert_eq!(
            encode_raw_params(Some(&raw(r#""A4H""#))).get(),
            r#"["A4H"]"#
        );
        assert_eq!(encode_raw_params(Some(&raw("[1,2]"))).get(), "[[1,2]]");
        assert_eq!(encode_raw_params(Some(&raw("null"))).get(), "[null]");
        assert_eq!(encode_raw_params(None).get(), "[null]");
    }

    #[test]
    fn scalars_arrays_and_null_are_wrapped() {
        assert_eq!(encode_params(Some(json!("A4H"))), json!(["A4H"]));
        assert_eq!(encode_params(Some(json!(5))), json!([5]));
        assert_eq!(encode_params(Some(json!([1, 2]))), json!([[1, 2]]));
        assert_eq!(encode_params(Some(Value::Null)), json!([null]));
        assert_eq!(encode_params(None), json!([null]));
    }
}
