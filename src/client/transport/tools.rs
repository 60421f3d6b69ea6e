//! The MCP transport tools (docs/wire.md#transport): find the transports for one object (its
//! answer checked against the tool's output schema, so a refusal the tool did not flag as an
//! error still rejects), create one (refused early for local `$` packages, where it would
//! orphan an empty request), and the paged unified diff of a transport (validated before
//! anything else; the cursor is opaque and passed on verbatim). Every `isError` result
//! rejects (docs/decisions.md#d5-12).

use crate::client::args::{self, invalid, Args};
use crate::client::tool_call::{self, call_checked, destination_args};
use crate::client::Client;
use crate::kernel::error::{codes, Error, Result};
use crate::mcp::federated::FederatedParsed;
use serde_json::{json, Map, Value};

const MAX_PAGE_SIZE: f64 = 40.0;

/// `find({objectName, objectType, developmentPackage, isCreation})`: the tool's data, which
/// must be what its output schema promises (docs/decisions.md#d9-4).
pub(crate) async fn find(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let opts = args::object(&a, 0, "args")?;
    let keys = [
        "objectName",
        "objectType",
        "developmentPackage",
        "isCreation",
    ];
    let parsed = tool_call::call(
        &me,
        FIND_TOOL,
        Value::Object(destination_args(&dest, &opts, &keys)),
    )
    .await?;
    transport_info(parsed).map_err(|e| e.with_detail("tool", FIND_TOOL))
}

const FIND_TOOL: &str = "abap_transport-get";

/// The data of an `abap_transport-get` result, or `find_transport failed: <text>` when the
/// tool reported an error, answered something that is not an object (a plain-text refusal
/// it did not flag), or left out one of its schema's fields.
fn transport_info(parsed: FederatedParsed) -> Result<Value> {
    let complete = parsed.data.as_object().is_some_and(|d| {
        d.get("isRecordingRequired").is_some_and(Value::is_boolean)
            && d.get("transportRequests").is_some_and(Value::is_array)
            && d.get("informationMessages").is_some_and(Value::is_array)
    });
    if parsed.ok && complete {
        return Ok(parsed.data);
    }
    Err(Error::coded(
        codes::TOOL_ERROR,
        format!("find_transport failed: {}", parsed.text),
    )
    .with_data(parsed.data))
}

/// The local-package guard of `create`.
fn local_package_error(package: &str) -> crate::kernel::error::Error {
    invalid(format!(
        "Package \"{package}\" is local (non-transportable) — no transport is needed, so create_transport is a no-op that would orphan an empty request. Use findTransport to confirm; only call createTransport for transportable packages."
    ))
}

/// `create({developmentPackage, transportDescription, isCreation, objectName, objectType})`.
pub(crate) async fn create(me: Client, a: Args) -> Result<Value> {
    me.touch()?;
    let opts = args::object(&a, 0, "args")?;
    if let Some(package) = opts.get("developmentPackage").and_then(Value::as_str) {
        if package.trim().starts_with('$') {
            return Err(local_package_error(package));
        }
    }
    let dest = me.dest()?;
    let keys = [
        "developmentPackage",
        "transportDescription",
        "isCreation",
        "objectName",
        "objectType",
    ];
    let tool_args = destination_args(&dest, &opts, &keys);
    call_checked(
        &me,
        "abap_transport-create",
        tool_args,
        "create_transport failed",
    )
    .await
}

/// The diff arguments, checked before the destination: `(transportNumber, pageSize, cursor)`.
fn diff_request(a: &Args) -> Result<(Value, Value, Option<Value>)> {
    let number = args::arg(a, 0);
    if let Some(other) = number.filter(|n| !n.is_string()) {
        return Err(crate::kernel::arg_error::type_error(
            "transportNumber",
            "a string",
            &crate::kernel::arg_error::Received::of_json(Some(other)),
        ));
    }
    let blank = number
        .and_then(Value::as_str)
        .is_none_or(|n| n.trim().is_empty());
    if blank {
        return Err(invalid("transportNumber must not be empty".into()));
    }
    let opts = args::method_options(a, 1, "transport.getDiff")?;
    let page_size = opts
        .get("pageSize")
        .filter(|v| !v.is_null())
        .cloned()
        .unwrap_or(json!(MAX_PAGE_SIZE as i64));
    let valid = page_size
        .as_f64()
        .is_some_and(|n| n.fract() == 0.0 && (1.0..=MAX_PAGE_SIZE).contains(&n));
    if !valid {
        return Err(invalid(
            "pageSize must be an integer between 1 and 40".into(),
        ));
    }
    let cursor = opts.get("cursor").filter(|c| !c.is_null()).cloned();
    Ok((number.cloned().unwrap_or(Value::Null), page_size, cursor))
}

