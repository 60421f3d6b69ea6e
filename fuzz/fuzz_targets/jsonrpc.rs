//! JSON-RPC parsing and classification on both channels: LSP frames
//! (`src/lsp/message.rs`) and MCP messages (`src/mcp/jsonrpc.rs`). Invariants: no panic;
//! what is classified as a request, notification or response re-encodes with our own
//! builders and classifies the same; an MCP response accepted as ours is classified as ours,
//! and every server request gets exactly one well-formed reply echoing its id.
#![no_main]

use adt_ls_native::fuzzing::message::{
    notification, parse_incoming, request, response_err, response_ok, Incoming, RpcError,
};
use adt_ls_native::fuzzing::mcp_jsonrpc as mcp;
use libfuzzer_sys::fuzz_target;
use serde_json::value::RawValue;
use serde_json::Value;

/// serde_json (without `float_roundtrip`) may re-read a float a last bit apart; values that
/// hold floats are compared only for their shape.
fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_float),
        Value::Object(map) => map.values().any(has_float),
        _ => false,
    }
}

fn same(a: &Value, b: &Value) -> bool {
    if has_float(a) || has_float(b) {
        std::mem::discriminant(a) == std::mem::discriminant(b)
    } else {
        a == b
    }
}

fn lsp(data: &[u8]) {
    let Ok(incoming) = parse_incoming(data) else {
        return;
    };
    match incoming {
        Incoming::Response { outcome, .. } => {
            if let Ok(raw) = outcome {
                // Valid JSON text, re-readable as raw JSON. Not necessarily a `Value`: a number
                // past f64's range (`-55e3551`) is valid JSON that `JSON.parse` reads as
                // -Infinity but serde's `Value` refuses (typed results then fail to parse,
                // with an error); the seed `regression-number-out-of-range` keeps that case.
                assert!(
                    serde_json::from_str::<&RawValue>(raw.get()).is_ok(),
                    "raw result is not JSON"
                );
            }
        }
        Incoming::Request { id, method, params } => {
            match parse_incoming(&response_ok(&id, Value::Null)) {
                Ok(Incoming::Response {
                    id: back,
                    outcome: Ok(raw),
                }) => {
                    assert!(same(&back, &id), "{back} != {id}");
                    assert_eq!(raw.get(), "null");
                }
                other => panic!("response_ok re-parsed as {other:?}"),
            }
            let err = RpcError {
                code: -32601,
                message: method.clone(),
                data: params.clone(),
            };
            match parse_incoming(&response_err(&id, &err)) {
                Ok(Incoming::Response {
                    id: back,
                    outcome: Err(e),
                }) => {
                    assert!(same(&back, &id), "{back} != {id}");
                    assert_eq!(e.code, err.code);
                    assert_eq!(e.message, err.message);
                    let (a, b) = (
                        e.data.unwrap_or(Value::Null),
                        err.data.unwrap_or(Value::Null),
                    );
                    assert!(same(&a, &b), "{a} != {b}");
                }
                other => panic!("response_err re-parsed as {other:?}"),
            }
            let raw_params = RawValue::from_string(
                serde_json::to_string(&params.clone().unwrap_or(Value::Null)).unwrap_or_default(),
            )
            .expect("serialized JSON is valid raw JSON");
            match parse_incoming(&request(7, &method, &raw_params)) {
                Ok(Incoming::Request {
                    id: back,
                    method: m,
                    params: p,
                }) => {
                    assert_eq!(back, Value::from(7));
                    assert_eq!(m, method);
                    let (a, b) = (p.unwrap_or(Value::Null), params.unwrap_or(Value::Null));
                    assert!(same(&a, &b), "{a} != {b}");
                }
                other => panic!("request re-parsed as {other:?}"),
            }
        }
        Incoming::Notification { method, params } => {
            let p = params.unwrap_or(Value::Null);
            match parse_incoming(&notification(&method, p.clone())) {
                Ok(Incoming::Notification {
                    method: m,
                    params: back,
                }) => {
                    assert_eq!(m, method);
                    let back = back.unwrap_or(Value::Null);
                    assert!(same(&back, &p), "{back} != {p}");
                }
                other => panic!("notification re-parsed as {other:?}"),
            }
        }
    }
}

fn mcp_message(msg: &Value, our_id: u64) {
    let kind = mcp::classify(msg, our_id);
    if mcp::is_valid_response(msg, our_id) {
        assert_eq!(kind, mcp::Incoming::Ours, "a valid response must be ours");
        let _ = mcp::into_result("fuzz", msg.clone());
    }
    if let mcp::Incoming::ServerRequest { .. } = kind {
        let reply = mcp::reply_to_server_request(msg);
        assert_eq!(reply.get("id"), msg.get("id"), "reply must echo the id");
        assert_eq!(reply.get("jsonrpc"), Some(&Value::from("2.0")));
        let has_result = reply.get("result").is_some();
        let has_error = reply.get("error").is_some();
        assert!(has_result != has_error, "exactly one of result and error");
    }
}

fn mcp_payload(data: &[u8]) {
    let Ok(payload) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let first_id = mcp::messages_of(payload.clone())
        .iter()
        .find_map(|m| m.get("id").and_then(Value::as_u64))
        .unwrap_or(1);
    for our_id in [first_id, 0] {
        for msg in mcp::messages_of(payload.clone()) {
            mcp_message(&msg, our_id);
        }
        if let Ok(found) = mcp::response_from_body(payload.clone(), our_id) {
            assert!(mcp::is_valid_response(&found, our_id));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    lsp(data);
    mcp_payload(data);
});
