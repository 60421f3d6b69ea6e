//! The `quality` namespace (docs/wire.md#quality): ATC variants and runs, and ABAP Unit with
//! coverage, all on the object's resolved AFF URI. The ATC run (60 s) and the unit-test run
//! (120 s) are raced against `timeoutMs` with the reference's texts.

use super::args::{self, Args};
use super::deadline::{outlive, race};
use super::ns_args::{or, string, timeout_number};
use super::resolve::resolve_target;
use super::Client;
use crate::kernel::error::Result;
use crate::kernel::truthy::truthy;
use serde_json::{json, Value};

const ATC_TIMEOUT_MS: f64 = 60_000.0;
const ATC_HINT: &str = "the ATC run did not finish — the backend may be slow or have no ATC variant configured (see listAtcVariants).";
const UNIT_TIMEOUT_MS: f64 = 120_000.0;
const UNIT_HINT: &str = "the unit-test run did not finish.";

/// Activity, destination, the object's URI and the options of argument 1.
async fn resolve_with_opts(
    client: &Client,
    a: &Args,
    method: &str,
) -> Result<(String, serde_json::Map<String, Value>)> {
    let uri = resolve_target(client, a).await?.uri;
    Ok((uri, args::method_options(a, 1, method)?))
}

/// `listAtcVariants(ref, {query?})`: a blank query asks for `*` (the backend rejects empty).
pub(super) async fn list_atc_variants(me: Client, a: Args) -> Result<Value> {
    let (uri, opts) = resolve_with_opts(&me, &a, "quality.listAtcVariants").await?;
    let query = string(&opts, "query")
        .filter(|q| !q.trim().is_empty())
        .unwrap_or("*");
    me.active_request(
        "adtLs/atc/getCheckVariants",
        Some(json!({"objectUri": uri, "quickPickUserInput": query})),
    )
    .await
}

/// `runAtc(ref, {checkVariant?, timeoutMs?})`: `''` asks for the system default variant.
pub(super) async fn run_atc(me: Client, a: Args) -> Result<Value> {
    let (uri, opts) = resolve_with_opts(&me, &a, "quality.runAtc").await?;
    let timeout_ms = timeout_number(&opts, "timeoutMs")?.unwrap_or(ATC_TIMEOUT_MS);
    let params = json!({"objectUri": uri, "checkVariant": or(&opts, "checkVariant", json!(""))});
    let request = me.active_request_within(
        "adtLs/atc/runCheck",
        Some(params),
        Some(outlive(timeout_ms)),
    );
    race(request, timeout_ms, "runAtc", ATC_HINT).await
}

/// `runUnitTestsWithCoverage(ref, {timeoutMs?})` -> `{status, result, coverage}`; the
/// coverage is fetched with the run's `coverageParams` verbatim (`null` without them).
pub(super) async fn run_unit_tests_with_coverage(me: Client, a: Args) -> Result<Value> {
    let (uri, opts) = resolve_with_opts(&me, &a, "quality.runUnitTestsWithCoverage").await?;
    let timeout_ms = timeout_number(&opts, "timeoutMs")?.unwrap_or(UNIT_TIMEOUT_MS);
    let request = me.active_request_within(
        "adtLs/abapUnit/runTests",
        Some(json!({"uris": [uri], "measurement": "COVERAGE"})),
        Some(outlive(timeout_ms)),
    );
    let run = race(request, timeout_ms, "runUnitTestsWithCoverage", UNIT_HINT).await?;
    let mut coverage = Value::Null;
    if let Some(params) = run.get("coverageParams").filter(|p| truthy(p)) {
        let cov = me
            .active_request("adtLs/coverage/getCoverage", Some(params.clone()))
            .await?;
        coverage = match cov.get("coverage").filter(|c| !c.is_null()) {
            Some(inner) => inner.clone(),
            None => cov,
        };
    }
    let field = |key: &str| run.get(key).filter(|v| !v.is_null()).cloned();
    Ok(json!({
        "status": field("status").unwrap_or(Value::Null),
        "result": field("result").unwrap_or(Value::Null),
        "coverage": coverage,
    }))
}
