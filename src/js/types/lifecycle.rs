//! The results of the `lifecycle` namespace: activation, creation, the creation form and
//! the RAP generators.

use napi_derive::napi;
use serde_json::Value;

use super::lsp::Diagnostic;

/// `activate`: the phase flags, the refreshed URIs and the diagnostics per file.
#[napi(object)]
pub struct ActivateResult {
    /// Activation ran and no diagnostic has error severity.
    pub success: bool,
    /// The LSP diagnostics of each file that has any (empty on success).
    pub diagnostics: Vec<FileDiagnostics>,
    /// Whether the syntax / consistency check ran.
    pub check_executed: Option<bool>,
    /// Whether activation actually ran.
    pub activation_executed: Option<bool>,
    /// Whether downstream generation ran (e.g. RAP artifacts).
    pub generation_executed: Option<bool>,
    /// Whether the backend supports `forceActivation` for this object.
    pub force_supported: Option<bool>,
    /// AFF URIs the backend marked for refresh after activation.
    pub refreshed_uris: Option<Vec<String>>,
}

/// The diagnostics of one file of an activation.
#[napi(object)]
pub struct FileDiagnostics {
    /// The file's AFF URI.
    pub file_uri: String,
    pub diagnostic: Vec<Diagnostic>,
}

/// `create`: adt-ls's message and the created object's file.
#[napi(object)]
pub struct CreateResult {
    pub message: Option<String>,
    pub file_path: Option<String>,
}

/// One field of an object type's creation form (from the native UI model): unlike
/// `getObjectTypeDetails`, it carries the legal values.
#[napi(object)]
pub struct CreationField {
    /// Field key (the binding path, e.g. `packageName`, `superclass`).
    pub path: String,
    pub label: Option<String>,
    pub required: bool,
    pub max_length: Option<f64>,
    /// Validation regex (e.g. `^[A-Z0-9_/]*$` for `name`).
    pub pattern: Option<String>,
    /// ADT object types this field accepts (e.g. `superclass` -> `["CLAS/OC"]`).
    pub value_help_types: Option<Vec<String>>,
}

/// `generate`: validation messages or the generated objects.
#[napi(object)]
pub struct GeneratorResult {
    pub validation_messages: Vec<GeneratorMessage>,
    pub generated_objects: Vec<GeneratedObject>,
    /// The leading object's file (on success).
    pub file_path: Option<String>,
}

/// A validation message of a generator run.
#[napi(object)]
pub struct GeneratorMessage {
    pub long_text: Option<String>,
    pub short_text: Option<String>,
    /// e.g. ERROR, WARNING, INFO.
    pub severity: Option<String>,
}

/// An object a generator created.
#[napi(object)]
pub struct GeneratedObject {
    pub object_name: String,
    /// e.g. TABL, DDLS, BDEF, SRVD, SRVB.
    pub object_type: String,
}

/// `listGenerators`.
#[napi(object)]
pub struct GeneratorList {
    pub generators: Vec<GeneratorInfo>,
}

/// One RAP generator.
#[napi(object)]
pub struct GeneratorInfo {
    /// e.g. `x-ui-service`.
    pub id: String,
    pub title: String,
    pub description: String,
    /// Semicolon-separated reference object types (e.g. `TABL;DDLS;BDEF`).
    pub referenced_object_types: Option<String>,
}

/// `getGeneratorSchema`: the JSON schema of a generator's `content` and the content
/// pre-filled from the referenced object.
#[napi(object)]
pub struct GeneratorSchema {
    #[napi(ts_type = "Record<string, unknown>")]
    pub schema: Value,
    #[napi(ts_type = "Record<string, unknown>")]
    pub reference_content: Value,
}

/// `validate`: adt-ls's verdict on creation input (MCP `run_validation`).
#[napi(object)]
pub struct ValidationResult {
    pub message: String,
    /// The object content after validation (JSON text).
    pub object_content: Option<String>,
    pub error: Option<String>,
}

/// `listCreatableObjects` (MCP `get_all_creatable_objects`).
#[napi(object)]
pub struct CreatableObjects {
    pub creatable_objects: Option<Vec<CreatableObject>>,
    pub message: Option<String>,
    pub error: Option<String>,
}

/// A creatable object type.
#[napi(object)]
pub struct CreatableObject {
    pub name: String,
    /// e.g. `CLAS/OC`.
    pub object_type: String,
}

/// `getObjectTypeDetails` (MCP `get_object_type_details`).
#[napi(object)]
pub struct ObjectTypeDetails {
    pub fields: Option<Vec<ObjectTypeField>>,
    pub message: Option<String>,
    pub error: Option<String>,
}

/// A field of the flat creation field list.
#[napi(object)]
pub struct ObjectTypeField {
    /// The field name from the binding path (e.g. `packageName`).
    pub tag: String,
    pub required: Option<bool>,
    pub max_length: Option<f64>,
    pub field_group: Option<f64>,
}
