//! The `navigation` namespace (docs/wire.md#navigation): code intelligence on one object's document.
//! Every method resolves the object, then works inside `documents::with_open_document`
//! (readFile, didOpen, the query, didClose; serialised per URI). Positions come from a
//! `Locator` (`locator`); each group of requests has its own module.

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
use super::resolve::ObjectRef;
use super::Client;
use crate::error::Result;
use crate::lsp::BoxFuture;
use queries::Priming;
use serde_json::{Map, Value};

/// `navigation.<name>(...)`, or `None` for a name this namespace does not have.
pub fn call(client: &Client, name: &str, a: Args) -> Option<BoxFuture<Result<Value>>> {
    Some(match name {
        "documentSymbols" => Box::pin(queries::document_symbols(client, a)),
        "checkSyntax" => Box::pin(queries::check_syntax(client, a)),
        "goToDefinition" => Box::pin(queries::at_locator(
            client,
            a,
            "textDocument/definition",
            Priming::None,
        )),
        "goToDeclaration" => Box::pin(queries::at_locator(
            client,
            a,
            "textDocument/declaration",
            Priming::None,
        )),
        "hover" => Box::pin(queries::at_locator(
            client,
            a,
            "textDocument/hover",
            Priming::SemanticTokens,
        )),
        "documentHighlight" => Box::pin(queries::at_locator(
            client,
            a,
            "textDocument/documentHighlight",
            Priming::SemanticTokens,
        )),
        "findReferences" => Box::pin(references::find_references(client, a)),
        "typeHierarchy" => Box::pin(hierarchy::type_hierarchy(client, a)),
        "completion" => Box::pin(completion::completion(client, a)),
        "format" => Box::pin(format::format(client, a)),
        "semanticTokens" => Box::pin(tokens::semantic_tokens(client, a)),
        _ => return None,
    })
}

/// What every navigation method starts with: activity, the destination, the object ref.
fn begin(client: &Client, a: &Args) -> Result<(String, ObjectRef)> {
    let dest = client.begin()?;
    let (r, _) = ObjectRef::arg(a, 0)?;
    Ok((dest, r))
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
