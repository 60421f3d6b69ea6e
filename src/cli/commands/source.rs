//! `read` and `write`: an object's source through `source.read` (with `include` and
//! `version`) and `lifecycle.update`. `read` prints the source itself (several objects each
//! under a `==> NAME:TYPE <==` line, as `head` does); `write` takes `--file F` or `-` for stdin
//! (at most 16 MiB).

use super::super::args::{Format, ReadArgs, SourceVersion, WriteArgs};
use super::super::exit::Failure;
use super::super::objects::Obj;
use super::super::output;
use super::{Outcome, Run};
use serde_json::{json, Value};
use std::io::Read;

/// The largest source `write` reads.
const SOURCE_LIMIT: u64 = 16 * 1024 * 1024;

pub(crate) async fn read(run: &Run, args: &ReadArgs, objects: &[Obj]) -> Result<Outcome, Failure> {
    let sources = run
        .each(objects, |obj| async move {
            let mut arg = obj.object_ref();
            if let Some(include) = &args.include {
                arg.insert("include".into(), json!(include));
            }
            if let Some(v) = args.version {
                let v = if v == SourceVersion::Active {
                    "active"
                } else {
                    "inactive"
                };
                arg.insert("version".into(), json!(v));
            }
            let source = run
                .call("source.read", vec![Some(Value::Object(arg))])
                .await?;
            Ok((obj, source.as_str().unwrap_or_default().to_string()))
        })
        .await?;
    let report = match run.format {
        Format::Json => output::json(&json!({"objects": sources.iter().map(|(o, s)| json!({
            "name": o.name, "type": o.object_type, "source": s,
        })).collect::<Vec<_>>()})),
        _ if sources.len() == 1 => sources[0].1.clone(),
        _ => sources
            .iter()
            .map(|(o, s)| {
                format!(
                    "==> {} <==\n{s}{}",
                    o.label(),
                    if s.ends_with('\n') { "" } else { "\n" }
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
    };
    Ok(Outcome::ok(report))
}

pub(crate) async fn write(
    run: &Run,
    args: &WriteArgs,
    objects: &[Obj],
) -> Result<Outcome, Failure> {
    let [obj] = objects else {
        return Err(Failure::usage("write takes exactly one object"));
    };
    let source = read_source(&args.file)?;
    let mut arg = obj.object_ref();
    arg.insert("source".into(), json!(source));
    if let Some(include) = &args.include {
        arg.insert("include".into(), json!(include));
    }
    run.call("lifecycle.update", vec![Some(Value::Object(arg))])
        .await?;
    let report = match run.format {
        Format::Json => output::json(
            &json!({"name": obj.name, "type": obj.object_type, "written": true, "bytes": source.len()}),
        ),
        _ => format!(
            "{}: written ({} bytes); activate it with `adt-ls-native activate {}`\n",
            obj.label(),
            source.len(),
            obj.label()
        ),
    };
    Ok(Outcome::ok(report))
}

/// The new source from a file or stdin (`-`), bounded.
fn read_source(file: &str) -> Result<String, Failure> {
    let mut buf = Vec::new();
    let read = if file == "-" {
        std::io::stdin()
            .lock()
            .take(SOURCE_LIMIT + 1)
            .read_to_end(&mut buf)
    } else {
        let meta =
            std::fs::metadata(file).map_err(|e| Failure::usage(format!("--file {file}: {e}")))?;
        if !meta.is_file() {
            return Err(Failure::usage(format!(
                "--file {file} is not a regular file"
            )));
        }
        std::fs::File::open(file).and_then(|f| f.take(SOURCE_LIMIT + 1).read_to_end(&mut buf))
    };
    read.map_err(|e| Failure::usage(format!("--file {file}: {e}")))?;
    if buf.len() as u64 > SOURCE_LIMIT {
        return Err(Failure::usage(format!(
            "--file {file} is larger than {SOURCE_LIMIT} bytes"
        )));
    }
    String::from_utf8(buf).map_err(|_| Failure::usage(format!("--file {file} is not UTF-8 text")))
}
