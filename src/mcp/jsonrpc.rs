//! JSON-RPC 2.0 message shapes for the MCP client: request and notification bodies, how an
//! incoming message is classified (our response, another id, notification, server request),
//! result checks, and the replies we give to server->client requests.

use super::errors;
use crate::kernel::error::Result;
use serde_json::{json, Map, Value};

/// JSON-RPC code for "Method not found".
const METHOD_NOT_FOUND: i64 = -32601;

/// `{jsonrpc, id, method, params?}`; `params` is left out when absent.
pub fn request_body(id: u64, method: &str, params: Option<&Value>) -> Value {
    let mut body = Map::new();
    body.insert("jsonrpc".into(), json!("2.0"));
    body.insert("id".into(), json!(id));
    body.insert("method".into(), json!(method));
    if let Some(params) = params {
        body.insert("params".into(), params.clone());
    }
    Value::Object(body)
}

/// `{jsonrpc, method}` (no id, no params).
pub fn notification_body(method: &str) -> Value {
    json!({ "jsonrpc": "2.0", "method": method })
}

/// `notifications/cancelled {requestId, reason}`: the caller gave up on request `id`.
pub fn cancelled_body(id: u64, reason: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": CANCELLED,
        "params": { "requestId": id, "reason": reason },
    })
}

/// The MCP notification that cancels a request in flight.
pub const CANCELLED: &str = "notifications/cancelled";

/// What one incoming JSON-RPC message is, from the point of view of the call waiting for `id`.
#[derive(Debug, PartialEq)]
pub enum Incoming<'a> {
    /// Carries our id and no method: the answer (still to be validated).
    Ours,
    /// A server->client request (method and id): must be answered.
    ServerRequest { method: &'a str },
    /// A notification (method, no id): skipped.
    Notification { method: &'a str },
    /// Anything else (another id, no id, not an object): skipped.
    Other,
}

/// Classify `msg` for the call waiting on `our_id`.
pub fn classify(msg: &Value, our_id: u64) -> Incoming<'_> {
    let Some(obj) = msg.as_object() else {
        return Incoming::Other;
    };
    let id = obj.get("id").filter(|id| !id.is_null());
    match (obj.get("method").and_then(Value::as_str), id) {
        (Some(method), Some(_)) => Incoming::ServerRequest { method },
        (Some(method), None) => Incoming::Notification { method },
        (None, Some(id)) if id.as_u64() == Some(our_id) => Incoming::Ours,
        _ => Incoming::Other,
    }
}

/// The messages of a payload: a batch (2025-03-26) is split, anything else is one message.
pub fn messages_of(payload: Value) -> Vec<Value> {
    match payload {
        Value::Array(items) => items,
        single => vec![single],
    }
}

/// True when `msg` is a well-formed response to `our_id` (`jsonrpc:"2.0"`, our id, and a
/// `result` or `error`).
pub fn is_valid_response(msg: &Value, our_id: u64) -> bool {
    let Some(obj) = msg.as_object() else {
        return false;
    };
    obj.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && obj.get("id").and_then(Value::as_u64) == Some(our_id)
        && !obj.contains_key("method")
        && (obj.contains_key("result") || obj.contains_key("error"))
}

/// Pick our response from a whole `application/json` body (an object, or a batch array).
pub fn response_from_body(payload: Value, our_id: u64) -> Result<Value> {
    messages_of(payload)
        .into_iter()
        .find(|msg| is_valid_response(msg, our_id))
        .ok_or_else(errors::mismatched_response)
}

/// Turn a validated response into its result: a JSON-RPC error becomes an error carrying the
/// numeric code and data; a missing, non-object or array result is rejected.
pub fn into_result(method: &str, mut response: Value) -> Result<Value> {
    if let Some(error) = response.get("error").filter(|e| !e.is_null()) {
        return Err(errors::rpc_error(method, error));
    }
    match response.get_mut("result").map(Value::take) {
        Some(result @ Value::Object(_)) => Ok(result),
        _ => Err(errors::invalid(method, "missing or invalid result")),
    }
}

/// The reply to a server->client request: `ping` gets `{}`, everything else
/// `-32601 Method not found` (we declare no client capabilities).
pub fn reply_to_server_request(request: &Value) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    if request.get("method").and_then(Value::as_str) == Some("ping") {
        json!({ "jsonrpc": "2.0", "id": id, "result": {} })
    } else {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": METHOD_NOT_FOUND, "message": "Method not found" }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_body_omits_absent_params_and_keeps_key_order() {
        let body = request_body(3, "tools/list", None);
        assert_eq!(
            body.to_string(),
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#
        );
        let body = request_body(4, "tools/list", Some(&json!({"cursor": "c"})));
        assert_eq!(
            body.to_string(),
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"c"}}"#
        );
    }

    #[test]
    fn classify_separates_the_four_kinds() {
        assert_eq!(classify(&json!({"id": 2, "result": {}}), 2), Incoming::Ours);
        assert_eq!(
            classify(&json!({"id": 3, "result": {}}), 2),
            Incoming::Other
        );
        assert_eq!(
            classify(&json!({"id": "2", "result": {}}), 2),
            Incoming::Other
        );
        assert_eq!(
            classify(&json!({"method": "ping", "id": 2}), 2),
            Incoming::ServerRequest { method: "ping" }
        );
        assert_eq!(
            classify(&json!({"method": "notifications/progress"}), 2),
            Incoming::Notification {
                method: "notifications/progress"
            }
        );
        assert_eq!(classify(&json!(42), 2), Incoming::Other);
    }

    #[test]
    fn into_result_checks_error_and_result_shape() {
        let ok = into_result("m", json!({"jsonrpc": "2.0", "id": 1, "result": {"a": 1}}));
        assert_eq!(ok, Ok(json!({"a": 1})));
        for bad in [
            json!({"id": 1}),
            json!({"result": []}),
            json!({"result": 5}),
            json!({"result": null}),
        ] {
            let err = into_result("m", bad).err().map(|e| e.message);
            assert_eq!(
                err.as_deref(),
                Some("adt-ls MCP m: missing or invalid result")
            );
        }
    }

    #[test]
    fn server_requests_get_ping_result_or_method_not_found() {
        let pong =
            reply_to_server_request(&json!({"jsonrpc": "2.0", "id": "p1", "method": "ping"}));
        assert_eq!(pong, json!({"jsonrpc": "2.0", "id": "p1", "result": {}}));
        let other = reply_to_server_request(
            &json!({"jsonrpc": "2.0", "id": 9, "method": "sampling/createMessage"}),
        );
        assert_eq!(other["error"]["code"], json!(-32601));
        assert_eq!(other["error"]["message"], json!("Method not found"));
    }
}
