//! Parameter encoding exactly as vscode-jsonrpc 8.2.1's "auto" parameter structure emits it
//! for a single argument (decisions D2): a plain object is sent as-is, anything else (a
//! string, a number, an array, `null`, or an absent argument) is wrapped in a one-element
//! array. So `ensureLoggedOn("A4H")` is `"params":["A4H"]` and a request without params is
//! `"params":[null]`.

use serde_json::Value;

/// The `params` member for a request or notification sent with one (possibly absent) argument.
pub fn encode_params(param: Option<Value>) -> Value {
    match param {
        Some(Value::Object(map)) => Value::Object(map),
        Some(other) => Value::Array(vec![other]),
        None => Value::Array(vec![Value::Null]),
    }
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
    fn scalars_arrays_and_null_are_wrapped() {
        assert_eq!(encode_params(Some(json!("A4H"))), json!(["A4H"]));
        assert_eq!(encode_params(Some(json!(5))), json!([5]));
        assert_eq!(encode_params(Some(json!([1, 2]))), json!([[1, 2]]));
        assert_eq!(encode_params(Some(Value::Null)), json!([null]));
        assert_eq!(encode_params(None), json!([null]));
    }
}
