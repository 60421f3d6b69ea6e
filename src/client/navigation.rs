//! The `navigation` namespace (docs/wire.md#navigation): code intelligence on one object's
//! document. Every method gets its object located at the call (the registry's `on_object!`),
//! then works inside `documents::with_open_document` (readFile, didOpen, the query, didClose;
//! in the object's turn of the object queue). Positions come from a `Locator` (`locator`);
//! each group of requests has its own module.

mod completion;
mod documents;
mod format;
mod hierarchy;
mod locator;
mod queries;
mod references;
mod tokens;
mod word;

use super::args::Args;
use super::locate::Locating;
use super::Client;
use crate::kernel::error::Result;
use queries::Priming;
use serde_json::{Map, Value};

pub(super) use completion::completion;
pub(super) use format::format;
pub(super) use hierarchy::type_hierarchy;
pub(super) use queries::{check_syntax, document_symbols};
pub(super) use references::find_references;
pub(crate) use tokens::semantic_tokens;
#[cfg(not(test))] // the binding's, which `cargo test` does not build
pub(crate) use tokens::{TokensReply, SEMANTIC_TOKENS_METHOD};

/// `goToDefinition(ref, locator)`: `textDocument/definition` at the locator.
pub(super) async fn go_to_definition(me: Client, a: Args, document: Locating) -> Result<Value> {
    queries::at_locator(me, a, document, "textDocument/definition", Priming::None).await
}

/// `goToDeclaration(ref, locator)`: `textDocument/declaration` at the locator.
pub(super) async fn go_to_declaration(me: Client, a: Args, document: Locating) -> Result<Value> {
    queries::at_locator(me, a, document, "textDocument/declaration", Priming::None).await
}

/// `hover(ref, locator)`: `textDocument/hover` after priming the token cache.
pub(super) async fn hover(me: Client, a: Args, document: Locating) -> Result<Value> {
    queries::at_locator(
        me,
        a,
        document,
        "textDocument/hover",
        Priming::SemanticTokens,
    )
    .await
}

/// `documentHighlight(ref, locator)`: `textDocument/documentHighlight` after priming.
pub(super) async fn document_highlight(me: Client, a: Args, document: Locating) -> Result<Value> {
    queries::at_locator(
        me,
        a,
        document,
        "textDocument/documentHighlight",
        Priming::SemanticTokens,
    )
    .await
}

/// `{textDocument: {uri}}`.
fn text_document(uri: &str) -> Map<String, Value> {
    let mut doc = Map::new();
    doc.insert("uri".into(), Value::String(uri.to_string()));
    let mut out = Map::new();
    out.insert("textDocument".into(), Value::Object(doc));
    out
}

/// An LSP node without its opaque `data` member.
fn strip_data(node: &Value) -> Value {
    match node {
        Value::Object(map) if map.contains_key("data") => {
            let mut out = map.clone();
            out.shift_remove("data");
            Value::Object(out)
        }
        other => other.clone(),
    }
}
