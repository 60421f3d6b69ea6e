//! MCP-backed convenience calls: the tool call (activity + re-logon), the federated unwrap
//! (`parseFederated`), and docs/decisions.md#d5-12: an `isError` result rejects with code
//! `ADT_TOOL_ERROR`, a message `<what>: <tool text>` and the parsed payload as `data`.

use super::ns_args::copy;
use super::Client;
use crate::kernel::error::{codes, Error, Result};
use crate::mcp::federated::{parse_federated, FederatedParsed};
use serde_json::{Map, Value};

/// A destination-scoped tool's arguments: `destination`, then each of `keys` the caller gave
/// in `opts`, in that order.
pub(super) fn destination_args(
    dest: &str,
    opts: &Map<String, Value>,
    keys: &[&str],
) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("destination".into(), Value::from(dest));
    for key in keys {
        copy(&mut out, opts, key);
    }
    out
}

/// Call `tool` and unwrap its result (no `isError` check).
pub(super) async fn call(client: &Client, tool: &str, args: Value) -> Result<FederatedParsed> {
    let raw = client.active_tool(tool, args).await?;
    Ok(parse_federated(&raw))
}

/// Call `tool`; an `isError` result rejects with `<failed>: <text>` (e.g. `create_object
/// failed`). Returns the unwrapped data.
pub(super) async fn call_checked(
    client: &Client,
    tool: &str,
    args: impl Into<Value>,
    failed: &str,
) -> Result<Value> {
    let parsed = call(client, tool, args.into()).await?;
    check(parsed, failed).map_err(|e| e.with_detail("tool", tool))
}

/// The data of a successful result, or the D5.12 error.
pub(super) fn check(parsed: FederatedParsed, failed: &str) -> Result<Value> {
    if parsed.ok {
        return Ok(parsed.data);
    }
    Err(
        Error::coded(codes::TOOL_ERROR, format!("{failed}: {}", parsed.text))
            .with_data(parsed.data),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn is_error_becomes_a_coded_error_with_the_tool_text() {
        let parsed = parse_federated(&json!({
            "isError": true,
            "content": [{"type": "text", "text": "{\"message\":\"Object creation failed\"}"}]
        }));
        let err = check(parsed, "create_object failed").unwrap_err();
        assert_eq!(
            err.message,
            "create_object failed: {\"message\":\"Object creation failed\"}"
        );
        assert!(err.has_code(codes::TOOL_ERROR));
        assert_eq!(
            err.data.as_deref(),
            Some(&json!({"message": "Object creation failed"}))
        );
        let ok = parse_federated(&json!({"content": [{"type": "text", "text": "[1]"}]}));
        assert_eq!(check(ok, "x").unwrap(), json!([1]));
    }
}
