//! `adtLs/activation/activate`'s answer as an `ActivateResult` (docs/wire.md#lifecycle): the phase
//! flags passed through under the reference's names, `refreshFileUris` as `refreshedUris`,
//! and `success` = activation executed and no error-severity diagnostic.

use crate::kernel::truthy::truthy;
use regex::Regex;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// Response field -> result field, copied when present.
const FLAGS: [(&str, &str); 5] = [
    ("isCheckExecuted", "checkExecuted"),
    ("isActivationExecuted", "activationExecuted"),
    ("isGenerationExecuted", "generationExecuted"),
    ("isForceSupported", "forceSupported"),
    ("refreshFileUris", "refreshedUris"),
];

/// Map the native response to the reference's `ActivateResult`.
pub(super) fn activate_result(res: &Value) -> Value {
    let diagnostics = res
        .get("objectDiagnostics")
        .filter(|d| !d.is_null())
        .cloned()
        .unwrap_or_else(|| json!([]));
    let executed = res.get("isActivationExecuted").is_some_and(truthy);
    let mut out = Map::new();
    out.insert(
        "success".into(),
        Value::Bool(executed && !has_error_diagnostics(&diagnostics)),
    );
    out.insert("diagnostics".into(), diagnostics);
    for (from, to) in FLAGS {
        if let Some(v) = res.get(from) {
            out.insert(to.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// An entry with a `diagnostic` array is an error if one of them is; otherwise the entry
/// itself is checked.
fn has_error_diagnostics(diagnostics: &Value) -> bool {
    let Some(entries) = diagnostics.as_array() else {
        return false;
    };
    entries.iter().any(|entry| match entry.get("diagnostic") {
        Some(Value::Array(inner)) => inner.iter().any(is_error_diagnostic),
        _ => is_error_diagnostic(entry),
    })
}

/// Severity 1, `'E'` or `'error'`, or a string `type` mentioning error/abend.
fn is_error_diagnostic(d: &Value) -> bool {
    let Some(d) = d.as_object() else {
        return false;
    };
    let severity = d.get("severity");
    if severity.and_then(Value::as_f64) == Some(1.0)
        || matches!(severity.and_then(Value::as_str), Some("E" | "error"))
    {
        return true;
    }
    d.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| error_type().is_some_and(|re| re.is_match(t)))
}

fn error_type() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new("(?i)error|abend").ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_activation_maps_every_flag() {
        let out = activate_result(&json!({
            "isCheckExecuted": true, "isActivationExecuted": true, "isGenerationExecuted": true,
            "isForceSupported": false, "refreshFileUris": ["abap:/x"], "objectDiagnostics": []
        }));
        assert_eq!(
            out,
            json!({"success": true, "diagnostics": [], "checkExecuted": true,
                "activationExecuted": true, "generationExecuted": true, "forceSupported": false,
                "refreshedUris": ["abap:/x"]})
        );
    }

    #[test]
    fn nested_error_severity_fails_an_executed_activation() {
        let out = activate_result(&json!({"isActivationExecuted": true, "objectDiagnostics": [
            {"fileUri": "abap:/x", "diagnostic": [{"severity": 1, "message": "Field unknown."}]}
        ]}));
        assert_eq!(out["success"], json!(false));
        assert_eq!(out["diagnostics"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn error_shapes() {
        for d in [
            json!({"severity": "E"}),
            json!({"severity": "error"}),
            json!({"type": "ABEND"}),
            json!({"diagnostic": [{"severity": 2}, {"type": "Error"}]}),
        ] {
            assert!(has_error_diagnostics(&json!([d])), "{d}");
        }
        for d in [
            json!({"severity": 2}),
            json!({"type": "warning"}),
            json!({"diagnostic": []}),
            json!("x"),
        ] {
            assert!(!has_error_diagnostics(&json!([d])), "{d}");
        }
    }

    #[test]
    fn not_executed_is_no_success() {
        let out = activate_result(&json!({"isActivationExecuted": false}));
        assert_eq!(
            out,
            json!({"success": false, "diagnostics": [], "activationExecuted": false})
        );
        assert_eq!(
            activate_result(&Value::Null),
            json!({"success": false, "diagnostics": []})
        );
    }
}
