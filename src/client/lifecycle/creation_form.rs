//! `getCreationForm(objectType, {name?})` (docs/wire.md#lifecycle): the native creation UI model of an
//! object type, flattened into `CreationField`s (binding path without `$.`, required,
//! label, maxLength, pattern, value-help object types, a choice field's legal values).
//! Unparsable UI models are skipped.

use crate::client::args::{self, Args};
use crate::client::ns_args::or;
use crate::client::Client;
use crate::kernel::error::Result;
use crate::kernel::truthy::truthy;
use serde_json::{json, Map, Value};

/// `getCreationForm(objectType, {name?})` -> `{objectType, fields}`.
pub(crate) async fn get_creation_form(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let object_type = args::opt_string(&a, 0, "objectType")?.map(Value::String);
    let opts = args::method_options(&a, 1, "lifecycle.getCreationForm")?;
    let mut params = Map::new();
    params.insert("name".into(), or(&opts, "name", json!("Z_PLACEHOLDER")));
    params.insert("description".into(), json!(""));
    if let Some(t) = &object_type {
        params.insert("objectType".into(), t.clone());
    }
    params.insert("destination".into(), json!(dest));
    let res = me
        .active_request(
            "adtLs/objectCreation/getCreationUiModelAndContent",
            Some(Value::Object(params)),
        )
        .await?;
    let mut out = Map::new();
    if let Some(t) = object_type {
        out.insert("objectType".into(), t);
    }
    out.insert("fields".into(), Value::Array(form_fields(&res)));
    Ok(Value::Object(out))
}

/// Every control with a binding path, across all field-group sections.
fn form_fields(res: &Value) -> Vec<Value> {
    let sections = res
        .get("fieldGroupSections")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    sections
        .iter()
        .filter_map(|s| ui_model(s.get("uiModel")))
        .flat_map(|model| controls(&model))
        .filter_map(|c| field(&c))
        .collect()
}

/// A section's `uiModel` JSON string, parsed (absent means `{}`; unparsable is skipped).
fn ui_model(raw: Option<&Value>) -> Option<Value> {
    match raw {
        None | Some(Value::Null) => Some(json!({})),
        Some(Value::String(s)) => serde_json::from_str(s).ok(),
        Some(_) => None,
    }
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn controls(model: &Value) -> Vec<Value> {
    list(model, "sections")
        .iter()
        .flat_map(|s| list(s, "controls").iter().cloned())
        .collect()
}

/// One control as a `CreationField`, or `None` without a binding path.
fn field(c: &Value) -> Option<Value> {
    let path = c.get("bindingPath").and_then(Value::as_str)?;
    if path.is_empty() {
        return None;
    }
    let mut f = Map::new();
    f.insert(
        "path".into(),
        json!(path.strip_prefix("$.").unwrap_or(path)),
    );
    f.insert(
        "required".into(),
        json!(c.get("required").is_some_and(truthy)),
    );
    if let Some(label) = c.pointer("/label/text").filter(|l| truthy(l)) {
        f.insert("label".into(), label.clone());
    }
    if let Some(n) = c.get("maxLength").filter(|v| v.is_number()) {
        f.insert("maxLength".into(), n.clone());
    }
    if let Some(p) = c.get("pattern").filter(|v| v.is_string()) {
        f.insert("pattern".into(), p.clone());
    }
    let help: Vec<Value> = list(c.get("onValueHelp").unwrap_or(&Value::Null), "adtTypes")
        .iter()
        .filter_map(|t| t.get("value").filter(|v| truthy(v)).cloned())
        .collect();
    if !help.is_empty() {
        f.insert("valueHelpTypes".into(), Value::Array(help));
    }
    let values = choice_values(c);
    if !values.is_empty() {
        f.insert("values".into(), Value::Array(values));
    }
    Some(Value::Object(f))
}

/// A choice control's legal values: `{value, title?}` for each entry with a string `value`
/// (`title` only when it is a string).
fn choice_values(c: &Value) -> Vec<Value> {
    list(c, "values")
        .iter()
        .filter_map(|v| {
            let value = v.get("value").filter(|x| x.is_string())?;
            let mut out = Map::new();
            out.insert("value".into(), value.clone());
            if let Some(title) = v.get("title").filter(|t| t.is_string()) {
                out.insert("title".into(), title.clone());
            }
            Some(Value::Object(out))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ui_models_become_fields() {
        let model = json!({"sections": [{"controls": [
            {"bindingPath": "$.name", "required": true, "label": {"text": "Name"},
             "maxLength": 30, "pattern": "^[Z]"},
            {"bindingPath": "$.superclass", "onValueHelp": {"adtTypes": [{"value": "CLAS/OC"}, {"value": ""}]}},
            {"label": {"text": "no binding"}},
            {"bindingPath": "plain", "required": 0, "label": {"text": ""}}
        ]}]});
        let res = json!({"fieldGroupSections": [
            {"uiModel": model.to_string()},
            {"uiModel": "{not json"},
        ]});
        assert_eq!(
            form_fields(&res),
            vec![
                json!({"path": "name", "required": true, "label": "Name", "maxLength": 30, "pattern": "^[Z]"}),
                json!({"path": "superclass", "required": false, "valueHelpTypes": ["CLAS/OC"]}),
                json!({"path": "plain", "required": false}),
            ]
        );
        assert!(form_fields(&Value::Null).is_empty());
    }

    #[test]
    fn choice_fields_keep_their_legal_values() {
        let model = json!({"sections": [{"controls": [
            {"$type": "combo", "bindingPath": "$.bindingType", "values": [
                {"value": "OData V2 - UI", "title": "OData V2 - UI"},
                {"value": "OData V4 - Web API", "title": 4},
                {"title": "no value"},
                {"value": 7}
            ]},
            {"$type": "combo", "bindingPath": "$.sourceType", "values": [{"value": "S", "title": "Definition"}],
             "onValueHelp": {"kind": "adtTypes", "adtTypes": [{"value": "SRVD"}]}},
            {"$type": "combo", "bindingPath": "$.empty", "values": [{"title": "x"}]},
            {"bindingPath": "$.odd", "values": "S"}
        ]}]});
        let res = json!({"fieldGroupSections": [{"uiModel": model.to_string()}]});
        let fields = form_fields(&res);
        assert_eq!(
            fields[0]["values"],
            json!([{"value": "OData V2 - UI", "title": "OData V2 - UI"}, {"value": "OData V4 - Web API"}])
        );
        assert_eq!(
            serde_json::to_string(&fields[1]).unwrap(),
            r#"{"path":"sourceType","required":false,"valueHelpTypes":["SRVD"],"values":[{"value":"S","title":"Definition"}]}"#
        );
        assert!(fields[2].get("values").is_none());
        assert!(fields[3].get("values").is_none());
    }
}
