//! `unit` and `coverage`: `quality.runUnitTestsWithCoverage` per object (the verified wire
//! shape: `adtLs/abapUnit/runTests` with coverage, then `adtLs/coverage/getCoverage`), with
//! adt-ls's progress. `unit` writes the tests (text, json, junit), `coverage` the coverage
//! (text, json, cobertura, lcov); both exit 1 when a test failed.

use super::super::args::Format;
use super::super::coverage_model::{self, ObjectCoverage};
use super::super::exit::{Failure, Status};
use super::super::objects::Obj;
use super::super::output;
use super::super::report::{cobertura, junit, lcov};
use super::super::unit_model::ObjectTests;
use super::{Outcome, Run};
use serde_json::{json, Value};

/// Run the tests of every object: each object's tests and its raw `coverage`.
async fn run_tests(
    run: &Run,
    objects: &[Obj],
    phase: &str,
) -> Result<Vec<(ObjectTests, Value)>, Failure> {
    run.progress.phase(phase, objects.len());
    run.each(objects, |obj| async move {
        let label = obj.label();
        let args = vec![
            Some(Value::Object(obj.object_ref())),
            Some(Value::Object(run.timeout_opts())),
        ];
        let result = run
            .call_in(Some(&label), "quality.runUnitTestsWithCoverage", args)
            .await?;
        let tests = ObjectTests::read(&obj, &result);
        let failed = tests.methods().filter(|m| m.failed()).count();
        let total = tests.methods().count();
        let what = if failed > 0 {
            format!("{failed} of {} failed", super::count(total, "test"))
        } else {
            format!("{} passed", super::count(total, "test"))
        };
        run.progress.finished(&label, &what);
        Ok((
            tests,
            result.get("coverage").cloned().unwrap_or(Value::Null),
        ))
    })
    .await
}

/// Exit 1 with the failed tests named, when there are any.
fn verdict(tests: &[ObjectTests]) -> (Status, Option<String>) {
    let total: usize = tests.iter().map(|t| t.methods().count()).sum();
    let failed: Vec<String> = tests
        .iter()
        .flat_map(|t| {
            t.classes.iter().flat_map(move |c| {
                c.methods
                    .iter()
                    .filter(|m| m.failed())
                    .map(move |m| format!("{}.{}.{}", t.name, c.name, m.name))
            })
        })
        .collect();
    if failed.is_empty() {
        return (Status::Success, None);
    }
    let mut names = failed
        .iter()
        .take(10)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if failed.len() > 10 {
        names.push_str(", ...");
    }
    (
        Status::Failed,
        Some(format!("{} of {total} tests failed: {names}", failed.len())),
    )
}

pub(crate) async fn unit(run: &Run, objects: &[Obj]) -> Result<Outcome, Failure> {
    let tests: Vec<ObjectTests> = run_tests(run, objects, "unit")
        .await?
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    let report = match run.format {
        Format::Junit => junit::render(&tests, &run.paths),
        Format::Json => output::json(&json!({ "objects": tests })),
        _ => tests.iter().map(|t| text(t, &run.paths)).collect(),
    };
    let (status, summary) = verdict(&tests);
    Ok(Outcome {
        report,
        status,
        summary,
    })
}

pub(crate) async fn coverage(run: &Run, objects: &[Obj]) -> Result<Outcome, Failure> {
    let runs = run_tests(run, objects, "coverage").await?;
    let covered: Vec<ObjectCoverage> = runs
        .iter()
        .filter_map(|(t, cov)| {
            let obj = Obj {
                name: t.name.clone(),
                object_type: t.object_type.clone(),
            };
            coverage_model::read(&obj, cov)
        })
        .collect();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let report = match run.format {
        Format::Cobertura => cobertura::render(&covered, &run.paths, stamp),
        Format::Lcov => lcov::render(&covered, &run.paths),
        Format::Json => output::json(&json!({ "objects": covered })),
        _ => covered.iter().map(coverage_text).collect(),
    };
    let tests: Vec<ObjectTests> = runs.into_iter().map(|(t, _)| t).collect();
    let (status, summary) = verdict(&tests);
    Ok(Outcome {
        report,
        status,
        summary,
    })
}

fn text(t: &ObjectTests, paths: &super::super::paths::PathScheme) -> String {
    let total = t.methods().count();
    let mut out = format!(
        "{}:{} {} ({})\n",
        t.name,
        t.object_type,
        t.status,
        super::count(total, "test")
    );
    for c in &t.classes {
        out.push_str(&format!("  {}\n", c.name));
        for m in &c.methods {
            let time = m
                .execution_time
                .map(|s| format!(" ({s:.3} s)"))
                .unwrap_or_default();
            if m.failed() {
                out.push_str(&format!(
                    "    FAILED {}{time}: {}\n",
                    m.name,
                    m.message.as_deref().unwrap_or("")
                ));
                if let Some(line) = m.failure_at.line {
                    let part = m.failure_at.part.as_deref().unwrap_or("testclasses");
                    out.push_str(&format!(
                        "           at {}:{line}\n",
                        paths.file(&t.name, &t.object_type, Some(part))
                    ));
                }
            } else {
                out.push_str(&format!("    ok     {}{time}\n", m.name));
            }
        }
    }
    out
}

fn coverage_text(c: &ObjectCoverage) -> String {
    let pct = |r: Option<f64>| r.map_or("n/a".to_string(), |r| format!("{r:.1}%"));
    format!(
        "{}:{}  statements {}  branches {}  procedures {}\n",
        c.name,
        c.object_type,
        pct(c.statement_rate),
        pct(c.branch_rate),
        pct(c.procedure_rate)
    )
}
