//! Argument and value types shared by several namespaces: object references, locators,
//! positions, edits and semantic tokens.

use napi_derive::napi;

/// An object by name and ADT type code, e.g. `{ name: 'ZCL_X', objectType: 'CLAS/OC' }`.
#[napi(object)]
pub struct ObjectRef {
    pub name: String,
    /// ADT type code, e.g. "CLAS/OC", "INTF/OI", "DDLS/DF".
    pub object_type: String,
}

/// Where to point a position-based query: a declared symbol name, or an explicit 1-based
/// line and character (editor convention; converted to LSP's 0-based positions).
#[napi(object)]
pub struct Locator {
    pub symbol: Option<String>,
    pub line: Option<f64>,
    pub character: Option<f64>,
}

/// A 0-based LSP position (UTF-16 code units).
#[napi(object)]
pub struct Position {
    pub line: f64,
    pub character: f64,
}

/// An LSP range: start inclusive, end exclusive.
#[napi(object)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// An LSP text edit (0-based positions, UTF-16 code units).
#[napi(object)]
pub struct TextEdit {
    pub range: Range,
    pub new_text: String,
}

/// The server's semantic-tokens legend (from the `initialize` capabilities).
#[napi(object)]
pub struct SemanticTokensLegend {
    pub token_types: Vec<String>,
    pub token_modifiers: Vec<String>,
}

/// One decoded semantic token: absolute 0-based position and resolved names.
#[napi(object)]
pub struct DecodedToken {
    pub line: f64,
    pub character: f64,
    pub length: f64,
    pub token_type: String,
    pub token_modifiers: Vec<String>,
}
