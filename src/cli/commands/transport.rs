//! `transport list|check|diff`: `transport.list`, `transport.check` and every page of
//! `transport.getDiff` (paged as `transport.diffPages` pages, [`DiffPaging`]). The diff's
//! text is the unified diff itself.

use super::super::args::{Format, TransportDiffArgs, TransportListArgs};
use super::super::exit::Failure;
use super::super::objects::Obj;
use super::super::output;
use super::{array_at, Outcome, Run};
use crate::client::DiffPaging;
use serde_json::{json, Value};

/// The most pages one diff may take (a server that never completes cannot loop forever).
const MAX_PAGES: usize = 10_000;

pub(crate) async fn list(run: &Run, args: &TransportListArgs) -> Result<Outcome, Failure> {
    let mut opts = json!({});
    if let Some(q) = &args.query {
        opts["query"] = json!(q);
    }
    if let Some(l) = args.limit {
        opts["limit"] = json!(l);
    }
    let list = run.call("transport.list", vec![Some(opts)]).await?;
    let report = match run.format {
        Format::Json => output::json(&list),
        _ => list_text(&list),
    };
    Ok(Outcome::ok(report))
}

fn list_text(list: &Value) -> String {
    let field = |t: &Value, k: &str| t.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut out = String::new();
    for t in array_at(list, "transports") {
        let line = format!(
            "{:<12} {:<10} {:<12} {}",
            field(t, "number"),
            field(t, "status"),
            field(t, "owner"),
            field(t, "description")
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub(crate) async fn check(run: &Run, objects: &[Obj]) -> Result<Outcome, Failure> {
    let [obj] = objects else {
        return Err(Failure::usage("transport check takes exactly one object"));
    };
    let check = run
        .call(
            "transport.check",
            vec![Some(Value::Object(obj.object_ref()))],
        )
        .await?;
    let report = match run.format {
        Format::Json => output::json(&check),
        _ => {
            let needed = check
                .get("isRecordingRequired")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let mut out = format!(
                "{}: {}\n",
                obj.label(),
                if needed {
                    "a change needs a transport"
                } else {
                    "a change needs no transport"
                }
            );
            let numbers = array_at(&check, "transports");
            for t in numbers {
                let n = t
                    .get("number")
                    .or_else(|| t.get("transport"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if !n.is_empty() {
                    out.push_str(&format!("  {n}\n"));
                }
            }
            out
        }
    };
    Ok(Outcome::ok(report))
}

pub(crate) async fn diff(run: &Run, args: &TransportDiffArgs) -> Result<Outcome, Failure> {
    let mut paging = DiffPaging::new(json!(args.number), None);
    let mut pages = Vec::new();
    while let Some(page_args) = paging.next_args() {
        if pages.len() >= MAX_PAGES {
            return Err(Failure::unavailable(
                "adt-ls failed",
                format!(
                    "the diff of {} did not complete within {MAX_PAGES} pages",
                    args.number
                ),
            ));
        }
        let page = run.call("transport.getDiff", page_args).await?;
        paging.advance(&page).map_err(Failure::from_call)?;
        pages.push(page);
    }
    let report = match run.format {
        Format::Json => output::json(&json!({ "number": args.number, "pages": pages })),
        _ => pages
            .iter()
            .filter_map(|p| p.get("diffResult").and_then(Value::as_str))
            .collect(),
    };
    Ok(Outcome::ok(report))
}
