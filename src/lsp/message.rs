//! JSON-RPC 2.0 messages on the LSP channel: building outgoing frames with the member order
//! vscode-jsonrpc uses (`jsonrpc`, `id`, `method`, `params` / `result` / `error`) and
//! classifying incoming ones.

use serde_json::{json, Map, Value};

/// An incoming message, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A response to one of our requests (`id` is ours, numeric).
    Response {
        id: Value,
        outcome: Result<Value, RpcError>,
    },
    /// A server->client request: must be answered with the same `id`.
    Request {
        id: Value,
        method: String,
        params: Option<Value>,
    },
    /// A server->client notification.
    Notification {
        method: String,
        params: Option<Value>,
    },
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

/// Why an incoming frame could not be understood.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidMessage(pub String);

/// Parse and classify one frame body.
pub fn parse_incoming(body: &[u8]) -> Result<Incoming, InvalidMessage> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| InvalidMessage(format!("invalid JSON in LSP frame: {e}")))?;
    let Value::Object(mut obj) = value else {
        return Err(InvalidMessage("LSP frame is not a JSON object".into()));
    };
    let method = obj.remove("method");
    let id = obj.remove("id");
    let params = obj.remove("params");
    match (method, id) {
        (Some(Value::String(method)), Some(id)) if !id.is_null() => {
            Ok(Incoming::Request { id, method, params })
        }
        (Some(Value::String(method)), _) => Ok(Incoming::Notification { method, params }),
        (None, Some(id)) => {
            let outcome = if let Some(err) = obj.remove("error") {
                Err(parse_error(err))
            } else {
                Ok(obj.remove("result").unwrap_or(Value::Null))
            };
            Ok(Incoming::Response { id, outcome })
        }
        _ => Err(InvalidMessage(
            "LSP frame is neither request, response nor notification".into(),
        )),
    }
}

fn parse_error(err: Value) -> RpcError {
    let code = err.get("code").and_then(Value::as_i64).unwrap_or(-32603);
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("Unknown error")
        .to_string();
    let data = err.get("data").cloned();
    RpcError {
        code,
        message,
        data,
    }
}

/// `{"jsonrpc":"2.0","id":<id>,"method":<m>,"params":<p>}`
pub fn request(id: u64, method: &str, params: Value) -> Vec<u8> {
    to_bytes(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
}

/// `{"jsonrpc":"2.0","method":<m>,"params":<p>}`
pub fn notification(method: &str, params: Value) -> Vec<u8> {
    to_bytes(json!({"jsonrpc": "2.0", "method": method, "params": params}))
}

/// `{"jsonrpc":"2.0","id":<id>,"result":<r>}` (the peer's id echoed verbatim).
pub fn response_ok(id: &Value, result: Value) -> Vec<u8> {
    to_bytes(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// `{"jsonrpc":"2.0","id":<id>,"error":{"code":..,"message":..[,"data":..]}}`
pub fn response_err(id: &Value, err: &RpcError) -> Vec<u8> {
    let mut error = Map::new();
    error.insert("code".into(), json!(err.code));
    error.insert("message".into(), json!(err.message));
    if let Some(data) = &err.data {
        error.insert("data".into(), data.clone());
    }
    to_bytes(json!({"jsonrpc": "2.0", "id": id, "error": Value::Object(error)}))
}

fn to_bytes(v: Value) -> Vec<u8> {
    // Serialising a `Value` cannot fail: every key is a string.
    serde_json::to_vec(&v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_member_order_and_compactness() {
        let bytes = request(0, "adtLs/x", json!(["A4H"]));
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            r#"{"jsonrpc":"2.0","id":0,"method":"adtLs/x","params":["A4H"]}"#
        );
    }

    #[test]
    fn non_ascii_is_raw_utf8() {
        let bytes = notification("n", json!({"t": "é"}));
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"t\":\"é\"}}"
        );
    }

    #[test]
    fn responses_echo_string_ids() {
        let ok = response_ok(&json!("abc"), Value::Null);
        assert_eq!(
            String::from_utf8(ok).unwrap(),
            r#"{"jsonrpc":"2.0","id":"abc","result":null}"#
        );
        let err = response_err(
            &json!(7),
            &RpcError {
                code: -32603,
                message: "boom".into(),
                data: None,
            },
        );
        assert_eq!(
            String::from_utf8(err).unwrap(),
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"boom"}}"#
        );
    }

    #[test]
    fn classifies_incoming() {
        assert!(matches!(
            parse_incoming(br#"{"jsonrpc":"2.0","id":3,"result":{"a":1}}"#),
            Ok(Incoming::Response { outcome: Ok(_), .. })
        ));
        match parse_incoming(
            br#"{"jsonrpc":"2.0","id":3,"error":{"code":1003,"message":"m","data":{"x":1}}}"#,
        ) {
            Ok(Incoming::Response {
                outcome: Err(e), ..
            }) => {
                assert_eq!(e.code, 1003);
                assert_eq!(e.data, Some(json!({"x": 1})));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_incoming(
                br#"{"jsonrpc":"2.0","id":"s1","method":"workspace/configuration","params":{}}"#
            ),
            Ok(Incoming::Request { .. })
        ));
        assert!(matches!(
            parse_incoming(br#"{"jsonrpc":"2.0","method":"window/logMessage"}"#),
            Ok(Incoming::Notification { params: None, .. })
        ));
        assert!(parse_incoming(b"[1]").is_err());
        assert!(parse_incoming(b"{").is_err());
    }

    #[test]
    fn a_result_of_null_is_kept() {
        match parse_incoming(br#"{"jsonrpc":"2.0","id":1,"result":null}"#) {
            Ok(Incoming::Response { outcome: Ok(v), .. }) => assert_eq!(v, Value::Null),
            other => panic!("{other:?}"),
        }
    }
}
