//! The plain document queries (docs/wire.md#navigation): outline, pull diagnostics, definition,
//! declaration, and hover / highlight (which adt-ls only answers for tokens in its cache, so
//! semantic tokens are requested first). Results are passed through raw.

use super::documents::with_open_document;
use super::locator::{position, Locator};
use super::text_document;
use super::tokens::prime_tokens;
use crate::client::args::Args;
use crate::client::locate::Locating;
use crate::client::Client;
use crate::kernel::error::Result;
use serde_json::Value;
use std::future::Future;

/// A request whose only parameter is the document.
async fn on_document(me: Client, document: Locating, method: &'static str) -> Result<Value> {
    with_open_document(&me, document, |me, uri, _| {
        me.active_request(method, Some(Value::Object(text_document(&uri))))
    })
    .await
}

/// `documentSymbols(ref)`.
pub(crate) async fn document_symbols(me: Client, _: Args, document: Locating) -> Result<Value> {
    on_document(me, document, "textDocument/documentSymbol").await
}

/// `checkSyntax(ref)`: pull diagnostics, no activation.
pub(crate) async fn check_syntax(me: Client, _: Args, document: Locating) -> Result<Value> {
    on_document(me, document, "textDocument/diagnostic").await
}

/// `{textDocument: {uri}, position}` for the locator of argument 1.
async fn at_position(client: &Client, uri: &str, text: &str, locator: &Locator) -> Result<Value> {
    let mut params = text_document(uri);
    params.insert(
        "position".into(),
        position(client, uri, text, locator).await?,
    );
    Ok(Value::Object(params))
}

/// How a position query prepares the document first.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Priming {
    /// Ask at once (definition, declaration).
    None,
    /// Fill adt-ls's token cache first (hover and documentHighlight answer only for cached
    /// tokens).
    SemanticTokens,
}

/// `goToDefinition` / `goToDeclaration` / `hover` / `documentHighlight(ref, locator)`.
pub(super) async fn at_locator(
    me: Client,
    a: Args,
    document: Locating,
    method: &'static str,
    priming: Priming,
) -> Result<Value> {
    let locator = Locator::arg(&a, 1)?;
    with_open_document(&me, document, |me, uri, text| async move {
        if priming == Priming::SemanticTokens {
            prime_tokens(&me, &uri).await;
        }
        let params = at_position(&me, &uri, &text, &locator).await?;
        me.active_request(method, Some(params)).await
    })
    .await
}

/// Run `query(client, params)` with the object's document open, `params` being
/// `{textDocument, position}` at `locator`.
pub(super) async fn with_position<F, Fut>(
    client: &Client,
    document: Locating,
    locator: Locator,
    query: F,
) -> Result<Value>
where
    F: FnOnce(Client, Value) -> Fut,
    Fut: Future<Output = Result<Value>>,
{
    with_open_document(client, document, |me, uri, text| async move {
        let params = at_position(&me, &uri, &text, &locator).await?;
        query(me, params).await
    })
    .await
}
