//! The standard LSP 3.17 result types the `navigation` namespace hands back as adt-ls sent
//! them (opaque `data` members removed where the engine strips them).

use napi_derive::napi;
use serde_json::Value;

use super::common::Range;

/// A location inside a resource.
#[napi(object)]
pub struct Location {
    /// The resource's URI (adt-ls's repotree AFF URI for ABAP objects).
    pub uri: String,
    /// The range inside the resource (0-based).
    pub range: Range,
}

/// A link between a source and a target location.
#[napi(object)]
pub struct LocationLink {
    /// The span in the queried document the link starts from; absent: the word at the
    /// position.
    pub origin_selection_range: Option<Range>,
    /// The target resource's URI.
    pub target_uri: String,
    /// The whole target (e.g. a method's full implementation).
    pub target_range: Range,
    /// The part of the target to select (e.g. the method's name); inside `targetRange`.
    pub target_selection_range: Range,
}

/// A related message of a diagnostic.
#[napi(object)]
pub struct DiagnosticRelatedInformation {
    /// Where the related message applies.
    pub location: Location,
    /// The related message.
    pub message: String,
}

/// A compiler message (LSP `Diagnostic`).
#[napi(object)]
pub struct Diagnostic {
    /// The range the message applies to (0-based).
    pub range: Range,
    /// 1 error, 2 warning, 3 information, 4 hint; absent: up to the client.
    #[napi(ts_type = "1 | 2 | 3 | 4")]
    pub severity: Option<f64>,
    /// The message's code, when adt-ls gives one.
    #[napi(ts_type = "number | string")]
    pub code: Option<Value>,
    /// Where `code` is described, when adt-ls links it.
    pub code_description: Option<CodeDescription>,
    /// Who produced the message, when given.
    pub source: Option<String>,
    /// The message text.
    pub message: String,
    /// LSP `DiagnosticTag`s: 1 unnecessary, 2 deprecated.
    pub tags: Option<Vec<f64>>,
    /// Related messages elsewhere (e.g. the declaration a message refers to).
    pub related_information: Option<Vec<DiagnosticRelatedInformation>>,
    /// Server data kept between diagnostics and code actions; opaque.
    #[napi(ts_type = "unknown")]
    pub data: Option<Value>,
}

/// Where a diagnostic code is described.
#[napi(object)]
pub struct CodeDescription {
    /// A URL describing the code.
    pub href: String,
}

/// A full pull-diagnostics report (`textDocument/diagnostic`).
#[napi(object)]
pub struct FullDocumentDiagnosticReport {
    /// Always `'full'`: `items` holds every diagnostic of the document.
    #[napi(ts_type = "'full'")]
    pub kind: String,
    /// An id to pass back as `previousResultId`, when adt-ls gives one.
    pub result_id: Option<String>,
    /// The diagnostics (empty when the source is clean).
    pub items: Vec<Diagnostic>,
}

/// An unchanged pull-diagnostics report: the previous `resultId` still holds.
#[napi(object)]
pub struct UnchangedDocumentDiagnosticReport {
    /// Always `'unchanged'`.
    #[napi(ts_type = "'unchanged'")]
    pub kind: String,
    /// The id of the earlier report whose diagnostics still hold.
    pub result_id: String,
}

/// Markdown or plain text.
#[napi(object)]
pub struct MarkupContent {
    /// How `value` is written.
    #[napi(ts_type = "'plaintext' | 'markdown'")]
    pub kind: String,
    /// The text.
    pub value: String,
}

/// Hover information (`textDocument/hover`).
#[napi(object)]
pub struct Hover {
    /// The hover text (e.g. the ABAP signature and ABAP Doc): markup, or the older
    /// LSP `MarkedString` forms (a string, a code block with its language, or a list of them).
    #[napi(ts_type = "MarkupContent | string | {\
            \n  /** The code block's language, e.g. `abap`. */\
            \n  language: string\
            \n  /** The code. */\
            \n  value: string\
            \n} | Array<string | {\
            \n  /** The code block's language, e.g. `abap`. */\
            \n  language: string\
            \n  /** The code. */\
            \n  value: string\
            \n}>")]
    pub contents: Value,
    /// The hovered range; absent: the word at the position.
    pub range: Option<Range>,
}

/// A highlighted occurrence (`textDocument/documentHighlight`).
#[napi(object)]
pub struct DocumentHighlight {
    /// The occurrence (0-based).
    pub range: Range,
    /// 1 text, 2 read, 3 write; absent: text.
    #[napi(ts_type = "1 | 2 | 3")]
    pub kind: Option<f64>,
}

