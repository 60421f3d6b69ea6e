//! ABAP Unit results as the reports need them, read from `quality.runUnitTestsWithCoverage`'s
//! `result` (`testClasses[].methods[]`): per test class its methods with status, execution
//! time, message, and where they are (the method's ADT URI, and the failing line from the
//! first alert's stack). Fields adt-ls does not send stay empty; nothing is made up.

use super::objects::Obj;
use super::paths::{parse_adt_uri, AdtPosition};
use serde::Serialize;
use serde_json::Value;

/// The tests of one object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ObjectTests {
    pub name: String,
    #[serde(rename = "type")]
    pub object_type: String,
    /// adt-ls's status (`PASSED`, `FAILED`, `NO_TESTS`).
    pub status: String,
    pub classes: Vec<TestClass>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct TestClass {
    pub name: String,
    #[serde(skip)]
    pub position: AdtPosition,
    pub methods: Vec<TestMethod>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TestMethod {
    pub name: String,
    pub status: String,
    /// Seconds.
    pub execution_time: Option<f64>,
    pub message: Option<String>,
    pub details: Vec<String>,
    /// `failedAssertion`, `exception`, ... (the first alert's kind).
    pub kind: Option<String>,
    #[serde(skip)]
    pub position: AdtPosition,
    /// Where it failed (the first stack entry of the first alert).
    #[serde(skip)]
    pub failure_at: AdtPosition,
}

impl TestMethod {
    pub(crate) fn failed(&self) -> bool {
        !matches!(self.status.as_str(), "PASSED" | "SKIPPED")
    }

    pub(crate) fn skipped(&self) -> bool {
        self.status == "SKIPPED"
    }
}

impl ObjectTests {
    /// Read one object's run (`{status, result: {testClasses}}`).
    pub(crate) fn read(obj: &Obj, run: &Value) -> ObjectTests {
        let classes = run
            .pointer("/result/testClasses")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(read_class)
            .collect();
        ObjectTests {
            name: obj.name.clone(),
            object_type: obj.object_type.clone(),
            status: text(run, "status").unwrap_or_default(),
            classes,
        }
    }

    pub(crate) fn methods(&self) -> impl Iterator<Item = &TestMethod> {
        self.classes.iter().flat_map(|c| c.methods.iter())
    }
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn read_class(c: &Value) -> TestClass {
    TestClass {
        name: text(c, "name").unwrap_or_default(),
        position: text(c, "uri")
            .map(|u| parse_adt_uri(&u))
            .unwrap_or_default(),
        methods: c
            .get("methods")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(read_method)
            .collect(),
    }
}

fn read_method(m: &Value) -> TestMethod {
    let alert = m.pointer("/alerts/0");
    let mut details: Vec<String> = alert
        .and_then(|a| a.get("details"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    let stack = alert.and_then(|a| a.get("stack")).and_then(Value::as_array);
    for entry in stack.into_iter().flatten() {
        if let Some(d) = text(entry, "description") {
            details.push(d);
        }
    }
    let failure_at = stack
        .and_then(|s| s.first())
        .and_then(|e| text(e, "uri"))
        .map(|u| parse_adt_uri(&u))
        .unwrap_or_default();
    TestMethod {
        name: text(m, "name").unwrap_or_default(),
        status: text(m, "status").unwrap_or_else(|| "PASSED".into()),
        execution_time: m.get("executionTime").and_then(Value::as_f64),
        message: text(m, "message").or_else(|| alert.and_then(|a| text(a, "title"))),
        details,
        kind: alert.and_then(|a| text(a, "kind")),
        position: text(m, "uri")
            .map(|u| parse_adt_uri(&u))
            .unwrap_or_default(),
        failure_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn classes_methods_failures_and_positions() {
        let obj = Obj {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
        };
        let run = json!({"status": "FAILED", "result": {"testClasses": [{
        "name": "LTCL_A", "uri": "/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start=1,0",
        "methods": [
            {"name": "OK", "status": "PASSED", "executionTime": 0.002},
            {"name": "BAD", "status": "FAILED", "message": "boom",
             "uri": "/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start=9,2",
             "alerts": [{"kind": "failedAssertion", "title": "boom", "details": ["d1"],
                         "stack": [{"uri": "/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start=11,4", "description": "Line 11"}]}]}
        ]}]}});
        let t = ObjectTests::read(&obj, &run);
        assert_eq!(t.status, "FAILED");
        let methods: Vec<_> = t.methods().collect();
        assert!(!methods[0].failed());
        assert_eq!(methods[0].execution_time, Some(0.002));
        assert!(methods[1].failed());
        assert_eq!(methods[1].kind.as_deref(), Some("failedAssertion"));
        assert_eq!(methods[1].details, ["d1", "Line 11"]);
        assert_eq!(methods[1].position.line, Some(9));
        assert_eq!(methods[1].failure_at.line, Some(11));
        assert_eq!(t.classes[0].position.part.as_deref(), Some("testclasses"));
        let empty = ObjectTests::read(&obj, &json!({"status": "NO_TESTS", "result": null}));
        assert!(empty.classes.is_empty());
    }
}
