//! The lifecycle's MCP-backed calls (docs/wire.md#lifecycle): create, validate, unit tests, generators
//! and the creation catalogue. Arguments are built exactly as the 1.1.2 tool schemas want
//! them (`objectContent` as a JSON string, `{uris}` only for the unit-test tool, the
//! reference's defaults); every `isError` result rejects (docs/decisions.md#d5-12).

use crate::client::args::{self, Args};
use crate::client::ns_args::{or, or_empty};
use crate::client::resolve::resolve_target;
use crate::client::tool_call::{call_checked, destination_args};
use crate::client::Client;
use crate::kernel::error::Result;
use serde_json::{json, Map, Value};

const PLACEHOLDER_NAME: &str = "Z_PLACEHOLDER";

/// `objectContent`: the caller's `additionalFields` overlaid by `name`, `packageName` and
/// `description` (the explicit identity wins; an absent one is absent, as JSON.stringify
/// drops `undefined`).
fn object_content(opts: &Map<String, Value>) -> String {
    let mut content = match opts.get("additionalFields") {
        Some(Value::Object(extra)) => extra.clone(),
        _ => Map::new(),
    };
    for key in ["name", "packageName", "description"] {
        match opts.get(key) {
            Some(v) => {
                content.insert(key.to_string(), v.clone());
            }
            None => {
                content.shift_remove(key);
            }
        }
    }
    Value::Object(content).to_string()
}

/// `{destination, objectType, objectContent}` for create and validate.
fn creation_args(dest: &str, opts: &Map<String, Value>) -> Map<String, Value> {
    let mut out = destination_args(dest, opts, &["objectType"]);
    out.insert("objectContent".into(), json!(object_content(opts)));
    out
}

/// `create({objectType, name, packageName, description, transportRequestNumber?,
/// additionalFields?})` -> `{message, filePath}`.
pub(crate) async fn create(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let opts = args::object(&a, 0, "args")?;
    let mut tool_args = creation_args(&dest, &opts);
    or_empty(&mut tool_args, &opts, &["transportRequestNumber"]);
    let tool = "abap_creation-create_object";
    let data = call_checked(&me, tool, tool_args, "create_object failed").await?;
    let mut out = Map::new();
    for key in ["message", "filePath"] {
        if let Some(v) = data.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    Ok(Value::Object(out))
}

/// `validate({objectType, name, packageName, description, additionalFields?})`.
pub(crate) async fn validate(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let opts = args::object(&a, 0, "args")?;
    let tool_args = creation_args(&dest, &opts);
    let tool = "abap_creation-run_validation";
    call_checked(&me, tool, tool_args, "run_validation failed").await
}

/// `runUnitTests(ref)`: the tool with `{uris: [uri]}` only; a plain-text answer becomes
/// `{message}`.
pub(crate) async fn run_unit_tests(me: Client, a: Args) -> Result<Value> {
    let uri = resolve_target(&me, &a).await?.uri;
    let tool = "abap_run_unit_tests";
    let data = call_checked(&me, tool, json!({"uris": [uri]}), "run_unit_tests failed").await?;
    Ok(match data {
        Value::String(message) => json!({"message": message}),
        other => other,
    })
}

/// `generate({generatorId, content, packageName, transportRequestNumber?,
/// referencedObjectType?, referencedObjectName?})`.
pub(crate) async fn generate(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let opts = args::object(&a, 0, "args")?;
    let mut tool_args = destination_args(&dest, &opts, &["generatorId", "content", "packageName"]);
    let optional = [
        "transportRequestNumber",
        "referencedObjectType",
        "referencedObjectName",
    ];
    or_empty(&mut tool_args, &opts, &optional);
    let tool = "abap_generators-generate_objects";
    call_checked(&me, tool, tool_args, "generate_objects failed").await
}

/// A tool whose only argument is the destination.
async fn destination_only(me: Client, tool: &str, failed: &str) -> Result<Value> {
    let dest = me.begin()?;
    call_checked(&me, tool, json!({"destination": dest}), failed).await
}

/// `listCreatableObjects()`.
pub(crate) async fn list_creatable_objects(me: Client, _: Args) -> Result<Value> {
    let tool = "abap_creation-get_all_creatable_objects";
    destination_only(me, tool, "get_all_creatable_objects failed").await
}

/// `listGenerators()`.
pub(crate) async fn list_generators(me: Client, _: Args) -> Result<Value> {
    let tool = "abap_generators-list_generators";
    destination_only(me, tool, "list_generators failed").await
}

/// The start of a lookup by an optional id (`objectType`, `generatorId`): record the call,
/// require a destination, then the tool arguments `{destination, <key>?}` (argument 0 when
/// given) and the checked options of argument 1.
fn lookup_args(
    me: &Client,
    a: &Args,
    key: &str,
    method: &str,
) -> Result<(Map<String, Value>, Map<String, Value>)> {
    let dest = me.begin()?;
    let id = args::opt_string(a, 0, key)?;
    let opts = args::method_options(a, 1, method)?;
    let mut tool_args = Map::new();
    tool_args.insert("destination".into(), json!(dest));
    if let Some(id) = id {
        tool_args.insert(key.into(), Value::String(id));
    }
    Ok((tool_args, opts))
}

/// `getObjectTypeDetails(objectType, {name?})`.
pub(crate) async fn get_object_type_details(me: Client, a: Args) -> Result<Value> {
    let (mut tool_args, opts) =
        lookup_args(&me, &a, "objectType", "lifecycle.getObjectTypeDetails")?;
    tool_args.insert("name".into(), or(&opts, "name", json!(PLACEHOLDER_NAME)));
    let tool = "abap_creation-get_object_type_details";
    call_checked(&me, tool, tool_args, "get_object_type_details failed").await
}

/// `getGeneratorSchema(generatorId, {packageName?, referencedObjectType?,
/// referencedObjectName?})`.
pub(crate) async fn get_generator_schema(me: Client, a: Args) -> Result<Value> {
    let (mut tool_args, opts) =
        lookup_args(&me, &a, "generatorId", "lifecycle.getGeneratorSchema")?;
    tool_args.insert(
        "packageName".into(),
        or(&opts, "packageName", json!("$TMP")),
    );
    let optional = ["referencedObjectType", "referencedObjectName"];
    or_empty(&mut tool_args, &opts, &optional);
    let tool = "abap_generators-get_schema";
    call_checked(&me, tool, tool_args, "get_schema failed").await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_wins_over_additional_fields() {
        let opts = json!({
            "name": "ZCL_X", "packageName": "$TMP", "description": "d",
            "additionalFields": {"name": "IGNORED", "superclass": "CL_Y"}
        });
        let parsed: Value =
            serde_json::from_str(&object_content(opts.as_object().unwrap())).unwrap();
        assert_eq!(
            parsed,
            json!({"name": "ZCL_X", "superclass": "CL_Y", "packageName": "$TMP", "description": "d"})
        );
    }

    #[test]
    fn an_absent_identity_field_is_absent() {
        let opts = json!({"name": "ZCL_X", "additionalFields": {"description": "from extra"}});
        assert_eq!(
            object_content(opts.as_object().unwrap()),
            r#"{"name":"ZCL_X"}"#
        );
    }
}
