//! The plain document queries (docs/wire.md#navigation): outline, pull diagnostics, definition,
//! declaration, and hover / highlight (which adt-ls only answers for tokens in its cache, so
//! semantic tokens are requested first). Results are passed through raw.

use super::documents::{document_of, with_open_document};
use super::locator::{position, Locator};
use super::text_document;
use super::tokens::prime_tokens;
use crate::client::args::Args;
use crate::client::Client;
use crate::kernel::error::Result;
use serde_json::Value;
use std::future::Future;

/// A request whose only parameter is the document.
fn on_document(
    client: &Client,
    a: Args,
    method: &'static str,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    let document = document_of(client, &a);
    async move {
        let document = document?;
        with_open_document(&me, document, |uri, _| {
            me.active_request(method, Some(Value::Object(text_document(&uri))))
        })
        .await
    }
}

/// `documentSymbols(ref)`.
pub(crate) fn document_symbols(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    on_document(client, a, "textDocument/documentSymbol")
}

/// `checkSyntax(ref)`: pull diagnostics, no activation.
pub(crate) fn check_syntax(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    on_document(client, a, "textDocument/diagnostic")
}

/// `{textDocument: {uri}, position}` for the locator of argument 1.
pub(super) async fn at_position(
    client: &Client,
    uri: &str,
    text: &str,
    locator: &Locator,
) -> Result<Value> {
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
pub(super) fn at_locator(
    client: &Client,
    a: Args,
    method: &'static str,
    priming: Priming,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    let document = document_of(client, &a);
    async move {
        let document = document?;
        let locator = Locator::arg(&a, 1)?;
        with_open_document(&me, document, |uri, text| {
            let me = me.clone();
            async move {
                if priming == Priming::SemanticTokens {
                    prime_tokens(&me, &uri).await;
                }
                let params = at_position(&me, &uri, &text, &locator).await?;
                me.active_request(method, Some(params)).await
            }
        })
        .await
    }
}
