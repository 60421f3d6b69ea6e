//! Finding the reentrance `logonUrl` in a `requestBrowserBasedLogon` payload (docs/wire.md#destinations):
//! the structured field first, then any `http(s):` run containing `reentranceticket` in the
//! compact JSON text (what `/https?:[^"\\]*reentranceticket[^"\\]*/` matches).

use serde_json::Value;

const NEEDLE: &str = "reentranceticket";

/// The logon URL adt-ls asks the client to open, if there is one.
pub fn extract_logon_url(params: &Value) -> Option<String> {
    structured_logon_url(params).or_else(|| {
        let text = serde_json::to_string(params).ok()?;
        first_ticket_url(&text).map(str::to_string)
    })
}

/// The first `params[i].field.value` string whose `field.key` is `logonUrl`.
fn structured_logon_url(params: &Value) -> Option<String> {
    params
        .get("params")?
        .as_array()?
        .iter()
        .filter_map(|item| item.get("field"))
        .find(|field| {
            field.get("key").and_then(Value::as_str) == Some("logonUrl")
                && field.get("value").is_some_and(Value::is_string)
        })
        .and_then(|field| field.get("value")?.as_str().map(str::to_string))
}

/// The leftmost `http:`/`https:` run (ending before `"` or `\`) that contains the needle.
fn first_ticket_url(text: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(offset) = text[from..].find("http") {
        let start = from + offset;
        let after_http = start + "http".len();
        let rest = &text[after_http..];
        let scheme_end = if rest.starts_with(':') {
            Some(after_http + 1)
        } else if rest.starts_with("s:") {
            Some(after_http + 2)
        } else {
            None
        };
        if let Some(body_start) = scheme_end {
            let body_end = text[body_start..]
                .find(['"', '\\'])
                .map_or(text.len(), |i| body_start + i);
            if text[body_start..body_end].contains(NEEDLE) {
                return Some(&text[start..body_end]);
            }
        }
        from = after_http;
    }
    None
}
