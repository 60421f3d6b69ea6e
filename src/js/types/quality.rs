//! The results of `quality.runAtc` and `quality.runUnitTestsWithCoverage`.

use napi_derive::napi;
use serde_json::Value;

/// `runAtc`: adt-ls's `adtLs/atc/runCheck` answer.
#[napi(object)]
pub struct AtcRunResult {
    pub atc_run_check_results: Option<Vec<AtcFinding>>,
}

/// One ATC finding.
#[napi(object)]
pub struct AtcFinding {
    pub object_name: Option<String>,
    pub object_type: Option<String>,
    /// The object's ADT URI.
    pub uri: Option<String>,
    /// 1 error, 2 warning, 3 information.
    pub priority: Option<f64>,
    pub check_title: Option<String>,
    pub message_title: Option<String>,
    pub location: Option<AtcLocation>,
}

/// Where an ATC finding is: the source part and its 1-based line.
#[napi(object)]
pub struct AtcLocation {
    pub part: Option<String>,
    pub line: Option<f64>,
}

/// `runUnitTestsWithCoverage`: the run's status and result, and the coverage (`null` when
/// the run produced no coverage, e.g. without tests).
#[napi(object)]
pub struct UnitTestsWithCoverage {
    #[napi(ts_type = "string | null")]
    pub status: Value,
    #[napi(ts_type = "UnitTestRunResult | null")]
    pub result: Value,
    #[napi(ts_type = "UnitTestCoverage | null")]
    pub coverage: Value,
}

/// The counts and test classes of an ABAP Unit run.
#[napi(object)]
pub struct UnitTestRunResult {
    pub total: Option<f64>,
    pub passed: Option<f64>,
    pub failed: Option<f64>,
    #[napi(ts_type = "unknown[]")]
    pub test_classes: Option<Vec<Value>>,
}

/// Coverage per object of an ABAP Unit run (`adtLs/coverage/getCoverage`).
#[napi(object)]
pub struct UnitTestCoverage {
    pub objects: Option<Vec<ObjectCoverage>>,
    pub test_classes: Option<Vec<String>>,
}

/// Coverage of one object, in percent.
#[napi(object)]
pub struct ObjectCoverage {
    pub name: Option<String>,
    #[napi(js_name = "type")]
    pub object_type: Option<String>,
    pub uri: Option<String>,
    pub statement_coverage: Option<f64>,
    pub branch_coverage: Option<f64>,
    pub procedure_coverage: Option<f64>,
}