/// A symbol of the outline, with its children (`textDocument/documentSymbol`).
#[napi(object)]
pub struct DocumentSymbol {
    /// The symbol's name, e.g. a class, method or attribute name.
    pub name: String,
    /// More detail, e.g. a signature, when adt-ls gives it.
    pub detail: Option<String>,
    /// LSP `SymbolKind` (5 class, 6 method, 11 interface, ...).
    pub kind: f64,
    /// LSP `SymbolTag`s: 1 deprecated.
    pub tags: Option<Vec<f64>>,
    /// Deprecated flag of older servers (use `tags`).
    pub deprecated: Option<bool>,
    /// The whole symbol, body included (0-based).
    pub range: Range,
    /// The symbol's name inside `range`.
    pub selection_range: Range,
    /// Nested symbols (e.g. a class's methods); absent or empty for a leaf.
    pub children: Option<Vec<DocumentSymbol>>,
}

/// A flat symbol (the older `textDocument/documentSymbol` answer).
#[napi(object)]
pub struct SymbolInformation {
    /// The symbol's name.
    pub name: String,
    /// LSP `SymbolKind` (5 class, 6 method, 11 interface, ...).
    pub kind: f64,
    /// LSP `SymbolTag`s: 1 deprecated.
    pub tags: Option<Vec<f64>>,
    /// Deprecated flag of older servers (use `tags`).
    pub deprecated: Option<bool>,
    /// Where the symbol is.
    pub location: Location,
    /// The name of the enclosing symbol, when there is one.
    pub container_name: Option<String>,
}

/// A type in a type hierarchy (`textDocument/prepareTypeHierarchy`, without `data`).
#[napi(object)]
pub struct TypeHierarchyItem {
    /// The type's name, e.g. `ZCL_ORDER`.
    pub name: String,
    /// LSP `SymbolKind` (5 class, 11 interface).
    pub kind: f64,
    /// LSP `SymbolTag`s: 1 deprecated.
    pub tags: Option<Vec<f64>>,
    /// More detail, when adt-ls gives it.
    pub detail: Option<String>,
    /// The URI of the type's source.
    pub uri: String,
    /// The type's whole declaration (0-based).
    pub range: Range,
    /// The type's name inside `range`.
    pub selection_range: Range,
}

/// A completion proposal (`textDocument/completion`, resolved with `completionItem/resolve`
/// on request; without `data`).
#[napi(object)]
pub struct CompletionItem {
    /// The proposal as shown, and the inserted text unless `insertText` / `textEdit` say
    /// otherwise.
    pub label: String,
    /// Extra text shown next to the label.
    pub label_details: Option<CompletionItemLabelDetails>,
    /// LSP `CompletionItemKind` (e.g. 2 method, 3 function, 5 field, 7 class, 14 keyword).
    pub kind: Option<f64>,
    /// LSP `CompletionItemTag`s: 1 deprecated.
    pub tags: Option<Vec<f64>>,
    /// More detail, e.g. a signature (often only after resolving).
    pub detail: Option<String>,
    /// Documentation, e.g. ABAP Doc (often only after resolving).
    #[napi(ts_type = "string | MarkupContent")]
    pub documentation: Option<Value>,
    /// Deprecated flag of older servers (use `tags`).
    pub deprecated: Option<bool>,
    /// Select this proposal first.
    pub preselect: Option<bool>,
    /// Sort key; absent: `label`.
    pub sort_text: Option<String>,
    /// Filter key; absent: `label`.
    pub filter_text: Option<String>,
    /// The text to insert; absent: `label`. Ignored when `textEdit` is set.
    pub insert_text: Option<String>,
    /// 1 plain text, 2 snippet.
    #[napi(ts_type = "1 | 2")]
    pub insert_text_format: Option<f64>,
    /// 1 as is, 2 adjust indentation.
    #[napi(ts_type = "1 | 2")]
    pub insert_text_mode: Option<f64>,
    /// The edit that applies the proposal (an LSP `TextEdit` or `InsertReplaceEdit`).
    #[napi(ts_type = "unknown")]
    pub text_edit: Option<Value>,
    /// Further edits applied with the proposal (e.g. elsewhere in the document).
    pub additional_text_edits: Option<Vec<super::common::TextEdit>>,
    /// Characters that accept the proposal when typed.
    pub commit_characters: Option<Vec<String>>,
    /// An LSP `Command` to run after inserting.
    #[napi(ts_type = "unknown")]
    pub command: Option<Value>,
}

/// Extra label text of a completion item.
#[napi(object)]
pub struct CompletionItemLabelDetails {
    /// Shown right after the label, e.g. a signature.
    pub detail: Option<String>,
    /// Shown after `detail`, less prominently, e.g. a type or a containing object.
    pub description: Option<String>,
}
