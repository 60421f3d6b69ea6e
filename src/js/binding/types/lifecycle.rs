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
    /// The file's LSP diagnostics.
    pub diagnostic: Vec<Diagnostic>,
}

/// `create`: adt-ls's message and the created object's file.
#[napi(object)]
pub struct CreateResult {
    /// adt-ls's confirmation, e.g. `Object ZCL_X of type CLAS/OC created successfully.`
    pub message: Option<String>,
    /// The repotree AFF URI of the created object's file.
    pub file_path: Option<String>,
}

/// One field of an object type's creation form (from the native UI model): unlike
/// `getObjectTypeDetails`, it carries the legal values.
#[napi(object)]
pub struct CreationField {
    /// Field key (the binding path, e.g. `packageName`, `superclass`).
    pub path: String,
    /// The field's label in the creation dialog.
    pub label: Option<String>,
    /// The field must be filled.
    pub required: bool,
    /// Maximum length in characters, when limited.
    pub max_length: Option<f64>,
    /// Validation regex (e.g. `^[A-Z0-9_/]*$` for `name`).
    pub pattern: Option<String>,
    /// ADT object types this field accepts (e.g. `superclass` -> `["CLAS/OC"]`).
    pub value_help_types: Option<Vec<String>>,
    /// The legal values of a choice field (e.g. a service binding's `bindingType`); pass a
    /// `value`, not its `title`. Absent for free-text fields.
    pub values: Option<Vec<CreationFieldValue>>,
}

/// One legal value of a choice field of a creation form.
#[napi(object)]
pub struct CreationFieldValue {
    /// What to pass, e.g. `OData V4 - Web API` or `S`.
    pub value: String,
    /// What the creation dialog shows, e.g. `Definition`.
    pub title: Option<String>,
}

/// `generate`: validation messages or the generated objects.
#[napi(object)]
pub struct GeneratorResult {
    /// Why the input was rejected (empty when the generator ran).
    pub validation_messages: Vec<GeneratorMessage>,
    /// The objects created (empty when validation failed).
    pub generated_objects: Vec<GeneratedObject>,
    /// The leading object's file (on success).
    pub file_path: Option<String>,
}

/// A validation message of a generator run.
#[napi(object)]
pub struct GeneratorMessage {
    /// The full message.
    pub long_text: Option<String>,
    /// A one-line summary.
    pub short_text: Option<String>,
    /// e.g. ERROR, WARNING, INFO.
    pub severity: Option<String>,
}

/// An object a generator created.
#[napi(object)]
pub struct GeneratedObject {
    /// The created object's name.
    pub object_name: String,
    /// e.g. TABL, DDLS, BDEF, SRVD, SRVB.
    pub object_type: String,
}

/// `listGenerators`.
#[napi(object)]
pub struct GeneratorList {
    /// The generators available on the system.
    pub generators: Vec<GeneratorInfo>,
}

/// One RAP generator.
#[napi(object)]
pub struct GeneratorInfo {
    /// e.g. `x-ui-service`.
    pub id: String,
    /// Display name.
    pub title: String,
    /// What the generator creates.
    pub description: String,
    /// Semicolon-separated reference object types (e.g. `TABL;DDLS;BDEF`).
    pub referenced_object_types: Option<String>,
}

/// `getGeneratorSchema`: the JSON schema of a generator's `content` and the content
/// pre-filled from the referenced object.
#[napi(object)]
pub struct GeneratorSchema {
    /// The JSON Schema the `content` passed to `generate` must satisfy.
    #[napi(ts_type = "Record<string, unknown>")]
    pub schema: Value,
    /// A `content` pre-filled from the referenced object (`{}` without one).
    #[napi(ts_type = "Record<string, unknown>")]
    pub reference_content: Value,
}

/// `validate`: adt-ls's verdict on creation input (MCP `run_validation`).
#[napi(object)]
pub struct ValidationResult {
    /// adt-ls's verdict, e.g. `Validation successful`.
    pub message: String,
    /// The object content after validation (JSON text).
    pub object_content: Option<String>,
    /// Why the input is invalid, when it is.
    pub error: Option<String>,
}

/// `listCreatableObjects` (MCP `get_all_creatable_objects`).
#[napi(object)]
pub struct CreatableObjects {
    /// The creatable object types; absent when adt-ls reports an error.
    pub creatable_objects: Option<Vec<CreatableObject>>,
    /// adt-ls's message, when it sends one.
    pub message: Option<String>,
    /// adt-ls's error, when the list could not be read.
    pub error: Option<String>,
}

/// A creatable object type.
#[napi(object)]
pub struct CreatableObject {
    /// The object type's display name, e.g. `Class`.
    pub name: String,
    /// e.g. `CLAS/OC`.
    pub object_type: String,
}

/// `getObjectTypeDetails` (MCP `get_object_type_details`).
#[napi(object)]
pub struct ObjectTypeDetails {
    /// The creation fields; absent when adt-ls reports an error.
    pub fields: Option<Vec<ObjectTypeField>>,
    /// adt-ls's message, when it sends one.
    pub message: Option<String>,
    /// adt-ls's error, e.g. for an unknown object type.
    pub error: Option<String>,
}

/// A field of the flat creation field list.
#[napi(object)]
pub struct ObjectTypeField {
    /// The field name from the binding path (e.g. `packageName`).
    pub tag: String,
    /// The field must be filled; absent: optional.
    pub required: Option<bool>,
    /// Maximum length in characters, when limited.
    pub max_length: Option<f64>,
    /// The 1-based section of the creation form the field belongs to.
    pub field_group: Option<f64>,
}