/// `getDiff(transportNumber, {cursor?, pageSize?})`: one page, as the tool answered it.
pub(crate) async fn get_diff(me: Client, a: Args) -> Result<Value> {
    me.touch()?;
    let (number, page_size, cursor) = diff_request(&a)?;
    let dest = me.dest()?;
    let mut tool_args = Map::new();
    tool_args.insert("destination".into(), json!(dest));
    tool_args.insert("transportNumber".into(), number);
    tool_args.insert("pageSize".into(), page_size);
    if let Some(c) = cursor {
        tool_args.insert("cursor".into(), c);
    }
    let tool = "abap_transport-unifiedDifference";
    call_checked(&me, tool, tool_args, "transport unifiedDifference failed").await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::federated::parse_federated;

    fn diff(args: Vec<Option<Value>>) -> Result<(Value, Value, Option<Value>)> {
        diff_request(&args)
    }

    #[test]
    fn diff_arguments_are_validated() {
        let msg = |r: Result<_>| r.unwrap_err().message;
        assert_eq!(msg(diff(vec![])), "transportNumber must not be empty");
        assert_eq!(
            msg(diff(vec![Some(json!("  "))])),
            "transportNumber must not be empty"
        );
        for bad in [json!(0), json!(41), json!(2.5), json!("5")] {
            assert_eq!(
                msg(diff(vec![
                    Some(json!("A4HK1")),
                    Some(json!({"pageSize": bad}))
                ])),
                "pageSize must be an integer between 1 and 40"
            );
        }
        assert_eq!(
            diff(vec![Some(json!("A4HK1"))]).unwrap(),
            (json!("A4HK1"), json!(40), None)
        );
        assert_eq!(
            diff(vec![
                Some(json!("A4HK1")),
                Some(json!({"pageSize": 5, "cursor": "c/+="}))
            ])
            .unwrap(),
            (json!("A4HK1"), json!(5), Some(json!("c/+=")))
        );
    }

    #[test]
    fn find_accepts_only_complete_schema_data() {
        let refusal =
            "Object ZR_X is locked in task DEVK900002, which is not specified for this client";
        let text_only = json!({"content": [{"type": "text", "text": refusal}]});
        let e = transport_info(parse_federated(&text_only)).unwrap_err();
        assert_eq!(e.message, format!("find_transport failed: {refusal}"));
        assert!(e.has_code(codes::TOOL_ERROR));
        let incomplete = json!({"content": [{"type": "text", "text": refusal}],
            "structuredContent": {"isRecordingRequired": false}});
        assert_eq!(
            transport_info(parse_federated(&incomplete))
                .unwrap_err()
                .message,
            format!("find_transport failed: {refusal}")
        );
        let full = json!({"isRecordingRequired": true, "transportRequests": [], "informationMessages": ["x"]});
        let explained = json!({"content": [{"type": "text", "text": "Found 0 requests."}], "structuredContent": full});
        assert_eq!(transport_info(parse_federated(&explained)).unwrap(), full);
        let flagged =
            json!({"isError": true, "content": [{"type": "text", "text": full.to_string()}]});
        assert!(transport_info(parse_federated(&flagged)).is_err());
        for bad in [
            json!(null),
            json!([full.clone()]),
            json!({"isRecordingRequired": "yes", "transportRequests": [], "informationMessages": []}),
        ] {
            let res = json!({"content": [{"type": "text", "text": bad.to_string()}]});
            assert_eq!(
                transport_info(parse_federated(&res)).unwrap_err().message,
                format!("find_transport failed: {bad}")
            );
        }
        let empty = json!({"content": []});
        assert_eq!(
            transport_info(parse_federated(&empty)).unwrap_err().message,
            "find_transport failed: "
        );
    }

    #[test]
    fn the_local_package_guard_keeps_the_reference_text() {
        assert!(local_package_error("$TMP")
            .message
            .starts_with("Package \"$TMP\" is local (non-transportable) — no transport is needed"));
    }
}
