//! JavaScript truthiness of a JSON value, for the flags adt-ls and callers send as any JSON
//! (`sensitive`, `coverageParams`, an `opts` member): what `if (value)` would decide in JS.

use serde_json::Value;

/// `false` for `null`, `false`, `0`, `NaN` and `""`; `true` for everything else.
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::truthy;
    use serde_json::json;

    #[test]
    fn decides_as_javascript_does() {
        for falsy in [json!(null), json!(false), json!(0), json!(0.0), json!("")] {
            assert!(!truthy(&falsy), "{falsy} is falsy");
        }
        for truthy_value in [
            json!(true),
            json!(1),
            json!(-0.5),
            json!("false"),
            json!([]),
            json!({}),
        ] {
            assert!(truthy(&truthy_value), "{truthy_value} is truthy");
        }
    }
}
