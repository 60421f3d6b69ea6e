//! Argument and value types shared by several namespaces: object references, locators,
//! positions, edits and semantic tokens.

use napi_derive::napi;

/// An ABAP repository object by name and ADT type code, e.g.
/// `{ name: 'ZCL_X', objectType: 'CLAS/OC' }`. Methods taking one first resolve it to adt-ls's
/// file URI (`adtLs/repository/quickSearch`, then `adtLs/repository/getLsUri`) and reject with
/// `Object <name> (<type>) not found via search.` when no exact (case-insensitive) match exists.
/// With `uri` they skip the search and use that URI.
#[napi(object)]
pub struct ObjectRef {
    /// The object name, e.g. `ZCL_ORDER` (matched case-insensitively).
    pub name: String,
    /// ADT type code, e.g. "CLAS/OC", "INTF/OI", "DDLS/DF".
    pub object_type: String,
    /// The object's repotree file URI when you already know it (e.g. `lifecycle.create`'s
    /// `filePath`, or a `resolveAffUri` result): used as it is, without a search. It must
    /// belong to the connected destination (`uri of <name> is not a repotree URI of destination
    /// <dest>: <uri>` otherwise); `include` still picks a class include next to it. An empty
    /// string means "search by name".
    pub uri: Option<String>,
}

/// Where a position-based navigation query points: a declared symbol name, or an explicit
/// 1-based `line` + `character` (editor convention; converted to LSP's 0-based position).
/// Explicit coordinates win when both are given.
#[napi(object)]
pub struct Locator {
    /// A name declared in the object (looked up in `textDocument/documentSymbol`, then in the
    /// source as a whole word; `~` and `/` work, e.g. `lif_order~submit`). Not found rejects
    /// with `Symbol "<s>" not found in the outline or source. ...`.
    pub symbol: Option<String>,
    /// 1-based line; needs `character`.
    pub line: Option<f64>,
    /// 1-based character (UTF-16 code units); needs `line`.
    pub character: Option<f64>,
}

/// A 0-based LSP position, as adt-ls sends it.
#[napi(object)]
pub struct Position {
    /// 0-based line.
    pub line: f64,
    /// 0-based offset in UTF-16 code units (like a JavaScript string index).
    pub character: f64,
}

/// An LSP range: `start` inclusive, `end` exclusive.
#[napi(object)]
pub struct Range {
    /// The first position in the range.
    pub start: Position,
    /// The position just after the range (equal to `start` for an empty range).
    pub end: Position,
}

/// An LSP text edit (0-based positions in UTF-16 code units), as {@link applyTextEdits} takes it.
#[napi(object)]
pub struct TextEdit {
    /// The replaced range: `start` inclusive, `end` exclusive (an empty range inserts).
    pub range: Range,
    /// The replacement text (empty to delete).
    pub new_text: String,
}

/// The names behind semantic token indices, from adt-ls's `initialize` capabilities.
#[napi(object)]
pub struct SemanticTokensLegend {
    /// Token type names by index (adt-ls 1.1.2: 23, from `namespace` to `operator`).
    pub token_types: Vec<String>,
    /// Token modifier names by bit (adt-ls 1.1.2: 10, from `declaration` to `defaultlibrary`).
    pub token_modifiers: Vec<String>,
}

/// One semantic token with an absolute position and resolved names ({@link decodeSemanticTokens}).
#[napi(object)]
pub struct DecodedToken {
    /// 0-based line.
    pub line: f64,
    /// 0-based start character (UTF-16 code units).
    pub character: f64,
    /// Length in UTF-16 code units.
    pub length: f64,
    /// The legend's type name (or the index as a decimal string when the legend has none).
    pub token_type: String,
    /// The legend's modifier names whose bits are set.
    pub token_modifiers: Vec<String>,
}
