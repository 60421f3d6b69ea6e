//! Pure text helpers of the navigation namespace (docs/wire.md#navigation): applying LSP
//! `TextEdit`s to a source text ([`edits`]) and decoding delta-encoded semantic tokens
//! ([`semantic`]). Both keep their output bounded by their input (docs/security.md#pure-exports).
//!
//! Positions count UTF-16 code units, exactly like JavaScript string indices. Numbers arrive
//! as `i64`. The N-API layer's int64 conversion truncates fractional JS numbers and turns
//! NaN/±Infinity into 0; JSON input goes through [`js_int`], which does the same.

mod edits;
mod semantic;

pub use edits::{apply_text_edits, apply_text_edits_utf16, EditError};
pub use semantic::{
    decode_semantic_tokens, modifier_indices, modifier_name_count, DecodedTokens, TokenIndices,
    TokenType, MODIFIER_NAME_ALLOWANCE,
};

use serde::{Deserialize, Deserializer, Serialize};

/// A 0-based LSP position (`character` in UTF-16 code units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Position {
    #[serde(deserialize_with = "js_int")]
    pub line: i64,
    #[serde(deserialize_with = "js_int")]
    pub character: i64,
}

/// An LSP range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// An LSP `TextEdit`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextEdit {
    pub range: Range,
    pub new_text: String,
}

/// The server's semantic-tokens legend (`SemanticTokensLegend`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Legend {
    #[serde(default)]
    pub token_types: Vec<String>,
    #[serde(default)]
    pub token_modifiers: Vec<String>,
}

/// Deserializes a JSON number as JS code would use it as an integer: integers as they are
/// (saturating beyond `i64`), fractions truncated toward zero.
pub fn js_int<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    Ok(match (number.as_i64(), number.as_u64(), number.as_f64()) {
        (Some(i), _, _) => i,
        (None, Some(_), _) => i64::MAX,
        // `as` truncates toward zero and saturates; NaN cannot occur in JSON.
        (None, None, Some(f)) => f as i64,
        (None, None, None) => 0,
    })
}

#[cfg(test)]
mod tests;
