//! SARIF 2.1.0 for code scanning: one run whose tool is `adt-ls-native ATC`, one rule per
//! distinct ATC rule (`<checkId>/<messageId>`, described by the check's title), one result
//! per finding with its level (priority 1 `error`, 2 `warning`, 3 `note`) and the physical
//! location: the abapGit-named file (relative, `uriBaseId` `%SRCROOT%`) and the 1-based line
//! and column. Written with serde_json rather than `serde-sarif`, which generates the whole
//! SARIF schema at build time (schemafy and typed-builder) for the dozen fields used here.

use super::super::atc_model::{Finding, Severity};
use super::super::paths::PathScheme;
use serde_json::{json, Map, Value};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The SARIF log of the findings.
pub(crate) fn render(findings: &[Finding], paths: &PathScheme) -> String {
    let mut rules: Vec<(String, Value)> = Vec::new();
    let mut results = Vec::with_capacity(findings.len());
    for f in findings {
        let index = match rules.iter().position(|(id, _)| *id == f.rule_id) {
            Some(i) => i,
            None => {
                rules.push((f.rule_id.clone(), rule(f)));
                rules.len() - 1
            }
        };
        results.push(result(f, index, paths));
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "adt-ls-native ATC",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://www.npmjs.com/package/adt-ls-native",
                "rules": rules.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

fn rule(f: &Finding) -> Value {
    let title = f.check_title.clone().unwrap_or_else(|| f.rule_id.clone());
    json!({
        "id": f.rule_id,
        "name": f.rule_id.replace(['/', ' '], "_"),
        "shortDescription": {"text": title},
        "fullDescription": {"text": format!("ATC check: {title}")},
        "defaultConfiguration": {"level": level(f.severity)},
        "properties": {"tags": ["ATC"]},
    })
}

fn result(f: &Finding, rule_index: usize, paths: &PathScheme) -> Value {
    let uri = paths.file(&f.object_name, &f.object_type, f.part.as_deref());
    let mut region = Map::new();
    if let Some(line) = f.line {
        region.insert("startLine".into(), json!(line));
        if let Some(col) = f.column {
            region.insert("startColumn".into(), json!(col + 1));
        }
    }
    let mut physical = json!({"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}});
    if !region.is_empty() {
        physical["region"] = Value::Object(region);
    }
    json!({
        "ruleId": f.rule_id,
        "ruleIndex": rule_index,
        "level": level(f.severity),
        "message": {"text": f.message},
        "locations": [{
            "physicalLocation": physical,
            "logicalLocations": [{
                "name": f.object_name,
                "kind": "object",
                "fullyQualifiedName": format!("{}:{}", f.object_name, f.object_type),
            }],
        }],
        "properties": {"priority": f.priority, "objectType": f.object_type},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: &str, priority: i64, line: Option<u32>) -> Finding {
        Finding {
            object_name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
            priority: Some(priority),
            severity: Severity::of_priority(Some(priority)),
            rule_id: rule.into(),
            check_title: Some("Extended Program Check".into()),
            message: "msg".into(),
            part: Some("main".into()),
            line,
            column: line.map(|_| 4),
        }
    }

    #[test]
    fn rules_once_results_with_levels_and_regions() {
        let text = render(
            &[
                finding("A/B", 1, Some(13)),
                finding("A/B", 2, None),
                finding("C", 3, Some(2)),
            ],
            &PathScheme::new(None),
        );
        let log: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), 2);
        let r = &run["results"];
        assert_eq!(
            (
                r[0]["level"].as_str(),
                r[1]["level"].as_str(),
                r[2]["level"].as_str()
            ),
            (Some("error"), Some("warning"), Some("note"))
        );
        assert_eq!(r[2]["ruleIndex"], 1);
        let loc = &r[0]["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "src/zcl_x.clas.abap");
        assert_eq!(
            (
                loc["region"]["startLine"].as_u64(),
                loc["region"]["startColumn"].as_u64()
            ),
            (Some(13), Some(5))
        );
        assert!(r[1]["locations"][0]["physicalLocation"]
            .get("region")
            .is_none());
    }
}
