//! ATC findings as the reports need them, read from `quality.runAtc`'s `atcRunCheckResults`:
//! the object, priority (1 error, 2 warning, 3 and above information), the rule (`checkId` and
//! `messageId` when adt-ls sends them, else the check's title) and the position (the
//! location's ADT URI with `#start=`, else its part and line, else the finding's URI).

use super::args::FailOn;
use super::objects::Obj;
use super::paths::parse_adt_uri;
use serde::Serialize;
use serde_json::Value;

/// How serious a finding is, from its ATC priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub(crate) fn of_priority(priority: Option<i64>) -> Severity {
        match priority {
            Some(1) => Severity::Error,
            Some(2) => Severity::Warning,
            _ => Severity::Info,
        }
    }

    /// True when `--fail-on` counts this finding.
    pub(crate) fn fails(self, fail_on: FailOn) -> bool {
        match fail_on {
            FailOn::Never => false,
            FailOn::Error => self == Severity::Error,
            FailOn::Warning => self <= Severity::Warning,
            FailOn::Info => true,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Finding {
    pub object_name: String,
    pub object_type: String,
    pub priority: Option<i64>,
    pub severity: Severity,
    /// `<checkId>/<messageId>`, or what of them adt-ls sent, or the check's title.
    pub rule_id: String,
    pub check_title: Option<String>,
    pub message: String,
    /// The source part (`main`, `testclasses`, ...).
    pub part: Option<String>,
    /// 1-based.
    pub line: Option<u32>,
    /// 0-based, as ADT counts.
    pub column: Option<u32>,
}

fn text(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// The findings of one object's run.
pub(crate) fn read(obj: &Obj, run: &Value) -> Vec<Finding> {
    run.get("atcRunCheckResults")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|f| read_one(obj, f))
        .collect()
}

fn read_one(obj: &Obj, f: &Value) -> Finding {
    let at = text(f, "/location/uri")
        .or_else(|| text(f, "/uri"))
        .map(|u| parse_adt_uri(&u))
        .unwrap_or_default();
    let line = at.line.or_else(|| {
        f.pointer("/location/line")
            .and_then(Value::as_u64)
            .and_then(|l| u32::try_from(l).ok())
            .filter(|l| *l > 0)
    });
    let column = at.column.or_else(|| {
        f.pointer("/location/column")
            .and_then(Value::as_u64)
            .and_then(|c| u32::try_from(c).ok())
    });
    let priority = f.get("priority").and_then(Value::as_i64);
    let check_title = text(f, "/checkTitle");
    let rule_id = match (text(f, "/checkId"), text(f, "/messageId")) {
        (Some(c), Some(m)) => format!("{c}/{m}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => check_title.clone().unwrap_or_else(|| "ATC".into()),
    };
    Finding {
        object_name: text(f, "/objectName").unwrap_or_else(|| obj.name.clone()),
        object_type: text(f, "/objectType").unwrap_or_else(|| obj.object_type.clone()),
        priority,
        severity: Severity::of_priority(priority),
        rule_id,
        check_title,
        message: text(f, "/messageTitle").unwrap_or_else(|| "ATC finding".into()),
        part: text(f, "/location/part").or(at.part),
        line,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj() -> Obj {
        Obj {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
        }
    }

    #[test]
    fn findings_with_rules_and_positions() {
        let run = json!({"atcRunCheckResults": [
            {"priority": 1, "checkId": "CL_CHK", "messageId": "BP", "checkTitle": "Check", "messageTitle": "bp",
             "location": {"part": "main", "line": 4, "uri": "/sap/bc/adt/oo/classes/zcl_x/source/main#start=13,4"}},
            {"priority": 2, "checkTitle": "Extended", "messageTitle": "unused", "location": {"part": "testclasses", "line": 7, "column": 2}},
            {"priority": 3, "uri": "/sap/bc/adt/oo/classes/zcl_x/includes/macros#start=2"}
        ]});
        let f = read(&obj(), &run);
        assert_eq!(
            (f[0].rule_id.as_str(), f[0].line, f[0].column),
            ("CL_CHK/BP", Some(13), Some(4))
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(
            (
                f[1].rule_id.as_str(),
                f[1].part.as_deref(),
                f[1].line,
                f[1].column
            ),
            ("Extended", Some("testclasses"), Some(7), Some(2))
        );
        assert_eq!(
            (f[2].part.as_deref(), f[2].line, f[2].severity),
            (Some("macros"), Some(2), Severity::Info)
        );
        assert_eq!(f[2].object_name, "ZCL_X");
        assert!(read(&obj(), &json!({"atcRunCheckResults": null})).is_empty());
    }

    #[test]
    fn fail_on_counts_by_severity() {
        use FailOn::*;
        assert!(Severity::Error.fails(Error) && !Severity::Warning.fails(Error));
        assert!(Severity::Warning.fails(Warning) && !Severity::Info.fails(Warning));
        assert!(Severity::Info.fails(Info));
        assert!(!Severity::Error.fails(Never));
    }
}
