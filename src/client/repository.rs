//! The `repository` namespace (docs/wire.md#repository): quick search (cold retry on request, then
//! search-with-revive; any hit marks the backend live; the type filter through
//! `search_types`), users, ADT path to AFF URI, and file operations by repotree URI, each
//! queued on its object (docs/wire.md#the-object-queue).

use super::args::{self, Args};
use super::connect_session::{has_references, revive_if_dead};
use super::ns_args::{given, js_number};
use super::object_queue::{Place, Turn};
use super::search_types::search_types;
use super::Client;
use crate::kernel::arg_error::{type_error, Received};
use crate::kernel::error::{Error, Result};
use crate::resilience::classify::is_transient_cold_error;
use crate::resilience::cold::{with_cold_retry, ColdRetry};
use crate::resilience::wrappers::{search_with_revive, Revive};
use serde_json::{json, Map, Value};
use std::sync::Arc;

pub(super) const DEFAULT_MAX_RESULTS: i64 = 50;

/// `revive_if_dead` as a wrapper argument (connected clients only).
pub(crate) fn revive_fn(client: &Client) -> Option<Revive> {
    client.inner().destination.as_ref()?;
    let me = client.clone();
    Some(Arc::new(move || {
        let me = me.clone();
        Box::pin(async move { revive_if_dead(&me).await })
    }))
}

/// `search(pattern, {maxResults?, types?, cold?})`.
pub(super) async fn search(me: Client, a: Args) -> Result<Value> {
    me.touch()?;
    let pattern = args::string(&a, 0, "pattern")?;
    let opts = args::method_options(&a, 1, "repository.search")?;
    let SearchOptions {
        max_results,
        types,
        cold,
    } = search_options(&opts)?;
    let dest = me.dest()?;
    let params = json!({
        "destination": dest,
        "pattern": pattern,
        "maxResults": max_results,
        "types": types,
    });
    let revive = revive_fn(&me);
    let result = search_with_revive(
        revive.as_ref(),
        || {
            let me = me.clone();
            let params = params.clone();
            async move {
                if cold {
                    with_cold_retry(
                        ColdRetry::default(),
                        || me.active_request("adtLs/repository/quickSearch", Some(params.clone())),
                        |r: &Value| !has_references(r),
                        |e: &Error| is_transient_cold_error(&e.message),
                    )
                    .await
                } else {
                    me.active_request("adtLs/repository/quickSearch", Some(params))
                        .await
                }
            }
        },
        |r| !has_references(r),
    )
    .await?;
    if has_references(&result) {
        me.inner().state.set_backend_live(true);
    }
    Ok(result)
}

/// The checked options of `search`.
struct SearchOptions {
    max_results: Value,
    types: Value,
    cold: bool,
}

/// `{maxResults?, types?, cold?}`: a positive integer, an array of type-code strings, a
/// boolean.
fn search_options(opts: &Map<String, Value>) -> Result<SearchOptions> {
    let wrong = |key: &str, expected: &str| {
        let got = Received::of_json(opts.get(key));
        type_error(&format!("opts.{key}"), expected, &got)
    };
    let max_results = match given(opts, "maxResults") {
        None => json!(DEFAULT_MAX_RESULTS),
        Some(Value::Number(n)) => {
            let n = n.as_f64().unwrap_or(f64::NAN);
            crate::kernel::arg_error::count("opts.maxResults", n, 1.0)?;
            js_number(n)
        }
        Some(_) => return Err(wrong("maxResults", "a number")),
    };
    let types = match given(opts, "types") {
        None => json!([]),
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    let at = format!("opts.types[{i}]");
                    return Err(type_error(&at, "a string", &Received::of_json(Some(item))));
                }
            }
            let types: Vec<String> = items
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect();
            json!(search_types(&types))
        }
        Some(_) => {
            let expected = "an array of ADT type codes such as ['CLAS/OC']";
            return Err(wrong("types", expected));
        }
    };
    let cold = match given(opts, "cold") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(wrong("cold", "a boolean")),
    };
    Ok(SearchOptions {
        max_results,
        types,
        cold,
    })
}

