//! MCP tools: fully paginated `tools/list` with the reference's validation (opaque cursors,
//! `null` cursor rejected, repeated cursor guard, descriptors verbatim) and its one retry
//! after a session re-initialisation (docs/decisions.md#d5-1), and `tools/call` parameters.

use super::errors;
use super::session::{CallError, Session};
use crate::kernel::error::Result;
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use std::sync::Arc;

const LIST: &str = "tools/list";

/// Every tool descriptor, all pages. A read-only listing, so it is run once more when the
/// server dropped the session mid-way (the re-initialisation has already happened).
pub(super) async fn list_tools(session: &Arc<Session>) -> Result<Vec<Value>> {
    match list_all_pages(session).await {
        Err(CallError::SessionExpired(_)) => {
            list_all_pages(session).await.map_err(CallError::into_error)
        }
        other => other.map_err(CallError::into_error),
    }
}

async fn list_all_pages(session: &Arc<Session>) -> std::result::Result<Vec<Value>, CallError> {
    session.connect().await?;
    let mut tools = Vec::new();
    let mut seen_cursors = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let mut page = session.call(LIST, params.as_ref(), session.timeout).await?;
        tools.extend(take_tools(&mut page)?);
        match page.get("nextCursor") {
            None => return Ok(tools),
            Some(Value::String(next)) => {
                if !seen_cursors.insert(next.clone()) {
                    return Err(errors::invalid(LIST, "repeated pagination cursor").into());
                }
                cursor = Some(next.clone());
            }
            Some(_) => return Err(errors::invalid(LIST, "invalid nextCursor").into()),
        }
    }
}

/// `result.tools`: an array of objects, each with a string `name`.
fn take_tools(page: &mut Value) -> Result<Vec<Value>> {
    let valid = |tool: &Value| tool.get("name").is_some_and(Value::is_string);
    match page.get_mut("tools").map(Value::take) {
        Some(Value::Array(tools)) if tools.iter().all(valid) => Ok(tools),
        _ => Err(errors::invalid(LIST, "missing or invalid tools")),
    }
}

/// `tools/call` params: `{name, arguments}`; absent arguments are sent as `{}`.
pub(super) fn call_params(name: &str, arguments: Value) -> Value {
    let arguments = match arguments {
        Value::Null => Value::Object(Map::new()),
        other => other,
    };
    json!({ "name": name, "arguments": arguments })
}
