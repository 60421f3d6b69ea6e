//! `services.getServiceInfo(ref, {service?})` (docs/wire.md#services): `fetch_services`, the
//! service picked by name (an unknown name lists the binding's services,
//! docs/decisions.md#d5-6) or the first, its publish state, then `fetch_service_information`.
//! adt-ls 1.1.2 sends `isPublished` at the top level and only for OData V4; without it the
//! binding details' `objectData.published` tells. An unpublished binding is refused before
//! the tool call, and a tool answer without a service URL (an unpublished V2 binding answers
//! a successful `{error}`) rejects like a tool error.

use super::{binding_name, details_of, fetch_services};
use crate::client::args::{self, Args};
use crate::client::ns_args::listed;
use crate::client::resolve::{resolve_aff_uri, ObjectRef};
use crate::client::tool_call::{self, check};
use crate::client::Client;
use crate::kernel::error::{codes, Error, Result};
use serde_json::{json, Map, Value};

const INFO_TOOL: &str = "abap_business_services-fetch_service_information";

/// `getServiceInfo(ref, {service?})`: fetch_services, then fetch_service_information for
/// the chosen service.
pub(crate) async fn get_service_info(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let name = binding_name(&a)?;
    let opts = args::method_options(&a, 1, "services.getServiceInfo")?;
    let wanted = opts
        .get("service")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let binding = fetch_services(&me, &dest, &name).await?;
    let services = binding
        .get("services")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let svc = pick_service(services, wanted, &name)?;
    let svc_name = svc.get("name").and_then(Value::as_str).unwrap_or_default();
    let Some(content) = svc.pointer("/content/0").filter(|c| !c.is_null()) else {
        return Err(Error::new(format!(
            "Service {svc_name} in {name} has no version content."
        )));
    };
    let published = match announced(&binding, svc) {
        Some(v) => Some(v),
        None => details_published(&me, &dest, &a).await?,
    };
    refuse_unpublished(published.as_ref(), &binding, &name)?;
    let args = info_args(&dest, &name, svc, content, &binding, published);
    let parsed = tool_call::call(&me, INFO_TOOL, args).await?;
    let failed = format!("fetch_service_information failed for {svc_name}");
    let data = check(parsed, &failed).map_err(|e| e.with_detail("tool", INFO_TOOL))?;
    service_info(data, &failed)
}

/// Pick the service: by name (exact, then case-insensitive) when one is asked for, else the
/// first.
fn pick_service<'a>(
    services: &'a [Value],
    wanted: Option<&str>,
    binding: &str,
) -> Result<&'a Value> {
    let name_of = |s: &Value| s.get("name").and_then(Value::as_str).map(str::to_string);
    let Some(wanted) = wanted else {
        return services.first().ok_or_else(|| {
            Error::coded(
                codes::BINDING_INCOMPLETE,
                format!("No OData service found in binding {binding}."),
            )
        });
    };
    let exact = services
        .iter()
        .find(|s| name_of(s).as_deref() == Some(wanted));
    let loose = || {
        services
            .iter()
            .find(|s| name_of(s).is_some_and(|n| n.eq_ignore_ascii_case(wanted)))
    };
    exact.or_else(loose).ok_or_else(|| {
        let available: Vec<String> = services.iter().filter_map(name_of).collect();
        let listed = listed(&available);
        Error::new(format!(
            "Service {wanted} not found in binding {binding}. Available services: {listed}."
        ))
    })
}

/// The publish state `fetch_services` gave: at the top level (V4), else on the service.
fn announced(binding: &Value, svc: &Value) -> Option<Value> {
    let given = |v: Option<&Value>| v.filter(|x| !x.is_null()).cloned();
    given(binding.get("isPublished")).or_else(|| given(svc.get("isPublished")))
}

/// The publish state from the binding details (`objectData.published`, or
/// `srvbObjectData.published` when there is no `objectData`).
async fn details_published(client: &Client, dest: &str, a: &Args) -> Result<Option<Value>> {
    let (r, _) = ObjectRef::arg(a, 0)?;
    let uri = resolve_aff_uri(client, dest, &r).await?;
    let details = details_of(client, &uri).await?;
    Ok(published_in_details(&details))
}

fn published_in_details(details: &Value) -> Option<Value> {
    let data = match details.get("objectData") {
        Some(d) if !d.is_null() => d,
        _ => details.get("srvbObjectData")?,
    };
    data.get("published").filter(|v| !v.is_null()).cloned()
}

/// `Service binding <name> (OData <v>) is not published — …` when the state is `false`.
fn refuse_unpublished(published: Option<&Value>, binding: &Value, name: &str) -> Result<()> {
    if published != Some(&Value::Bool(false)) {
        return Ok(());
    }
    let suffix = match binding.get("odataVersion") {
        Some(v) if crate::kernel::truthy::truthy(v) => {
            format!(
                " (OData {})",
                v.as_str().map_or_else(|| v.to_string(), str::to_string)
            )
        }
        _ => String::new(),
    };
    Err(Error::coded(
        codes::NOT_PUBLISHED,
        format!("Service binding {name}{suffix} is not published — call publishServiceBinding first, then retry getServiceInfo."),
    ))
}