/// `getUsers()`: `users ?? []`.
pub(super) async fn get_users(me: Client, _: Args) -> Result<Value> {
    let dest = me.begin()?;
    let r = me
        .active_request(
            "adtLs/repository/getUsers",
            Some(json!({"destination": dest})),
        )
        .await?;
    Ok(r.get("users")
        .cloned()
        .filter(|v| !v.is_null())
        .unwrap_or(json!([])))
}

/// `getLsUri(adtUri)`: the repotree AFF URI for an ADT path.
pub(super) async fn get_ls_uri(me: Client, a: Args) -> Result<Value> {
    me.touch()?;
    let adt_uri = args::string(&a, 0, "adtUri")?;
    let dest = me.dest()?;
    Ok(Value::String(ls_uri(&me, &dest, &adt_uri).await?))
}

pub(crate) async fn ls_uri(client: &Client, dest: &str, adt_uri: &str) -> Result<String> {
    let r = client
        .active_request(
            "adtLs/repository/getLsUri",
            Some(json!({"destination": dest, "adtUri": adt_uri})),
        )
        .await?;
    match r.get("uri").and_then(Value::as_str) {
        Some(uri) if !uri.is_empty() => Ok(uri.to_string()),
        _ => Err(Error::coded(
            crate::kernel::error::codes::UNEXPECTED_ANSWER,
            format!("getLsUri returned no uri for {adt_uri}"),
        )),
    }
}

/// The URI argument of a file operation and its place in the object's queue, taken at the
/// call so that operations on one object run in call order (docs/wire.md#the-object-queue).
pub(crate) struct FileCall {
    uri: Result<String>,
    place: Option<Place>,
}

impl FileCall {
    pub(crate) fn new(client: &Client, a: &Args) -> FileCall {
        let uri = args::string(a, 0, "uri");
        let place = uri.as_ref().ok().map(|u| client.inner().objects.enter(u));
        FileCall { uri, place }
    }

    /// The URI's argument error, if any (before waiting for the turn).
    pub(crate) fn check(&self) -> Result<()> {
        self.uri.as_ref().map(drop).map_err(Clone::clone)
    }

    /// The URI (or its argument error) and, once it is the operation's turn, the turn.
    pub(crate) async fn turn(self) -> Result<(String, Option<Turn>)> {
        let uri = self.uri?;
        let turn = match self.place {
            Some(place) => Some(place.turn().await),
            None => None,
        };
        Ok((uri, turn))
    }
}

/// `readFile(uri)`: `content ?? ''`; queued on the object.
pub(super) async fn read_file(me: Client, _: Args, call: FileCall) -> Result<Value> {
    let (uri, _turn) = call.turn().await?;
    Ok(Value::String(read(&me, &uri).await?))
}

pub(crate) async fn read(client: &Client, uri: &str) -> Result<String> {
    let r = client
        .active_request("adtLs/fileSystem/readFile", Some(json!({"uri": uri})))
        .await?;
    Ok(r.get("content")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string())
}

/// `writeFile(uri, content)`: the raw result; queued on the object.
pub(super) async fn write_file(me: Client, a: Args, call: FileCall) -> Result<Value> {
    call.check()?;
    let content = args::string(&a, 1, "content")?;
    let (uri, _turn) = call.turn().await?;
    me.active_request(
        "adtLs/fileSystem/writeFile",
        Some(json!({"uri": uri, "content": content})),
    )
    .await
}

/// `delete(uri)`: `{uri, options: {recursive: false, force: true}}` (1.1.2 needs `force`);
/// queued on the object.
pub(super) async fn delete(me: Client, _: Args, call: FileCall) -> Result<Value> {
    let (uri, _turn) = call.turn().await?;
    me.active_request("adtLs/fileSystem/delete", Some(delete_params(&uri)))
        .await
}

pub(crate) fn delete_params(uri: &str) -> Value {
    json!({"uri": uri, "options": {"recursive": false, "force": true}})
}

/// `listInactive()`: `{destination}` (1.1.2; not `destinationId`).
pub(super) async fn list_inactive(me: Client, _: Args) -> Result<Value> {
    let dest = me.begin()?;
    me.active_request(
        "adtLs/activation/getInactiveObjects",
        Some(json!({"destination": dest})),
    )
    .await
}
