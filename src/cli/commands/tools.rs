//! `tools`, `call <tool> --args <json>` and `destinations`: adt-ls's MCP server through
//! `capabilities` (its `tools/list`), `raw.tool` (the result untouched) and
//! `listDestinations`. They work in foundation mode. `call` exits 1 when the tool answers
//! `isError: true`.

use super::super::args::Format;
use super::super::exit::{Failure, Status};
use super::super::output;
use super::{array_at, Outcome, Run};
use serde_json::{json, Value};

pub(crate) async fn tools(run: &Run) -> Result<Outcome, Failure> {
    let caps = run.call("capabilities", vec![]).await?;
    let tools = caps.get("tools").cloned().unwrap_or(json!([]));
    let report = match run.format {
        Format::Json => output::json(&json!({ "tools": tools })),
        _ => line_per_element(&tools, |t| {
            let name = t.get("name").and_then(Value::as_str).unwrap_or("");
            let description = t.get("description").and_then(Value::as_str).unwrap_or("");
            let first = description.lines().next().unwrap_or("");
            format!("{name:<48} {first}")
        }),
    };
    Ok(Outcome::ok(report))
}

pub(crate) async fn call(run: &Run, tool: &str, raw_args: &str) -> Result<Outcome, Failure> {
    let args: Value = serde_json::from_str(raw_args)
        .map_err(|e| Failure::usage(format!("--args is not JSON ({e})")))?;
    if !args.is_object() {
        return Err(Failure::usage(
            "--args must be a JSON object, e.g. '{\"destination\":\"ADTLS\"}'",
        ));
    }
    let result = run
        .call("raw.tool", vec![Some(json!(tool)), Some(args)])
        .await?;
    let is_error = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let report = match run.format {
        Format::Json => output::json(&result),
        _ => array_at(&result, "content")
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .map(|t| format!("{}\n", t.trim_end()))
            .collect(),
    };
    Ok(Outcome {
        report,
        status: if is_error {
            Status::Failed
        } else {
            Status::Success
        },
        summary: is_error
            .then(|| format!("the tool {tool} answered with an error (isError: true)")),
    })
}

pub(crate) async fn destinations(run: &Run) -> Result<Outcome, Failure> {
    let list = run.call("listDestinations", vec![]).await?;
    let report = match run.format {
        Format::Json => output::json(&json!({ "destinations": list })),
        _ => line_per_element(&list, |d| {
            let id = d
                .get("id")
                .or_else(|| d.get("destinationId"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let url = d
                .get("systemUrl")
                .or_else(|| d.get("url"))
                .and_then(Value::as_str)
                .unwrap_or("");
            format!("{id:<20} {url}")
        }),
    };
    Ok(Outcome::ok(report))
}

/// One line per element of the array `list` (none when it is not an array): what `line`
/// writes for it, without trailing whitespace.
fn line_per_element(list: &Value, line: impl Fn(&Value) -> String) -> String {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|v| line(v).trim_end().to_string() + "\n")
        .collect()
}
