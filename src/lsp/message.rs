//! JSON-RPC 2.0 messages on the LSP channel: building outgoing frames with the member order
//! vscode-jsonrpc uses (`jsonrpc`, `id`, `method`, `params` / `result` / `error`) and
//! classifying incoming ones. A frame nested deeper than [`json_depth::MAX_DEPTH`] is refused
//! before it is parsed; what can still be read of a refused message (its id and method) is
//! kept, so a request gets an error reply and a response fails its own request.

use crate::bounds::json_depth::{self, MAX_DEPTH};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

/// A JSON text kept as written: request params and results that only pass through are never
/// turned into a tree (large readFile contents and search results cross unparsed).
pub type RawJson = Box<RawValue>;

/// An incoming message, classified.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A response to one of our requests (`id` is ours, numeric); the result stays raw.
    Response {
        id: Value,
        outcome: Result<RawJson, RpcError>,
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

/// Why an incoming frame could not be understood, and what could still be read of it.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidMessage {
    pub reason: String,
    /// The message's id, when it has a readable one.
    pub id: Option<Value>,
    /// The message's method, when it has one.
    pub method: Option<String>,
    /// The JSON-RPC error code a request refused for this reason is answered with.
    pub code: i64,
    /// The frame nests deeper than [`MAX_DEPTH`].
    pub too_deep: bool,
}

/// JSON-RPC "Invalid Request".
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC "Invalid params".
pub const INVALID_PARAMS: i64 = -32602;

impl InvalidMessage {
    /// A frame nothing can be read from.
    fn unreadable(reason: impl Into<String>) -> Box<InvalidMessage> {
        Box::new(InvalidMessage {
            reason: reason.into(),
            id: None,
            method: None,
            code: INVALID_REQUEST,
            too_deep: false,
        })
    }

    /// A frame nested too deeply; its id and method read without parsing the rest.
    fn too_deep(body: &[u8]) -> Box<InvalidMessage> {
        let members = json_depth::shallow_members(body);
        Box::new(InvalidMessage {
            reason: format!("the message is nested deeper than {MAX_DEPTH} levels"),
            id: members.id,
            method: members.method,
            code: INVALID_REQUEST,
            too_deep: true,
        })
    }
}

/// The members of a JSON-RPC message; `params` and `result` are borrowed raw.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default, borrow)]
    params: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<Value>,
}

/// The first non-blank character of a frame that is a JSON object.
const OBJECT_START: char = '{';

/// Parse and classify one frame body.
pub fn parse_incoming(body: &[u8]) -> Result<Incoming, Box<InvalidMessage>> {
    let text = std::str::from_utf8(body)
        .map_err(|e| InvalidMessage::unreadable(format!("LSP frame is not UTF-8: {e}")))?;
    if !text.trim_start().starts_with(OBJECT_START) {
        return Err(InvalidMessage::unreadable("LSP frame is not a JSON object"));
    }
    if json_depth::exceeds(body, MAX_DEPTH) {
        return Err(InvalidMessage::too_deep(body));
    }
    let env: Envelope = serde_json::from_str(text)
        .map_err(|e| InvalidMessage::unreadable(format!("invalid JSON in LSP frame: {e}")))?;
    let params = || -> Result<Option<Value>, Box<InvalidMessage>> {
        env.params
            .map(|raw| serde_json::from_str(raw.get()))
            .transpose()
            .map_err(|e| {
                Box::new(InvalidMessage {
                    reason: format!("invalid params in LSP frame: {e}"),
                    id: env.id.clone(),
                    method: env.method.clone(),
                    code: INVALID_PARAMS,
                    too_deep: false,
                })
            })
    };
    match (env.method.clone(), env.id.clone()) {
        (Some(method), Some(id)) => Ok(Incoming::Request {
            id,
            method,
            params: params()?,
        }),
        (Some(method), None) => Ok(Incoming::Notification {
            method,
            params: params()?,
        }),
        (None, Some(id)) => {
            let outcome = match env.error {
                Some(err) => Err(parse_error(err)),
                None => Ok(env.result.map(RawValue::to_owned).unwrap_or_else(null_raw)),
            };
            Ok(Incoming::Response { id, outcome })
        }
        _ => Err(InvalidMessage::unreadable(
            "LSP frame is neither request, response nor notification",
        )),
    }
}

