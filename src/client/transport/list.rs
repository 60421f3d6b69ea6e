//! `transport.list({limit?, query?})` (docs/wire.md#transport): `searchTransports` (note its
//! `destinationId` key) with cold retry on transient errors; still transient -> revive the
//! session (result ignored) and fetch once more. The answer is normalised to a list (array,
//! `.transports` or `.requests`; an unrecognised non-array shape comes back verbatim),
//! filtered by a case-insensitive substring of each item's JSON and capped (default 100).

use crate::client::args::{self, Args};
use crate::client::ns_args::{number, string};
use crate::client::repository::revive_fn;
use crate::client::Client;
use crate::kernel::error::{Error, Result};
use crate::resilience::classify::is_transient_cold_error;
use crate::resilience::cold::{with_cold_retry, ColdRetry};
use serde_json::{json, Value};

const DEFAULT_LIMIT: f64 = 100.0;

/// `searchTransports` with cold retry on transient errors only.
async fn fetch(client: &Client, dest: &str) -> Result<Value> {
    let params = json!({"destinationId": dest});
    with_cold_retry(
        ColdRetry::default(),
        || client.active_request("adtLs/cts/transport/searchTransports", Some(params.clone())),
        |_| false,
        |e: &Error| is_transient_cold_error(&e.message),
    )
    .await
}

/// `list(opts)`.
pub(crate) async fn list(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let opts = args::method_options(&a, 0, "transport.list")?;
    let limit = number(&opts, "limit")?;
    let query = string(&opts, "query").map(|q| q.trim().to_lowercase());
    let raw = match fetch(&me, &dest).await {
        Ok(raw) => raw,
        Err(e) => match revive_fn(&me) {
            Some(revive) if is_transient_cold_error(&e.message) => {
                revive().await;
                fetch(&me, &dest).await?
            }
            _ => return Err(e),
        },
    };
    Ok(shape(raw, query.as_deref(), limit))
}

/// The list inside a search answer (empty when there is none).
fn items(raw: &Value) -> &[Value] {
    let listed = |key: &str| raw.get(key).and_then(Value::as_array);
    raw.as_array()
        .or_else(|| listed("transports"))
        .or_else(|| listed("requests"))
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// Normalise, filter and cap: `{total, matched, returned, truncated, transports}`.
fn shape(raw: Value, query: Option<&str>, limit: Option<f64>) -> Value {
    let all = items(&raw);
    if all.is_empty() && !raw.is_array() {
        return raw;
    }
    let matched: Vec<&Value> = match query.filter(|q| !q.is_empty()) {
        Some(q) => all
            .iter()
            .filter(|t| t.to_string().to_lowercase().contains(q))
            .collect(),
        None => all.iter().collect(),
    };
    let limit = limit.filter(|l| *l > 0.0).unwrap_or(DEFAULT_LIMIT);
    let take = limit.trunc().min(matched.len() as f64) as usize;
    let transports: Vec<Value> = matched.iter().take(take).map(|t| (*t).clone()).collect();
    json!({
        "total": all.len(),
        "matched": matched.len(),
        "returned": transports.len(),
        "truncated": transports.len() < matched.len(),
        "transports": transports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(n: &str, d: &str) -> Value {
        json!({"number": n, "description": d})
    }

    #[test]
    fn shapes_are_normalised_filtered_and_capped() {
        let list = json!([
            tr("A4HK1", "Flight fixes"),
            tr("A4HK2", "Other"),
            tr("A4HK3", "flight UI")
        ]);
        assert_eq!(
            shape(list.clone(), Some("flight"), None),
            json!({"total": 3, "matched": 2, "returned": 2, "truncated": false,
                "transports": [tr("A4HK1", "Flight fixes"), tr("A4HK3", "flight UI")]})
        );
        let capped = shape(json!({"transports": list.clone()}), None, Some(1.0));
        assert_eq!(capped["returned"], json!(1));
        assert_eq!(capped["truncated"], json!(true));
        assert_eq!(
            shape(json!({"requests": list}), None, Some(0.0))["returned"],
            json!(3)
        );
    }

    #[test]
    fn unknown_shapes_come_back_verbatim() {
        assert_eq!(shape(json!({"x": 1}), None, None), json!({"x": 1}));
        assert_eq!(
            shape(json!({"transports": []}), None, None),
            json!({"transports": []})
        );
        assert_eq!(shape(Value::Null, None, None), Value::Null);
        assert_eq!(shape(json!([]), None, None)["total"], json!(0));
    }
}
