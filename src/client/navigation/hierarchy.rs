//! `typeHierarchy(ref, locator, {direction?})` (docs/wire.md#navigation): `prepareTypeHierarchy` at the
//! position, then the supertypes and/or subtypes of its first item (sent unstripped, as the
//! server needs its `data`); the answer carries only the asked-for lists, all without `data`.

use super::locator::Locator;
use super::queries::with_position;
use super::strip_data;
use crate::client::args::{self, Args};
use crate::client::locate::Locating;
use crate::client::ns_args::or;
use crate::client::Client;
use crate::kernel::error::Result;
use crate::kernel::truthy::truthy;
use serde_json::{json, Map, Value};

/// A list result without `data` on its items (anything else passes through).
fn strip_list(v: Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(strip_data).collect()),
        other => other,
    }
}

/// `typeHierarchy(ref, locator, opts)`.
pub(crate) async fn type_hierarchy(me: Client, a: Args, document: Locating) -> Result<Value> {
    let locator = Locator::arg(&a, 1)?;
    let opts = args::method_options(&a, 2, "navigation.typeHierarchy")?;
    let direction = or(&opts, "direction", json!("both"));
    let wants = |d: &str| direction == json!(d) || direction == json!("both");
    let (supers, subs) = (wants("supertypes"), wants("subtypes"));
    with_position(&me, document, locator, |me, params| async move {
        let items = me
            .active_request("textDocument/prepareTypeHierarchy", Some(params))
            .await?;
        let Some(item) = items
            .as_array()
            .and_then(|l| l.first())
            .filter(|i| truthy(i))
        else {
            return Ok(json!({"item": null, "supertypes": [], "subtypes": []}));
        };
        let mut out = Map::new();
        out.insert("item".into(), strip_data(item));
        for (wanted, key, method) in [
            (supers, "supertypes", "typeHierarchy/supertypes"),
            (subs, "subtypes", "typeHierarchy/subtypes"),
        ] {
            if wanted {
                let list = me
                    .active_request(method, Some(json!({"item": item})))
                    .await?;
                out.insert(key.into(), strip_list(list));
            }
        }
        Ok(Value::Object(out))
    })
    .await
}
