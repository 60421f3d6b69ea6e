//! The `services` namespace (docs/wire.md#services): run a console application, service-binding
//! details and publishing over LSP (after a best-effort readFile, without which adt-ls
//! answers "Unsupported Object Type"), and OData service information over MCP. An unknown
//! `service` name is an error listing the binding's services (docs/decisions.md#d5-6).

use super::args::{self, invalid, Args};
use super::repository::read;
use super::resolve::resolve_target;
use super::tool_call::{self, check};
use super::Client;
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::future::Future;

/// `serviceBindingDetails(ref)`: the binding's details over LSP.
pub fn service_binding_details(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    binding_request(
        client,
        a,
        "adtLs/businessservice/srvb/getServiceBindingDetails",
    )
}

/// `publishServiceBinding(ref)`: publish (or unpublish) the binding over LSP.
pub fn publish_service_binding(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    binding_request(
        client,
        a,
        "adtLs/businessservice/srvb/publishandUnpublishAction",
    )
}

/// `runApplication(ref)` -> `{output}`; the URI goes on the wire as a bare string.
pub fn run_application(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    async move {
        let uri = resolve_target(&me, &a).await?.uri;
        let output = me
            .active_request("adtLs/run/runApplication", Some(Value::String(uri)))
            .await?;
        Ok(json!({"output": if output.is_null() { json!("") } else { output }}))
    }
}

/// A `{lsUri}` request on a service binding, after warming it up with a read.
fn binding_request(
    client: &Client,
    a: Args,
    method: &'static str,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    async move {
        let uri = resolve_target(&me, &a).await?.uri;
        let _ = read(&me, &uri).await;
        me.active_request(method, Some(json!({"lsUri": uri}))).await
    }
}

/// The binding name of argument 0 (the only part of the ref these calls use).
fn binding_name(a: &Args) -> Result<String> {
    match args::object(a, 0, "ref")?.get("name") {
        Some(Value::String(name)) => Ok(name.clone()),
        _ => Err(invalid("name must be a string".into())),
    }
}

/// `fetch_services` for a binding: `data ?? {services: []}`.
async fn fetch_services(client: &Client, dest: &str, name: &str) -> Result<Value> {
    let parsed = tool_call::call(
        client,
        "abap_business_services-fetch_services",
        json!({"destination": dest, "serviceBindingName": name}),
    )
    .await?;
    let data = check(parsed, &format!("fetch_services failed for {name}"))?;
    Ok(if data.is_null() {
        json!({"services": []})
    } else {
        data
    })
}

/// `listServices(ref)`: no search, the binding is named directly.
pub fn list_services(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    async move {
        let dest = me.begin()?;
        let name = binding_name(&a)?;
        fetch_services(&me, &dest, &name).await
    }
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
        return services
            .first()
            .ok_or_else(|| Error::new(format!("No OData service found in binding {binding}.")));
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
        let listed = if available.is_empty() {
            "(none)".to_string()
        } else {
            available.join(", ")
        };
        Error::new(format!(
            "Service {wanted} not found in binding {binding}. Available services: {listed}."
        ))
    })
}

/// `getServiceInfo(ref, {service?})`: fetch_services, then fetch_service_information for
/// the chosen service.
pub fn get_service_info(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    async move {
        let dest = me.begin()?;
        let name = binding_name(&a)?;
        let opts = args::options(&a, 1, crate::option_keys::SERVICE_INFO)?;
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
        let odata_version = binding.get("odataVersion");
        if odata_version == Some(&json!("V4")) && svc.get("isPublished") == Some(&json!(false)) {
            return Err(Error::new(format!(
                "Service binding {name} (OData V4) is not published — call publishServiceBinding first, then retry getServiceInfo."
            )));
        }
        let given = |v: Option<&Value>, default: Value| {
            v.filter(|x| !x.is_null()).cloned().unwrap_or(default)
        };
        let mut args = serde_json::Map::new();
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
        args.insert("odataVersion".into(), given(odata_version, json!("")));
        args.insert(
            "isPublished".into(),
            given(svc.get("isPublished"), json!(true)),
        );
        let parsed = tool_call::call(
            &me,
            "abap_business_services-fetch_service_information",
            Value::Object(args),
        )
        .await?;
        check(
            parsed,
            &format!("fetch_service_information failed for {svc_name}"),
        )
    }
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
        assert_eq!(
            pick_service(&[], None, "X").unwrap_err().message,
            "No OData service found in binding X."
        );
    }
}
