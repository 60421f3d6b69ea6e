//! `services.publishServiceBinding(ref, {service?})` (docs/wire.md#services): adt-ls 1.1.2
//! publishes only with the request the VS Code extension builds from the binding details
//! (without `odataVersion` it fails with a NullPointerException), so the details are read
//! first and the action is refused before sending what adt-ls cannot use. `service` names a
//! service definition of the binding (an entry of the details' `services`); OData V2 toggles
//! that definition's service, V4 the whole binding.

use super::details_of;
use crate::client::args::{self, Args};
use crate::client::resolve::{resolve_aff_uri, ObjectRef};
use crate::client::Client;
use crate::kernel::arg_error::{type_error, Received};
use crate::kernel::error::{codes, Error, Result};
use serde_json::{Map, Value};

const PUBLISH_METHOD: &str = "adtLs/businessservice/srvb/publishandUnpublishAction";

/// `publishServiceBinding(ref, {service?})`: details, then the action; adt-ls's answer raw.
pub(crate) async fn publish_service_binding(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let (r, _) = ObjectRef::arg(&a, 0)?;
    let service = service_option(&a)?;
    let uri = resolve_aff_uri(&me, &dest, &r).await?;
    let details = details_of(&me, &uri).await?;
    let request = publish_request(&uri, &details, &r.name, service.as_deref())?;
    me.active_request(PUBLISH_METHOD, Some(request)).await
}

/// `opts.service`: a string when given (an empty one counts as not given).
fn service_option(a: &Args) -> Result<Option<String>> {
    let opts = args::method_options(a, 1, "services.publishServiceBinding")?;
    match opts.get("service") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        other => Err(type_error(
            "opts.service",
            "a string",
            &Received::of_json(other),
        )),
    }
}

/// The action's params, in the extension's key order, from the binding details; refused
/// when the details lack the OData version or any service, or `service` is not one of them.
fn publish_request(uri: &str, details: &Value, name: &str, service: Option<&str>) -> Result<Value> {
    let version = details
        .get("odataversion")
        .filter(|v| crate::kernel::truthy::truthy(v))
        .ok_or_else(|| {
            Error::coded(
                codes::BINDING_INCOMPLETE,
                format!("Could not read the OData version of service binding {name}; adt-ls needs it to publish."),
            )
        })?;
    let services: Vec<&str> = details
        .get("services")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(first) = services.first() else {
        return Err(Error::coded(
            codes::BINDING_INCOMPLETE,
            format!("No OData service found in binding {name}."),
        ));
    };
    if let Some(wanted) = service.filter(|s| !services.contains(s)) {
        return Err(Error::coded(
            codes::NOT_FOUND,
            format!(
                "Service binding {name} has no service definition {wanted} (has: {}).",
                services.join(", ")
            ),
        ));
    }
    let given = |key: &str| details.get(key).filter(|v| !v.is_null()).cloned();
    let mut params = Map::new();
    params.insert("lsUri".into(), Value::from(uri));
    params.insert("serviceName".into(), Value::from(service.unwrap_or(first)));
    params.insert("serviceVersion".into(), Value::from(""));
    params.insert(
        "bindingType".into(),
        given("serviceType").unwrap_or_else(|| Value::from("")),
    );
    params.insert("odataVersion".into(), version.clone());
    params.insert(
        "serviceBindingName".into(),
        given("serviceBindingName").unwrap_or_else(|| Value::from(name)),
    );
    Ok(Value::Object(params))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const URI: &str = "abap:/repotree-v1/ADTLS/b/zui_x_o2.srvb.json";

    fn live() -> Value {
        json!({"serviceBindingName": "ZUI_X_O2", "serviceType": "ODATA", "odataversion": "V4",
               "services": ["ZUI_X", "ZUI_Y"], "objectData": {"published": true}})
    }

    #[test]
    fn the_request_is_the_extension_s_in_its_key_order() {
        let req = publish_request(URI, &live(), "zui_x_o2", None).unwrap();
        assert_eq!(
            serde_json::to_string(&req).unwrap(),
            format!(
                r#"{{"lsUri":"{URI}","serviceName":"ZUI_X","serviceVersion":"","bindingType":"ODATA","odataVersion":"V4","serviceBindingName":"ZUI_X_O2"}}"#
            )
        );
        let chosen = publish_request(URI, &live(), "ZUI_X_O2", Some("ZUI_Y")).unwrap();
        assert_eq!(chosen["serviceName"], "ZUI_Y");
        let bare = json!({"odataversion": "V2", "services": ["ZUI_X"]});
        let req = publish_request(URI, &bare, "ZUI_X_O2", None).unwrap();
        assert_eq!(
            (&req["bindingType"], &req["serviceBindingName"]),
            (&json!(""), &json!("ZUI_X_O2"))
        );
    }

    #[test]
    fn what_adt_ls_cannot_publish_is_refused_first() {
        let refuse =
            |d: Value, s: Option<&str>| publish_request(URI, &d, "ZUI_X_O2", s).unwrap_err();
        let e = refuse(json!({"odataVersion": "V4", "services": ["ZUI_X"]}), None);
        assert_eq!(e.message, "Could not read the OData version of service binding ZUI_X_O2; adt-ls needs it to publish.");
        assert!(e.has_code(codes::BINDING_INCOMPLETE));
        assert_eq!(refuse(json!({"odataversion": ""}), None).code, e.code);
        let e = refuse(json!({"odataversion": "V4", "services": []}), None);
        assert_eq!(e.message, "No OData service found in binding ZUI_X_O2.");
        assert_eq!(
            refuse(json!({"odataversion": "V4"}), None).message,
            e.message
        );
        let e = refuse(live(), Some("zui_x"));
        assert_eq!(
            e.message,
            "Service binding ZUI_X_O2 has no service definition zui_x (has: ZUI_X, ZUI_Y)."
        );
        assert!(e.has_code(codes::NOT_FOUND));
    }
}
