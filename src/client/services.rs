//! The `services` namespace (docs/wire.md#services): run a console application, service-binding
//! details over LSP (after a best-effort readFile, without which adt-ls answers "Unsupported
//! Object Type"), publishing with the request adt-ls needs (`publish`), and OData service
//! information over MCP (`info`).

mod info;
mod publish;

pub(super) use info::get_service_info;
pub(super) use publish::publish_service_binding;

use super::args::{self, invalid, Args};
use super::repository::read;
use super::resolve::resolve_target;
use super::tool_call::{self, check};
use super::Client;
use crate::kernel::error::Result;
use serde_json::{json, Value};

const DETAILS_METHOD: &str = "adtLs/businessservice/srvb/getServiceBindingDetails";

/// `serviceBindingDetails(ref)`: the binding's details over LSP, as adt-ls answers them.
pub(super) async fn service_binding_details(me: Client, a: Args) -> Result<Value> {
    let uri = resolve_target(&me, &a).await?.uri;
    details_of(&me, &uri).await
}

/// The details of the binding at `uri`, after warming it up with a read (errors ignored).
pub(super) async fn details_of(client: &Client, uri: &str) -> Result<Value> {
    let _ = read(client, uri).await;
    client
        .active_request(DETAILS_METHOD, Some(json!({"lsUri": uri})))
        .await
}

/// `runApplication(ref)` -> `{output}`; the URI goes on the wire as a bare string.
pub(super) async fn run_application(me: Client, a: Args) -> Result<Value> {
    let uri = resolve_target(&me, &a).await?.uri;
    let output = me
        .active_request("adtLs/run/runApplication", Some(Value::String(uri)))
        .await?;
    Ok(json!({"output": if output.is_null() { json!("") } else { output }}))
}

/// The binding name of argument 0 (the only part of the ref the MCP calls use).
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
pub(super) async fn list_services(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let name = binding_name(&a)?;
    fetch_services(&me, &dest, &name).await
}
