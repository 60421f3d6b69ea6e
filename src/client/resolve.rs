//! Finding an object by name (`resolveAffUri`, docs/wire.md#object-resolution): the `ObjectRef` a caller
//! passes (a known `uri` is used without a search), quick search by `search_types` with cold
//! retry and revive, one retry by the main type when a subtyped search found nothing at all,
//! the exact (case-insensitive) name match with a `uri`, `getLsUri`, and the AFF URI helpers
//! (class includes, the `.json` metadata file, the "not supported" placeholder).

use super::args::{self, invalid, Args};
use super::connect_session::has_references;
use super::ref_uri::{check_destination, given_uri};
use super::repository::{ls_uri, revive_fn};
use super::search_types::{main_type, search_type};
use super::Client;
use crate::kernel::error::{Error, Result};
use crate::resilience::classify::is_transient_cold_error;
use crate::resilience::cold::{with_cold_retry, ColdRetry};
use crate::resilience::wrappers::search_with_revive;
use serde_json::{json, Map, Value};
use std::future::Future;

/// `maxResults` of the resolving search.
const RESOLVE_MAX_RESULTS: i64 = 20;
const CLASS_SUFFIX: &str = ".clas.abap";
const PLACEHOLDER: &str = "not supported in adt in vs code";

/// `{name, objectType, uri?}` (an ADT type code such as `CLAS/OC`; a known repotree URI).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ObjectRef {
    pub name: String,
    pub object_type: String,
    /// A repotree URI the caller already knows: used instead of a search.
    pub uri: Option<String>,
}

impl ObjectRef {
    /// Read `{name, objectType, uri?}` from an options object, naming the fields
    /// `<path>.name` / `<path>.objectType` / `<path>.uri` in errors.
    pub(super) fn from_map_at(map: &Map<String, Value>, path: &str) -> Result<ObjectRef> {
        let field = |key: &str| match map.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            other => Err(crate::kernel::arg_error::type_error(
                &format!("{path}.{key}"),
                "a string",
                &crate::kernel::arg_error::Received::of_json(other),
            )),
        };
        Ok(ObjectRef {
            name: field("name")?,
            object_type: field("objectType")?,
            uri: given_uri(map, path)?,
        })
    }

    /// Argument `i` as an object ref, with the whole object for the method's other options.
    pub(super) fn arg(a: &Args, i: usize) -> Result<(ObjectRef, Map<String, Value>)> {
        let map = args::required_object(a, i, "ref")?;
        Ok((ObjectRef::from_map_at(&map, "ref")?, map))
    }
}

/// The target of a by-name call that is not queued on its object: the ref's other options
/// and its resolved AFF URI.
pub(crate) struct Target {
    pub opts: Map<String, Value>,
    pub uri: String,
}

/// Record the call, require a destination, read argument 0 as `{name, objectType, uri?, ...}`
/// and resolve it to its AFF URI.
pub(crate) async fn resolve_target(client: &Client, a: &Args) -> Result<Target> {
    let dest = client.begin()?;
    let (object, opts) = ObjectRef::arg(a, 0)?;
    let uri = resolve_aff_uri(client, &dest, &object).await?;
    Ok(Target { opts, uri })
}

/// `lifecycle.resolveAffUri(ref)`.
pub(super) async fn resolve_method(me: Client, a: Args) -> Result<Value> {
    Ok(Value::String(resolve_target(&me, &a).await?.uri))
}

/// Name -> repotree AFF URI: the given `uri` when the ref has one (no search); else a
/// cold-retried search by [`search_type`] (revived once if it stays empty), retried once by the
/// main type when a subtyped search had no references at all, the first reference with the
/// same name (case-insensitive) and a `uri`, then `getLsUri`.
pub(super) async fn resolve_aff_uri(client: &Client, dest: &str, r: &ObjectRef) -> Result<String> {
    if let Some(uri) = &r.uri {
        check_destination(dest, &r.name, uri)?;
        return Ok(uri.clone());
    }
    let searched = search_type(&r.object_type);
    let revive = revive_fn(client);
    let mut found = search_with_revive(
        revive.as_ref(),
        || cold_search(client, dest, &r.name, &searched),
        |res| !has_references(res),
    )
    .await?;
    let main = main_type(&r.object_type);
    if !has_references(&found) && !main.is_empty() && !main.eq_ignore_ascii_case(&searched) {
        found = cold_search(client, dest, &r.name, main).await?;
    }
    if has_references(&found) {
        client.inner().state.set_backend_live(true);
    }
    let adt_uri = exact_hit(&found, &r.name).ok_or_else(|| {
        Error::coded(
            crate::kernel::error::codes::NOT_FOUND,
            format!(
                "Object {} ({}) not found via search.",
                r.name, r.object_type
            ),
        )
    })?;
    ls_uri(client, dest, &adt_uri).await
}

/// One quick search for `name` filtered by `object_type`, with cold retry.
fn cold_search(
    client: &Client,
    dest: &str,
    name: &str,
    object_type: &str,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let params = json!({
        "destination": dest,
        "pattern": name,
        "maxResults": RESOLVE_MAX_RESULTS,
        "types": [object_type],
    });
    let me = client.clone();
    with_cold_retry(
        ColdRetry::default(),
        move || me.active_request("adtLs/repository/quickSearch", Some(params.clone())),
        |res: &Value| !has_references(res),
        |e: &Error| is_transient_cold_error(&e.message),
    )
}

