//! The nesting bound on what adt-ls's MCP server sends (docs/security.md, "Hostile peers:
//! nesting"): a JSON body or server-sent event nested deeper than
//! [`crate::bounds::json_depth::MAX_DEPTH`] is never parsed. What such a message still says about
//! itself (its id and method, read shallowly) decides what happens: our own response, or
//! anything that cannot be told apart from it (a batch), fails the call with
//! `ERR_JSON_TOO_DEEP`; a server request is refused with a JSON-RPC error reply; a
//! notification or another call's response is dropped with a warning.

use super::errors;
use crate::bounds::json_depth::{self, MAX_DEPTH};
use crate::kernel::error::Error;
use crate::kernel::log;
use serde_json::{json, Value};

/// JSON-RPC "Invalid Request".
const INVALID_REQUEST: i64 = -32600;

/// What to do with an event too deep to parse.
#[derive(Debug, PartialEq)]
pub(super) enum Deep {
    /// Fail the call with this error.
    Fail(Error),
    /// Post this reply to the server request, then read on.
    Refuse(Value),
    /// Read on.
    Skip,
}

/// The event `data` of the call `method` (our id `our_id`) nests too deeply: what now.
pub(super) fn deep_event(data: &[u8], method: &str, our_id: u64) -> Deep {
    let members = json_depth::shallow_members(data);
    let reason = format!("nested deeper than {MAX_DEPTH} levels");
    match (members.method, members.id) {
        (Some(asked), Some(id)) => {
            log::warn(format!(
                "adt-ls MCP {method}: the server request {asked} was refused with a JSON-RPC error: {reason}"
            ));
            Deep::Refuse(json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": { "code": INVALID_REQUEST, "message": format!("Request {asked} was refused: {reason}") },
            }))
        }
        (Some(note), None) => {
            log::warn(format!(
                "adt-ls MCP {method}: the notification {note} was dropped: {reason}"
            ));
            Deep::Skip
        }
        (None, Some(id)) if id.as_u64() != Some(our_id) => {
            log::warn(format!(
                "adt-ls MCP {method}: a response to another request ({id}) was dropped: {reason}"
            ));
            Deep::Skip
        }
        _ => Deep::Fail(errors::too_deep(method, "a server-sent event")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::error::codes;

    fn deep(members: &str) -> Vec<u8> {
        let nested = format!("{}{}", "[".repeat(500), "]".repeat(500));
        format!(r#"{{{members}"params":{nested}}}"#).into_bytes()
    }

    #[test]
    fn each_kind_of_deep_event_gets_its_outcome() {
        match deep_event(&deep(r#""id":7,"#), "tools/call", 7) {
            Deep::Fail(e) => {
                assert!(e.has_code(codes::JSON_TOO_DEEP));
                assert_eq!(
                    e.message,
                    "adt-ls MCP tools/call: a server-sent event is nested deeper than 100 levels; it was refused"
                );
            }
            other => panic!("{other:?}"),
        }
        match deep_event(&deep(r#""id":"s1","method":"ping","#), "tools/call", 7) {
            Deep::Refuse(reply) => {
                assert_eq!(reply["id"], json!("s1"));
                assert_eq!(reply["error"]["code"], json!(-32600));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            deep_event(
                &deep(r#""method":"notifications/progress","#),
                "tools/call",
                7
            ),
            Deep::Skip
        );
        assert_eq!(deep_event(&deep(r#""id":8,"#), "tools/call", 7), Deep::Skip);
        let batch = format!("[{}]", String::from_utf8(deep(r#""id":8,"#)).unwrap());
        assert!(matches!(
            deep_event(batch.as_bytes(), "tools/call", 7),
            Deep::Fail(_)
        ));
    }
}
