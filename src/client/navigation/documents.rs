//! `withOpenDocument` (docs/wire.md#open-documents): for the object located at the call (resolved
//! now when its ref had no `uri`), inside its turn in
//! the object queue (docs/wire.md#the-object-queue), read its source, `textDocument/didOpen`
//! it, run the query and always `didClose` it (close errors ignored). Two navigation calls on
//! one object share one LSP connection's document state, so they run one after the other, as
//! do the object's file operations and writes; different objects run in parallel.

use crate::client::locate::Locating;
use crate::client::repository::read;
use crate::client::Client;
use crate::kernel::error::Result;
use serde_json::{json, Value};
use std::future::Future;

/// Run `query(client, uri, source)` with the object's document open.
pub(crate) async fn with_open_document<F, Fut>(
    client: &Client,
    document: Locating,
    query: F,
) -> Result<Value>
where
    F: FnOnce(Client, String, String) -> Fut,
    Fut: Future<Output = Result<Value>>,
{
    let (located, _turn) = document.turn(client).await?;
    let uri = located.uri;
    let text = read(client, &uri).await?;
    notify(
        client,
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "abap", "version": 1, "text": text}}),
    )
    .await?;
    let out = query(client.clone(), uri.clone(), text).await;
    let _ = notify(
        client,
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    )
    .await;
    out
}

/// A notification through the activity tracker (notifications are not re-logon wrapped).
async fn notify(client: &Client, method: &str, params: Value) -> Result<()> {
    client.touch()?;
    client
        .inner()
        .driver
        .notification(method, Some(params))
        .await
}
