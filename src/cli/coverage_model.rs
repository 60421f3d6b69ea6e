//! Coverage as the reports need it, read from `quality.runUnitTestsWithCoverage`'s
//! `coverage.objects[]`: per object the statement, branch and procedure rates adt-ls reports
//! (percent), their counts when it sends them, and statement-level lines
//! (`lines[]: {uri: '<source URI>#start=<line>,<column>', hits, branches?: {total, covered}}`)
//! when it sends them. Rates are never recomputed: the object rates in every report are
//! adt-ls's (docs/cli.md#formats).

use super::objects::Obj;
use super::paths::parse_adt_uri;
use serde::Serialize;
use serde_json::Value;

/// `executed` of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Count {
    pub executed: u64,
    pub total: u64,
}

/// One statement-level line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Line {
    pub part: String,
    pub line: u32,
    pub hits: u64,
    pub branches: Option<Count>,
}

/// The coverage of one object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ObjectCoverage {
    pub name: String,
    #[serde(rename = "type")]
    pub object_type: String,
    /// Percent, 0 to 100.
    pub statement_rate: Option<f64>,
    pub branch_rate: Option<f64>,
    pub procedure_rate: Option<f64>,
    pub statements: Option<Count>,
    pub branches: Option<Count>,
    pub procedures: Option<Count>,
    pub lines: Vec<Line>,
}

fn count(v: Option<&Value>) -> Option<Count> {
    let v = v?;
    let executed = v.get("executed").and_then(Value::as_u64)?;
    let total = v.get("total").and_then(Value::as_u64)?;
    Some(Count {
        executed: executed.min(total),
        total,
    })
}

fn rate(v: &Value, key: &str) -> Option<f64> {
    v.get(key)
        .and_then(Value::as_f64)
        .filter(|r| r.is_finite())
        .map(|r| r.clamp(0.0, 100.0))
}

/// The coverage of the objects asked for, from one run's `coverage` (`null` when none).
pub(crate) fn read(obj: &Obj, coverage: &Value) -> Option<ObjectCoverage> {
    let entries = coverage.get("objects").and_then(Value::as_array)?;
    let entry = entries
        .iter()
        .find(|o| {
            o.get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| n.eq_ignore_ascii_case(&obj.name))
        })
        .or(entries.first())?;
    Some(ObjectCoverage {
        name: obj.name.clone(),
        object_type: obj.object_type.clone(),
        statement_rate: rate(entry, "statementCoverage"),
        branch_rate: rate(entry, "branchCoverage"),
        procedure_rate: rate(entry, "procedureCoverage"),
        statements: count(entry.get("statements")),
        branches: count(entry.get("branches")),
        procedures: count(entry.get("procedures")),
        lines: lines(entry),
    })
}

fn lines(entry: &Value) -> Vec<Line> {
    let mut out: Vec<Line> = entry
        .get("lines")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|l| {
            let at = parse_adt_uri(l.get("uri")?.as_str()?);
            let branches = l.get("branches").and_then(|b| {
                let total = b.get("total")?.as_u64()?;
                let covered = b.get("covered")?.as_u64()?;
                Some(Count {
                    executed: covered.min(total),
                    total,
                })
            });
            Some(Line {
                part: at.part.unwrap_or_else(|| "main".into()),
                line: at.line?,
                hits: l.get("hits").and_then(Value::as_u64).unwrap_or(0),
                branches,
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.part, a.line).cmp(&(&b.part, b.line)));
    out.dedup_by(|b, a| {
        let same = a.part == b.part && a.line == b.line;
        if same {
            a.hits = a.hits.max(b.hits);
        }
        same
    });
    out
}

impl ObjectCoverage {
    /// The statement rate as a fraction (0 to 1).
    pub(crate) fn line_fraction(&self) -> f64 {
        self.statement_rate.map_or(0.0, |r| r / 100.0)
    }

    /// The branch rate as a fraction (0 to 1).
    pub(crate) fn branch_fraction(&self) -> f64 {
        self.branch_rate.map_or(0.0, |r| r / 100.0)
    }

    /// The parts that have lines, `main` first.
    pub(crate) fn parts(&self) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        for l in &self.lines {
            if !parts.contains(&l.part) {
                parts.push(l.part.clone());
            }
        }
        parts.sort_by_key(|p| (p != "main", p.clone()));
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rates_counts_and_lines() {
        let obj = Obj {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
        };
        let cov = json!({"objects": [{"name": "ZCL_X", "statementCoverage": 40, "branchCoverage": 50,
        "statements": {"executed": 2, "total": 5}, "branches": {"executed": 1, "total": 2},
        "lines": [
            {"uri": "/sap/bc/adt/oo/classes/zcl_x/source/main#start=9,6", "hits": 1},
            {"uri": "/sap/bc/adt/oo/classes/zcl_x/source/main#start=8,4", "hits": 1, "branches": {"total": 2, "covered": 1}},
            {"uri": "/sap/bc/adt/oo/classes/zcl_x/source/main#start=8,10", "hits": 3},
            {"uri": "no position", "hits": 1}
        ]}]});
        let c = read(&obj, &cov).unwrap();
        assert_eq!((c.line_fraction(), c.branch_fraction()), (0.4, 0.5));
        assert_eq!(
            c.statements,
            Some(Count {
                executed: 2,
                total: 5
            })
        );
        assert_eq!(c.lines.len(), 2);
        assert_eq!((c.lines[0].line, c.lines[0].hits), (8, 3));
        assert_eq!(
            c.lines[0].branches,
            Some(Count {
                executed: 1,
                total: 2
            })
        );
        assert_eq!(c.parts(), ["main"]);
        assert!(read(&obj, &Value::Null).is_none());
        let bare = read(
            &obj,
            &json!({"objects": [{"name": "ZCL_X", "statementCoverage": 250}]}),
        )
        .unwrap();
        assert_eq!(
            (bare.statement_rate, bare.branch_rate, bare.lines.len()),
            (Some(100.0), None, 0)
        );
    }
}
