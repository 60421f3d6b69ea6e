//! Unwrapping an MCP `CallToolResult` from one of adt-ls's federated tools into
//! `{ok, data, text}` (docs/wire.md#federated-results): `text` is `content[0].text` (or `''`),
//! `ok` is `!isError` with JS truthiness, and `data` prefers the parsed text (the complete
//! payload) over `structuredContent` (a possibly lossy projection), then the raw text.
//!
//! JS differences, all outside what an MCP server may send: a non-string `text` counts as
//! absent; text that JS's `JSON.parse` accepts but serde_json rejects (a number beyond f64
//! such as `1e400`, nesting deeper than 128, an unpaired `\ud800` escape) falls through to
//! `structuredContent` or the text.

use crate::kernel::truthy::truthy;
use serde::Serialize;
use serde_json::Value;

/// The result of [`parse_federated`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct FederatedParsed {
    pub ok: bool,
    pub data: Value,
    pub text: String,
}

/// Unwraps a federated tool result; see the module comment. Any JSON value is accepted
/// (non-objects behave like a result without fields, as `res?.x` does in JS).
pub(crate) fn parse_federated(res: &Value) -> FederatedParsed {
    let text = first_text(res).unwrap_or_default().to_string();
    let ok = !res.get("isError").is_some_and(truthy);
    if !text.is_empty() {
        if let Ok(data) = serde_json::from_str::<Value>(&text) {
            return FederatedParsed { ok, data, text };
        }
    }
    // A JSON `null` is "not undefined", so it is returned as the data.
    let data = match res.get("structuredContent") {
        Some(structured) => structured.clone(),
        None => Value::String(text.clone()),
    };
    FederatedParsed { ok, data, text }
}

/// `res?.content?.[0]?.text` when it is a string. Like JS indexing, `[0]` also reads the
/// key `"0"` of an object.
fn first_text(res: &Value) -> Option<&str> {
    let content = res.get("content")?;
    let first = match content {
        Value::Array(items) => items.first(),
        Value::Object(map) => map.get("0"),
        _ => None,
    }?;
    first.get("text")?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // federated.test.ts: parsed text is preferred over lossy structuredContent.
    #[test]
    fn parsed_text_beats_structured_content() {
        let res = json!({
            "content": [{"type": "text", "text": "{\"services\":[{\"name\":\"S\",\"odataVersion\":\"V4\"}]}"}],
            "structuredContent": {"services": [{"name": "S"}]}
        });
        let parsed = parse_federated(&res);
        assert!(parsed.ok);
        assert_eq!(
            parsed.data,
            json!({"services": [{"name": "S", "odataVersion": "V4"}]})
        );
        assert_eq!(
            parsed.text,
            "{\"services\":[{\"name\":\"S\",\"odataVersion\":\"V4\"}]}"
        );
    }

    // federated.test.ts: non-JSON text falls back to structuredContent.
    #[test]
    fn non_json_text_falls_back_to_structured_content() {
        let res = json!({"content": [{"text": "not json"}], "structuredContent": {"a": 1}});
        let parsed = parse_federated(&res);
        assert_eq!(parsed.data, json!({"a": 1}));
        assert_eq!(parsed.text, "not json");
    }

    // federated.test.ts: plain text when there is nothing else.
    #[test]
    fn plain_text_when_nothing_else() {
        let parsed = parse_federated(&json!({"content": [{"text": "hello report"}]}));
        assert_eq!(
            parsed,
            FederatedParsed {
                ok: true,
                data: json!("hello report"),
                text: "hello report".into(),
            }
        );
    }

    // federated.test.ts: ok:false with isError, data still parsed.
    #[test]
    fn is_error_gives_not_ok_with_parsed_data() {
        let res = json!({"content": [{"text": "{\"error\":\"boom\"}"}], "isError": true});
        let parsed = parse_federated(&res);
        assert!(!parsed.ok);
        assert_eq!(parsed.data, json!({"error": "boom"}));
    }

    #[test]
    fn is_error_uses_js_truthiness() {
        for (value, ok) in [
            (json!(true), false),
            (json!(1), false),
            (json!("yes"), false),
            (json!({}), false),
            (json!([]), false),
            (json!(false), true),
            (json!(0), true),
            (json!(0.0), true),
            (json!(""), true),
            (json!(null), true),
        ] {
            let parsed = parse_federated(&json!({"isError": value.clone()}));
            assert_eq!(parsed.ok, ok, "{value}");
        }
    }

    #[test]
    fn missing_content_gives_empty_text() {
        for res in [
            json!({}),
            json!(null),
            json!("str"),
            json!(42),
            json!({"content": []}),
            json!({"content": [{}]}),
            json!({"content": [{"text": null}]}),
            json!({"content": [{"text": 5}]}),
            json!({"content": "abc"}),
        ] {
            let parsed = parse_federated(&res);
            assert_eq!(
                parsed,
                FederatedParsed {
                    ok: true,
                    data: json!(""),
                    text: String::new()
                },
                "{res}"
            );
        }
    }

    #[test]
    fn structured_null_counts_as_present() {
        let parsed =
            parse_federated(&json!({"content": [{"text": ""}], "structuredContent": null}));
        assert_eq!(parsed.data, Value::Null);
        let parsed = parse_federated(&json!({"structuredContent": false}));
        assert_eq!(parsed.data, json!(false));
    }

    #[test]
    fn json_scalars_in_text_are_parsed() {
        assert_eq!(
            parse_federated(&json!({"content": [{"text": " 42 "}]})).data,
            json!(42)
        );
        assert_eq!(
            parse_federated(&json!({"content": [{"text": "null"}], "structuredContent": 1})).data,
            Value::Null
        );
        assert_eq!(
            parse_federated(&json!({"content": [{"text": "\"s\""}]})).data,
            json!("s")
        );
    }

    #[test]
    fn object_content_is_indexed_like_js() {
        let parsed = parse_federated(&json!({"content": {"0": {"text": "[1]"}}}));
        assert_eq!(parsed.data, json!([1]));
    }

    #[test]
    fn only_the_first_content_item_counts() {
        let res = json!({"content": [{"type": "image"}, {"text": "{}"}]});
        assert_eq!(parse_federated(&res).text, "");
    }
}
