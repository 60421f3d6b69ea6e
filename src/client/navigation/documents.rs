//! `withOpenDocument` (docs/wire.md#open-documents): resolve the object, then, exclusively for that URI,
//! read its source, `textDocument/didOpen` it, run the query and always `didClose` it
//! (close errors ignored). Two calls on the same URI share one LSP connection's document
//! state, so they queue (first come, first served); different URIs run in parallel.
//!
//! The queues live in a process-wide table keyed by (client, URI) that holds them weakly:
//! an entry disappears once nobody is waiting on it.

use crate::client::repository::read;
use crate::client::resolve::{resolve_aff_uri, ObjectRef};
use crate::client::Client;
use crate::error::Result;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock, Weak};

type Queue = tokio::sync::Mutex<()>;
type Key = (usize, String);

fn table() -> &'static Mutex<HashMap<Key, Weak<Queue>>> {
    static TABLE: OnceLock<Mutex<HashMap<Key, Weak<Queue>>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The queue of one client's URI (created on first use).
fn queue_for(client: &Client, uri: &str) -> Arc<Queue> {
    let key = (std::ptr::from_ref(client.inner()) as usize, uri.to_string());
    let mut table = table().lock().unwrap_or_else(|p| p.into_inner());
    table.retain(|_, q| q.strong_count() > 0);
    if let Some(q) = table.get(&key).and_then(Weak::upgrade) {
        return q;
    }
    let q = Arc::new(Queue::new(()));
    table.insert(key, Arc::downgrade(&q));
    q
}

/// Run `query(uri, source)` with the object's document open.
pub async fn with_open_document<F, Fut>(
    client: &Client,
    dest: &str,
    r: &ObjectRef,
    query: F,
) -> Result<Value>
where
    F: FnOnce(String, String) -> Fut,
    Fut: Future<Output = Result<Value>>,
{
    let uri = resolve_aff_uri(client, dest, r).await?;
    let _turn = queue_for(client, &uri).lock_owned().await;
    let text = read(client, &uri).await?;
    notify(
        client,
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "abap", "version": 1, "text": text}}),
    )
    .await?;
    let out = query(uri.clone(), text).await;
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