/// The ADT path of the first reference named `name` (case-insensitive) that has a uri.
fn exact_hit(result: &Value, name: &str) -> Option<String> {
    let wanted = name.to_uppercase();
    result
        .get("references")?
        .as_array()?
        .iter()
        .find(|hit| {
            hit.get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| n.to_uppercase() == wanted)
                && hit
                    .get("uri")
                    .and_then(Value::as_str)
                    .is_some_and(|u| !u.is_empty())
        })
        .and_then(|hit| hit.get("uri")?.as_str().map(str::to_string))
}

/// Resolve, then point at a class include when one is asked for (a falsy `include` means
/// the main source).
pub(super) async fn resolve_with_include(
    client: &Client,
    dest: &str,
    r: &ObjectRef,
    include: Option<&Value>,
) -> Result<String> {
    let uri = resolve_aff_uri(client, dest, r).await?;
    with_include(uri, r, include)
}

/// `uri`, or the include file next to it when `include` is a non-empty string.
pub(crate) fn with_include(uri: String, r: &ObjectRef, include: Option<&Value>) -> Result<String> {
    match include.and_then(Value::as_str).filter(|s| !s.is_empty()) {
        None => Ok(uri),
        Some(include) => include_aff_uri(&uri, include).ok_or_else(|| no_includes(r, include)),
    }
}

/// `…/zcl_x.clas.abap` -> `…/zcl_x.clas.<include>.abap`; `None` for anything that is not a
/// class main source (only classes have includes).
pub(super) fn include_aff_uri(main_uri: &str, include: &str) -> Option<String> {
    main_uri
        .strip_suffix(CLASS_SUFFIX)
        .map(|stem| format!("{stem}.clas.{include}.abap"))
}

/// docs/decisions.md#d5-15: an include on an object that has none is an error, not ignored.
fn no_includes(r: &ObjectRef, include: &str) -> Error {
    invalid(format!(
        "Object {} ({}) has no includes: include \"{include}\" is only available for classes (CLAS/OC).",
        r.name, r.object_type
    ))
}

/// The object's metadata file: the final extension replaced by `.json`.
pub(super) fn metadata_aff_uri(main_uri: &str) -> String {
    let last = main_uri.rfind(['.', '/']);
    match last {
        Some(i) if main_uri[i..].starts_with('.') && i + 1 < main_uri.len() => {
            format!("{}.json", &main_uri[..i])
        }
        _ => main_uri.to_string(),
    }
}

/// adt-ls's placeholder for types it does not serve headless.
pub(super) fn is_unsupported_placeholder(content: &str) -> bool {
    content.to_lowercase().contains(PLACEHOLDER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_uris() {
        assert_eq!(
            include_aff_uri("abap:/r/X/zcl_x.clas.abap", "testclasses").as_deref(),
            Some("abap:/r/X/zcl_x.clas.testclasses.abap")
        );
        assert_eq!(include_aff_uri("abap:/r/X/zif_x.intf.abap", "x"), None);
    }

    #[test]
    fn metadata_uris() {
        assert_eq!(
            metadata_aff_uri("abap:/r/X/zcl_x.clas.abap"),
            "abap:/r/X/zcl_x.clas.json"
        );
        assert_eq!(metadata_aff_uri("abap:/r/X/noext"), "abap:/r/X/noext");
        assert_eq!(metadata_aff_uri("abap:/r/X.y/noext"), "abap:/r/X.y/noext");
        assert_eq!(
            metadata_aff_uri("abap:/r/X/trailing."),
            "abap:/r/X/trailing."
        );
    }

    #[test]
    fn placeholder() {
        assert!(is_unsupported_placeholder(
            "// Object type PROG is Not Supported in ADT in VS Code"
        ));
        assert!(!is_unsupported_placeholder("REPORT z."));
    }

    #[test]
    fn only_an_exact_name_with_a_uri_is_taken() {
        let res = json!({"references": [
            {"name": "ZCL_TEST_EXTRA", "uri": "/extra"},
            {"name": "zcl_test"},
            {"name": "ZCL_TEST", "uri": "/test"},
        ]});
        assert_eq!(exact_hit(&res, "Zcl_Test").as_deref(), Some("/test"));
        assert_eq!(exact_hit(&res, "ZCL_TES"), None);
        assert_eq!(exact_hit(&json!({}), "X"), None);
    }

    #[test]
    fn refs_need_two_strings() {
        let m = json!({"name": "X", "objectType": "CLAS/OC"});
        assert_eq!(
            ObjectRef::from_map_at(m.as_object().unwrap(), "ref").unwrap(),
            ObjectRef {
                name: "X".into(),
                object_type: "CLAS/OC".into(),
                uri: None,
            }
        );
        let bad = json!({"name": "X"});
        assert_eq!(
            ObjectRef::from_map_at(bad.as_object().unwrap(), "ref")
                .unwrap_err()
                .message,
            "ref.objectType must be a string, received undefined"
        );
    }
}
