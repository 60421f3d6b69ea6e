//! JUnit XML (the Jenkins/Ant dialect every CI reads) with `quick-junit`: one `<testsuite>`
//! per test class (`ZCL_X.LTCL_TEST`), one `<testcase>` per test method with `classname` (the
//! suite), `time`, `file` and `line` (where the method is, in the abapGit-named test include),
//! and for a failure `<failure message type>` whose text lists the alert's details and the
//! failing line (`at src/zcl_x.clas.testclasses.abap:11`). The test id is
//! `<classname>.<method>`.

use super::super::paths::{AdtPosition, PathScheme};
use super::super::unit_model::{ObjectTests, TestClass, TestMethod};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::time::Duration;

/// The report of a run over several objects.
pub(crate) fn render(objects: &[ObjectTests], paths: &PathScheme) -> String {
    let mut report = Report::new("adt-ls-native unit");
    for object in objects {
        for class in &object.classes {
            report.add_test_suite(suite(object, class, paths));
        }
    }
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- the JUnit report could not be written: {e} -->\n"))
}

/// Where a position is, as a file path of the report.
fn file_of(object: &ObjectTests, at: &AdtPosition, paths: &PathScheme) -> String {
    let name = at.name.as_deref().unwrap_or(&object.name);
    let object_type = at.object_type.as_deref().unwrap_or(&object.object_type);
    paths.file(
        name,
        object_type,
        Some(at.part.as_deref().unwrap_or("testclasses")),
    )
}

fn suite(object: &ObjectTests, class: &TestClass, paths: &PathScheme) -> TestSuite {
    let classname = format!("{}.{}", object.name, class.name);
    let mut suite = TestSuite::new(classname.clone());
    let total: f64 = class.methods.iter().filter_map(|m| m.execution_time).sum();
    suite.set_time(seconds(total));
    suite.extra.insert(
        "file".into(),
        file_of(object, &class.position, paths).into(),
    );
    for method in &class.methods {
        suite.add_test_case(case(object, &classname, method, paths));
    }
    suite
}

fn case(object: &ObjectTests, classname: &str, m: &TestMethod, paths: &PathScheme) -> TestCase {
    let status = if m.skipped() {
        TestCaseStatus::skipped()
    } else if m.failed() {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status.set_message(m.message.clone().unwrap_or_else(|| m.status.clone()));
        status.set_type(m.kind.clone().unwrap_or_else(|| m.status.clone()));
        let mut text = m.details.join("\n");
        if let Some(line) = m.failure_at.line {
            let file = file_of(object, &m.failure_at, paths);
            text = format!("{text}\nat {file}:{line}").trim_start().to_string();
        }
        status.set_description(text);
        status
    } else {
        TestCaseStatus::success()
    };
    let mut case = TestCase::new(m.name.clone(), status);
    case.set_classname(classname.to_string());
    if let Some(t) = m.execution_time {
        case.set_time(seconds(t));
    }
    let at = if m.failed() && m.failure_at.line.is_some() {
        &m.failure_at
    } else {
        &m.position
    };
    if at.line.is_some() || at.part.is_some() {
        case.extra
            .insert("file".into(), file_of(object, at, paths).into());
    }
    if let Some(line) = at.line {
        case.extra.insert("line".into(), line.to_string().into());
    }
    case
}

fn seconds(s: f64) -> Duration {
    Duration::try_from_secs_f64(s.max(0.0)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::objects::Obj;
    use serde_json::json;

    #[test]
    fn suites_per_class_cases_per_method_with_failures_and_positions() {
        let obj = Obj {
            name: "ZCL_X".into(),
            object_type: "CLAS/OC".into(),
        };
        let uri = |l: u32| format!("/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start={l},0");
        let run = json!({"status": "FAILED", "result": {"testClasses": [{"name": "LTCL_A", "uri": uri(1), "methods": [
            {"name": "OK", "status": "PASSED", "executionTime": 0.25, "uri": uri(5)},
            {"name": "BAD", "status": "FAILED", "message": "sign <is> broken", "executionTime": 0.5, "uri": uri(8),
             "alerts": [{"kind": "failedAssertion", "details": ["Test LTCL_A->BAD"], "stack": [{"uri": uri(9)}]}]}
        ]}]}});
        let xml = render(&[ObjectTests::read(&obj, &run)], &PathScheme::new(None));
        assert!(
            xml.contains(r#"<testsuite name="ZCL_X.LTCL_A" tests="2""#),
            "{xml}"
        );
        assert!(xml.contains(r#"failures="1""#), "{xml}");
        assert!(xml.contains(r#"<testcase name="OK" classname="ZCL_X.LTCL_A" time="0.250" file="src/zcl_x.clas.testclasses.abap" line="5"/>"#), "{xml}");
        assert!(xml.contains(r#"line="9""#), "{xml}");
        assert!(xml.contains(r#"<failure message="sign &lt;is&gt; broken" type="failedAssertion">Test LTCL_A-&gt;BAD"#), "{xml}");
        assert!(
            xml.contains("at src/zcl_x.clas.testclasses.abap:9</failure>"),
            "{xml}"
        );
    }
}
