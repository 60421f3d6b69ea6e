//! The standard LSP 3.17 result types the `navigation` namespace hands back as adt-ls sent
//! them (opaque `data` members removed where the engine strips them).

use napi_derive::napi;
use serde_json::Value;

use super::common::Range;

/// A location inside a resource.
#[napi(object)]
pub struct Location {
    pub uri: String,
    pub range: Range,
}

/// A link between a source and a target location.
#[napi(object)]
pub struct LocationLink {
    pub origin_selection_range: Option<Range>,
    pub target_uri: String,
    pub target_range: Range,
    pub target_selection_range: Range,
}

/// A related message of a diagnostic.
#[napi(object)]
pub struct DiagnosticRelatedInformation {
    pub location: Location,
    pub message: String,
}

/// A compiler message (LSP `Diagnostic`). `severity`: 1 error, 2 warning, 3 information,
/// 4 hint.
#[napi(object)]
pub struct Diagnostic {
    pub range: Range,
    #[napi(ts_type = "1 | 2 | 3 | 4")]
    pub severity: Option<f64>,
    #[napi(ts_type = "number | string")]
    pub code: Option<Value>,
    pub code_description: Option<CodeDescription>,
    pub source: Option<String>,
    pub message: String,
    pub tags: Option<Vec<f64>>,
    pub related_information: Option<Vec<DiagnosticRelatedInformation>>,
    #[napi(ts_type = "unknown")]
    pub data: Option<Value>,
}

/// Where a diagnostic code is described.
#[napi(object)]
pub struct CodeDescription {
    pub href: String,
}

/// A full pull-diagnostics report (`textDocument/diagnostic`).
#[napi(object)]
pub struct FullDocumentDiagnosticReport {
    #[napi(ts_type = "'full'")]
    pub kind: String,
    pub result_id: Option<String>,
    pub items: Vec<Diagnostic>,
}

/// An unchanged pull-diagnostics report: the previous `resultId` still holds.
#[napi(object)]
pub struct UnchangedDocumentDiagnosticReport {
    #[napi(ts_type = "'unchanged'")]
    pub kind: String,
    pub result_id: String,
}

/// Markdown or plain text.
#[napi(object)]
pub struct MarkupContent {
    #[napi(ts_type = "'plaintext' | 'markdown'")]
    pub kind: String,
    pub value: String,
}

/// Hover information (`textDocument/hover`).
#[napi(object)]
pub struct Hover {
    #[napi(
        ts_type = "MarkupContent | string | { language: string; value: string } | Array<string | { language: string; value: string }>"
    )]
    pub contents: Value,
    pub range: Option<Range>,
}

/// A highlighted occurrence; `kind` 1 text, 2 read, 3 write.
#[napi(object)]
pub struct DocumentHighlight {
    pub range: Range,
    #[napi(ts_type = "1 | 2 | 3")]
    pub kind: Option<f64>,
}

/// A symbol of the outline, with its children (`textDocument/documentSymbol`).
#[napi(object)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: Option<String>,
    /// LSP `SymbolKind` (5 class, 6 method, 11 interface, ...).
    pub kind: f64,
    pub tags: Option<Vec<f64>>,
    pub deprecated: Option<bool>,
    pub range: Range,
    pub selection_range: Range,
    pub children: Option<Vec<DocumentSymbol>>,
}

/// A flat symbol (the older `textDocument/documentSymbol` answer).
#[napi(object)]
pub struct SymbolInformation {
    pub name: String,
    pub kind: f64,
    pub tags: Option<Vec<f64>>,
    pub deprecated: Option<bool>,
    pub location: Location,
    pub container_name: Option<String>,
}

/// A type in a type hierarchy (`textDocument/prepareTypeHierarchy`, without `data`).
#[napi(object)]
pub struct TypeHierarchyItem {
    pub name: String,
    pub kind: f64,
    pub tags: Option<Vec<f64>>,
    pub detail: Option<String>,
    pub uri: String,
    pub range: Range,
    pub selection_range: Range,
}

/// A completion proposal (`textDocument/completion`, resolved with `completionItem/resolve`
/// on request; without `data`).
#[napi(object)]
pub struct CompletionItem {
    pub label: String,
    pub label_details: Option<CompletionItemLabelDetails>,
    /// LSP `CompletionItemKind`.
    pub kind: Option<f64>,
    pub tags: Option<Vec<f64>>,
    pub detail: Option<String>,
    #[napi(ts_type = "string | MarkupContent")]
    pub documentation: Option<Value>,
    pub deprecated: Option<bool>,
    pub preselect: Option<bool>,
    pub sort_text: Option<String>,
    pub filter_text: Option<String>,
    pub insert_text: Option<String>,
    /// 1 plain text, 2 snippet.
    #[napi(ts_type = "1 | 2")]
    pub insert_text_format: Option<f64>,
    /// 1 as is, 2 adjust indentation.
    #[napi(ts_type = "1 | 2")]
    pub insert_text_mode: Option<f64>,
    #[napi(ts_type = "unknown")]
    pub text_edit: Option<Value>,
    pub additional_text_edits: Option<Vec<super::common::TextEdit>>,
    pub commit_characters: Option<Vec<String>>,
    #[napi(ts_type = "unknown")]
    pub command: Option<Value>,
}

/// Extra label text of a completion item.
#[napi(object)]
pub struct CompletionItemLabelDetails {
    pub detail: Option<String>,
    pub description: Option<String>,
}
