//! `completion(ref, locator, {maxItems?, resolve?, resolveLimit?})` (docs/wire.md#navigation): the items
//! (array or `.items`) capped to `maxItems` (50) with their opaque `data` stripped; with
//! `resolve`, the first `resolveLimit` (25) capped items that carry `data` are sent to
//! `completionItem/resolve` in parallel (an item whose resolve fails stays as it was).

use super::locator::Locator;
use super::queries::with_position;
use super::strip_data;
use crate::client::args::{self, Args};
use crate::client::locate::Locating;
use crate::client::ns_args::{flag, number};
use crate::client::Client;
use crate::kernel::error::Result;
use futures_util::future::join_all;
use serde_json::{json, Map, Value};

const DEFAULT_MAX_ITEMS: f64 = 50.0;
const DEFAULT_RESOLVE_LIMIT: f64 = 25.0;

/// `items.slice(0, end)` with JS's handling of a negative or fractional end.
fn js_slice_to(items: &[Value], end: f64) -> &[Value] {
    let len = items.len() as f64;
    let end = if end.is_nan() { 0.0 } else { end.trunc() };
    let end = if end < 0.0 {
        (len + end).max(0.0)
    } else {
        end.min(len)
    };
    &items[..end as usize]
}

/// Without `resolve`, every item loses `data`; `null` or another non-object stays.
fn slim(items: &[Value]) -> Vec<Value> {
    items.iter().map(strip_data).collect()
}

/// An item as the resolve path returns it when not resolved: an object without `data`.
fn unresolved(item: &Value) -> Value {
    match item {
        Value::Object(_) => strip_data(item),
        _ => json!({}),
    }
}

/// `completion(ref, locator, opts)`.
pub(crate) async fn completion(me: Client, a: Args, document: Locating) -> Result<Value> {
    let locator = Locator::arg(&a, 1)?;
    let opts = args::method_options(&a, 2, "navigation.completion")?;
    let max_items = number(&opts, "maxItems")?.unwrap_or(DEFAULT_MAX_ITEMS);
    let limit = number(&opts, "resolveLimit")?.unwrap_or(DEFAULT_RESOLVE_LIMIT);
    let resolve = flag(&opts, "resolve");
    with_position(&me, document, locator, |me, params| async move {
        let res = me
            .active_request("textDocument/completion", Some(params))
            .await?;
        let (items, incomplete) = match &res {
            Value::Array(list) => (list.as_slice(), None),
            other => (
                other
                    .get("items")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default(),
                other.get("isIncomplete").cloned(),
            ),
        };
        let capped = js_slice_to(items, max_items);
        let mut out = Map::new();
        if let Some(v) = incomplete {
            out.insert("isIncomplete".into(), v);
        }
        out.insert("total".into(), json!(items.len()));
        if resolve {
            let (resolved, list) = resolve_items(&me, capped, limit).await;
            out.insert("resolved".into(), json!(resolved));
            out.insert("items".into(), Value::Array(list));
        } else {
            out.insert("items".into(), Value::Array(slim(capped)));
        }
        Ok(Value::Object(out))
    })
    .await
}

/// Resolve the first `limit` items that carry `data` (all requests on the wire at once).
async fn resolve_items(client: &Client, items: &[Value], limit: f64) -> (usize, Vec<Value>) {
    let mut count = 0usize;
    let mut pending = Vec::with_capacity(items.len());
    for item in items {
        let has_data = item.as_object().is_some_and(|m| m.contains_key("data"));
        if !has_data || count as f64 >= limit {
            pending.push(None);
            continue;
        }
        count += 1;
        pending.push(Some(
            client.active_request("completionItem/resolve", Some(item.clone())),
        ));
    }
    let answers = join_all(pending.into_iter().map(|p| async move {
        match p {
            Some(request) => Some(request.await),
            None => None,
        }
    }))
    .await;
    let list = items
        .iter()
        .zip(answers)
        .map(|(item, answer)| match answer {
            Some(Ok(full)) if !full.is_null() => unresolved(&full),
            _ => unresolved(item),
        })
        .collect();
    (count, list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slicing_like_js() {
        let items: Vec<Value> = (0..5).map(|i| json!(i)).collect();
        assert_eq!(js_slice_to(&items, 2.0).len(), 2);
        assert_eq!(js_slice_to(&items, 2.7).len(), 2);
        assert_eq!(js_slice_to(&items, 50.0).len(), 5);
        assert_eq!(js_slice_to(&items, -1.0).len(), 4);
        assert_eq!(js_slice_to(&items, -9.0).len(), 0);
    }

    #[test]
    fn data_is_stripped() {
        let items = vec![
            json!({"label": "a", "data": 1}),
            json!({"label": "b"}),
            Value::Null,
        ];
        assert_eq!(
            slim(&items),
            vec![json!({"label": "a"}), json!({"label": "b"}), Value::Null]
        );
        assert_eq!(unresolved(&Value::Null), json!({}));
    }
}
