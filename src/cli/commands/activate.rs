//! `activate <objects>`: `lifecycle.activate` per object (with adt-ls's progress); exit 1
//! when an object is not activated, with its error diagnostics (line: message) in the text.

use super::super::args::Format;
use super::super::exit::{Failure, Status};
use super::super::objects::Obj;
use super::super::output;
use super::{array_at, Outcome, Run};
use serde_json::{json, Value};

pub(crate) async fn run(run: &Run, objects: &[Obj]) -> Result<Outcome, Failure> {
    run.progress.phase("activate", objects.len());
    let results = run
        .each(objects, |obj| async move {
            let label = obj.label();
            let arg = Value::Object(obj.object_ref());
            let result = run
                .call_in(Some(&label), "lifecycle.activate", vec![Some(arg)])
                .await?;
            let ok = result
                .get("success")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            run.progress
                .finished(&label, if ok { "activated" } else { "not activated" });
            Ok((obj, ok, result))
        })
        .await?;
    let failed: Vec<String> = results
        .iter()
        .filter(|(_, ok, _)| !ok)
        .map(|(o, _, _)| o.label())
        .collect();
    let report = match run.format {
        Format::Json => output::json(&json!({"objects": results.iter().map(|(o, ok, r)| json!({
            "name": o.name, "type": o.object_type, "success": ok,
            "diagnostics": r.get("diagnostics").cloned().unwrap_or(json!([])),
        })).collect::<Vec<_>>()})),
        _ => results.iter().map(|(o, ok, r)| text(o, *ok, r)).collect(),
    };
    Ok(Outcome {
        report,
        status: if failed.is_empty() {
            Status::Success
        } else {
            Status::Failed
        },
        summary: (!failed.is_empty())
            .then(|| format!("activation failed for {}", failed.join(", "))),
    })
}

fn text(obj: &Obj, ok: bool, result: &Value) -> String {
    let mut out = format!(
        "{}: {}\n",
        obj.label(),
        if ok { "activated" } else { "not activated" }
    );
    let files = array_at(result, "diagnostics");
    for file in files {
        for d in array_at(file, "diagnostic") {
            let line = d
                .pointer("/range/start/line")
                .and_then(Value::as_u64)
                .map_or(0, |l| l + 1);
            let message = d.get("message").and_then(Value::as_str).unwrap_or("");
            out.push_str(&format!("  line {line}: {message}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_as_lines() {
        let obj = Obj {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
        };
        let r = json!({"diagnostics": [{"fileUri": "u", "diagnostic": [{"message": "'.' expected", "range": {"start": {"line": 7, "character": 4}}}]}]});
        assert_eq!(
            text(&obj, false, &r),
            "ZCL_X:CLAS/OC: not activated\n  line 8: '.' expected\n"
        );
        assert_eq!(text(&obj, true, &json!({})), "ZCL_X:CLAS/OC: activated\n");
    }
}