/// The eight arguments of `fetch_service_information`, in the reference's order.
fn info_args(
    dest: &str,
    name: &str,
    svc: &Value,
    content: &Value,
    binding: &Value,
    published: Option<Value>,
) -> Value {
    let given =
        |v: Option<&Value>, default: Value| v.filter(|x| !x.is_null()).cloned().unwrap_or(default);
    let mut args = Map::new();
    args.insert("destination".into(), json!(dest));
    args.insert("serviceBindingName".into(), json!(name));
    if let Some(v) = svc.get("name") {
        args.insert("serviceName".into(), v.clone());
    }
    for key in ["serviceDefinition", "serviceVersion"] {
        if let Some(v) = content.get(key) {
            args.insert(key.into(), v.clone());
        }
    }
    args.insert(
        "odataInfoUri".into(),
        given(binding.pointer("/odataInfoUri/0/href"), json!("")),
    );
    args.insert(
        "odataVersion".into(),
        given(binding.get("odataVersion"), json!("")),
    );
    args.insert("isPublished".into(), published.unwrap_or(json!(true)));
    Value::Object(args)
}

/// The tool's data when it has a service URL; a successful `{error}` answer, or one without
/// `serviceUrl`, is a tool error.
fn service_info(data: Value, failed: &str) -> Result<Value> {
    let why = match data.get("error") {
        Some(Value::String(e)) => Some(e.trim().to_string()).filter(|e| !e.is_empty()),
        _ if data.get("serviceUrl").is_some_and(Value::is_string) => return Ok(data),
        _ => None,
    };
    let why = why.unwrap_or_else(|| "no service URL in the answer".to_string());
    Err(Error::coded(codes::TOOL_ERROR, format!("{failed}: {why}"))
        .with_data(data)
        .with_detail("tool", INFO_TOOL))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn services_are_picked_by_name_else_the_first() {
        let list = vec![json!({"name": "A"}), json!({"name": "B"})];
        assert_eq!(pick_service(&list, None, "X").unwrap(), &list[0]);
        assert_eq!(pick_service(&list, Some("B"), "X").unwrap(), &list[1]);
        assert_eq!(pick_service(&list, Some("b"), "X").unwrap(), &list[1]);
        assert_eq!(
            pick_service(&list, Some("C"), "X").unwrap_err().message,
            "Service C not found in binding X. Available services: A, B."
        );
        let none = pick_service(&[], None, "X").unwrap_err();
        assert_eq!(none.message, "No OData service found in binding X.");
        assert!(none.has_code(codes::BINDING_INCOMPLETE));
    }

    #[test]
    fn the_publish_state_comes_from_the_top_level_the_service_or_the_details() {
        let svc = json!({"name": "S", "isPublished": true});
        assert_eq!(
            announced(&json!({"isPublished": false}), &svc),
            Some(json!(false))
        );
        assert_eq!(
            announced(&json!({"isPublished": null}), &svc),
            Some(json!(true))
        );
        assert_eq!(announced(&json!({}), &json!({"name": "S"})), None);
        assert_eq!(
            published_in_details(&json!({"objectData": {"published": false}})),
            Some(json!(false))
        );
        assert_eq!(
            published_in_details(&json!({"srvbObjectData": {"published": true}})),
            Some(json!(true))
        );
        assert_eq!(
            published_in_details(&json!({"objectData": {}, "srvbObjectData": {"published": true}})),
            None
        );
    }

    #[test]
    fn an_unpublished_binding_is_refused_with_its_version_when_known() {
        let msg = |p: Value, b: Value| refuse_unpublished(Some(&p), &b, "ZB").unwrap_err().message;
        assert_eq!(
            msg(json!(false), json!({"odataVersion": "V2"})),
            "Service binding ZB (OData V2) is not published — call publishServiceBinding first, then retry getServiceInfo."
        );
        assert_eq!(
            msg(json!(false), json!({})),
            "Service binding ZB is not published — call publishServiceBinding first, then retry getServiceInfo."
        );
        let e = refuse_unpublished(Some(&json!(false)), &json!({}), "ZB").unwrap_err();
        assert!(e.has_code(codes::NOT_PUBLISHED));
        assert!(refuse_unpublished(Some(&json!(true)), &json!({}), "ZB").is_ok());
        assert!(refuse_unpublished(None, &json!({}), "ZB").is_ok());
    }

    #[test]
    fn an_answer_without_a_service_url_is_a_tool_error() {
        let f = "fetch_service_information failed for S";
        let ok = json!({"serviceUrl": "https://h/x", "entitySets": []});
        assert_eq!(service_info(ok.clone(), f).unwrap(), ok);
        let e = service_info(
            json!({"error": " Please publish the service binding ZB first. "}),
            f,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "fetch_service_information failed for S: Please publish the service binding ZB first."
        );
        assert!(e.has_code(codes::TOOL_ERROR));
        assert_eq!(
            service_info(json!({"entitySets": []}), f)
                .unwrap_err()
                .message,
            "fetch_service_information failed for S: no service URL in the answer"
        );
        assert_eq!(
            service_info(json!({"error": "  ", "serviceUrl": "u"}), f)
                .unwrap_err()
                .message,
            "fetch_service_information failed for S: no service URL in the answer"
        );
        assert!(service_info(json!("text"), f).is_err());
    }
}
