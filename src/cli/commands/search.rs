//! `search <pattern> [--type T]... [--max n]`: `repository.search`; text is one line per hit
//! (`NAME:TYPE  description`), json the hits as adt-ls gives them.

use super::super::args::{Format, SearchArgs};
use super::super::exit::Failure;
use super::super::objects::type_code;
use super::super::output;
use super::{Outcome, Run};
use serde_json::{json, Value};

pub(crate) async fn run(run: &Run, args: &SearchArgs) -> Result<Outcome, Failure> {
    let types = args
        .types
        .iter()
        .map(|t| type_code(t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut opts = json!({ "maxResults": args.max.unwrap_or(50) });
    if !types.is_empty() {
        opts["types"] = json!(types);
    }
    let found = run
        .call(
            "repository.search",
            vec![Some(json!(args.pattern)), Some(opts)],
        )
        .await?;
    let hits: Vec<Value> = found
        .get("references")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let report = match run.format {
        Format::Json => output::json(&json!({ "references": hits })),
        _ => text(&hits),
    };
    Ok(Outcome::ok(report))
}

fn text(hits: &[Value]) -> String {
    let field = |h: &Value, k: &str| h.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut out = String::new();
    for h in hits {
        let label = format!("{}:{}", field(h, "name"), field(h, "type"));
        let description = field(h, "description");
        out.push_str(format!("{label:<40} {description}").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_hit() {
        let hits = [
            json!({"name": "ZCL_A", "type": "CLAS/OC", "description": "A class"}),
            json!({"name": "ZIF_B", "type": "INTF/OI"}),
        ];
        assert_eq!(
            text(&hits),
            format!("{:<40} A class\nZIF_B:INTF/OI\n", "ZCL_A:CLAS/OC")
        );
    }
}