/// The raw JSON `null`.
pub fn null_raw() -> RawJson {
    RawValue::from_string("null".to_string()).unwrap_or_else(|_| Box::<RawValue>::default())
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

/// `{"jsonrpc":"2.0","id":<id>,"method":<m>,"params":<p>}` with `params` already encoded.
pub fn request(id: u64, method: &str, params: &RawValue) -> Vec<u8> {
    let method = serde_json::to_string(method).unwrap_or_else(|_| "\"\"".to_string());
    let params = params.get();
    let mut out = Vec::with_capacity(48 + method.len() + params.len());
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.to_string().as_bytes());
    out.extend_from_slice(b",\"method\":");
    out.extend_from_slice(method.as_bytes());
    out.extend_from_slice(b",\"params\":");
    out.extend_from_slice(params.as_bytes());
    out.push(b'}');
    out
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
        let params = RawValue::from_string(r#"["A4H"]"#.to_string()).unwrap();
        let bytes = request(0, "adtLs/x", &params);
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
        match parse_incoming(br#"{"jsonrpc":"2.0","id":3,"result":{"a": 1}}"#) {
            Ok(Incoming::Response {
                outcome: Ok(raw), ..
            }) => assert_eq!(raw.get(), r#"{"a": 1}"#),
            other => panic!("{other:?}"),
        }
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
    fn frames_nested_too_deeply_are_refused_with_their_id_and_method() {
        let deep = format!("{}{}", "[".repeat(10_000_000), "]".repeat(10_000_000));
        let cases = [
            (
                format!(r#"{{"jsonrpc":"2.0","id":4,"result":{deep}}}"#),
                Some(json!(4)),
                None,
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","method":"window/logMessage","params":{deep}}}"#),
                None,
                Some("window/logMessage"),
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","id":"s1","method":"x/ask","params":[{deep}]}}"#),
                Some(json!("s1")),
                Some("x/ask"),
            ),
        ];
        for (body, id, method) in cases {
            let e = parse_incoming(body.as_bytes()).unwrap_err();
            assert!(e.too_deep, "{}", e.reason);
            assert_eq!(e.reason, "the message is nested deeper than 100 levels");
            assert_eq!(e.id, id);
            assert_eq!(e.method.as_deref(), method);
            assert_eq!(e.code, INVALID_REQUEST);
        }
        // At the limit (the envelope is level 1) the frame parses.
        let at_limit = format!(
            r#"{{"jsonrpc":"2.0","method":"m","params":{}{}}}"#,
            "[".repeat(99),
            "]".repeat(99)
        );
        assert!(matches!(
            parse_incoming(at_limit.as_bytes()),
            Ok(Incoming::Notification {
                params: Some(_),
                ..
            })
        ));
    }

    #[test]
    fn a_request_with_params_that_do_not_parse_keeps_its_id() {
        let e = parse_incoming(br#"{"jsonrpc":"2.0","id":9,"method":"x/y","params":[1e400]}"#)
            .unwrap_err();
        assert_eq!((e.id, e.method.as_deref()), (Some(json!(9)), Some("x/y")));
        assert_eq!(e.code, INVALID_PARAMS);
        assert!(!e.too_deep);
    }

    #[test]
    fn a_result_of_null_is_kept() {
        for body in [
            &br#"{"jsonrpc":"2.0","id":1,"result":null}"#[..],
            br#"{"jsonrpc":"2.0","id":1}"#,
        ] {
            match parse_incoming(body) {
                Ok(Incoming::Response { outcome: Ok(v), .. }) => assert_eq!(v.get(), "null"),
                other => panic!("{other:?}"),
            }
        }
    }
}
