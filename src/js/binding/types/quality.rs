//! The results of `quality.runAtc` and `quality.runUnitTestsWithCoverage`.

use napi_derive::napi;
use serde_json::Value;

/// `runAtc`: adt-ls's `adtLs/atc/runCheck` answer.
#[napi(object)]
pub struct AtcRunResult {
    /// The findings (empty or absent when the object is clean).
    pub atc_run_check_results: Option<Vec<AtcFinding>>,
}

/// One ATC finding.
#[napi(object)]
pub struct AtcFinding {
    /// The name of the object the finding is in.
    pub object_name: Option<String>,
    /// Its ADT type code, e.g. `CLAS/OC`.
    pub object_type: Option<String>,
    /// The object's ADT URI.
    pub uri: Option<String>,
    /// 1 error, 2 warning, 3 information.
    pub priority: Option<f64>,
    /// The ATC check that reported it.
    pub check_title: Option<String>,
    /// The finding's message.
    pub message_title: Option<String>,
    /// Where in the source it is.
    pub location: Option<AtcLocation>,
}

/// Where an ATC finding is: the source part and its 1-based line.
#[napi(object)]
pub struct AtcLocation {
    /// The source part, e.g. `main` or a class include such as `testclasses`.
    pub part: Option<String>,
    /// 1-based line in that part.
    pub line: Option<f64>,
}

/// `runUnitTestsWithCoverage`: the run's status and result, and the coverage (`null` when
/// the run produced no coverage, e.g. without tests).
#[napi(object)]
pub struct UnitTestsWithCoverage {
    /// The run's status as adt-ls reports it (e.g. `PASSED`, `FAILED`, `NO_TESTS`); `null`
    /// when it reports none.
    #[napi(ts_type = "string | null")]
    pub status: Value,
    /// The counts and test classes; `null` when adt-ls reports none.
    #[napi(ts_type = "UnitTestRunResult | null")]
    pub result: Value,
    /// The coverage (`adtLs/coverage/getCoverage`); `null` when the run measured none.
    #[napi(ts_type = "UnitTestCoverage | null")]
    pub coverage: Value,
}

/// The counts and test classes of an ABAP Unit run.
#[napi(object)]
pub struct UnitTestRunResult {
    /// How many test methods ran.
    pub total: Option<f64>,
    /// How many passed.
    pub passed: Option<f64>,
    /// How many failed.
    pub failed: Option<f64>,
    /// The test classes with their methods and results, as adt-ls sends them.
    #[napi(ts_type = "unknown[]")]
    pub test_classes: Option<Vec<Value>>,
}

/// Coverage per object of an ABAP Unit run (`adtLs/coverage/getCoverage`).
#[napi(object)]
pub struct UnitTestCoverage {
    /// Coverage of each object under test.
    pub objects: Option<Vec<ObjectCoverage>>,
    /// The names of the test classes that ran.
    pub test_classes: Option<Vec<String>>,
}

/// Coverage of one object, in percent.
#[napi(object)]
pub struct ObjectCoverage {
    /// The object's name.
    pub name: Option<String>,
    /// The object's ADT type code, e.g. `CLAS/OC`.
    #[napi(js_name = "type")]
    pub object_type: Option<String>,
    /// The object's ADT URI.
    pub uri: Option<String>,
    /// Statements executed, 0 to 100.
    pub statement_coverage: Option<f64>,
    /// Branches taken, 0 to 100.
    pub branch_coverage: Option<f64>,
    /// Procedures (methods, forms, function modules) entered, 0 to 100.
    pub procedure_coverage: Option<f64>,
}
