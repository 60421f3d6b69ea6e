//! `atc <objects> [--variant V] [--fail-on L]`: `quality.runAtc` per object (with adt-ls's
//! progress); text, json, sarif or checkstyle; exit 1 when a finding is at or above
//! `--fail-on` (default `error`).

use super::super::args::{AtcArgs, Format};
use super::super::atc_model::{self, Finding};
use super::super::exit::{Failure, Status};
use super::super::objects::Obj;
use super::super::output;
use super::super::report::{checkstyle, sarif};
use super::{Outcome, Run};
use serde_json::{json, Value};

pub(crate) async fn run(run: &Run, args: &AtcArgs, objects: &[Obj]) -> Result<Outcome, Failure> {
    run.progress.phase("atc", objects.len());
    let per_object = run
        .each(objects, |obj| async move {
            let label = obj.label();
            let mut opts = run.timeout_opts();
            if let Some(v) = &args.variant {
                opts.insert("checkVariant".into(), json!(v));
            }
            let args = vec![
                Some(Value::Object(obj.object_ref())),
                Some(Value::Object(opts)),
            ];
            let result = run.call_in(Some(&label), "quality.runAtc", args).await?;
            let findings = atc_model::read(&obj, &result);
            run.progress
                .finished(&label, &super::count(findings.len(), "finding"));
            Ok(findings)
        })
        .await?;
    let findings: Vec<Finding> = per_object.into_iter().flatten().collect();
    let report = match run.format {
        Format::Sarif => sarif::render(&findings, &run.paths),
        Format::Checkstyle => checkstyle::render(&findings, &run.paths),
        Format::Json => output::json(&json!({ "findings": findings })),
        _ => findings.iter().map(|f| text(f, &run.paths)).collect(),
    };
    let failing = findings
        .iter()
        .filter(|f| f.severity.fails(args.fail_on))
        .count();
    let summary = (failing > 0).then(|| {
        let level = format!("{:?}", args.fail_on).to_lowercase();
        format!(
            "{failing} of {} ATC findings are at or above --fail-on {level}",
            findings.len()
        )
    });
    Ok(Outcome {
        report,
        status: if failing > 0 {
            Status::Failed
        } else {
            Status::Success
        },
        summary,
    })
}

fn text(f: &Finding, paths: &super::super::paths::PathScheme) -> String {
    let file = paths.file(&f.object_name, &f.object_type, f.part.as_deref());
    let at = match (f.line, f.column) {
        (Some(l), Some(c)) => format!("{file}:{l}:{}", c + 1),
        (Some(l), None) => format!("{file}:{l}"),
        _ => file,
    };
    format!(
        "{at}: {}: {} [{}]\n",
        f.severity.name(),
        f.message,
        f.rule_id
    )
}
