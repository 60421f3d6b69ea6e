//! `format(ref, {tabSize?, insertSpaces?})` (docs/wire.md#navigation): adt-ls's pretty printer
//! (`textDocument/formatting`, registered by adt-ls per document on didOpen) and its edits
//! applied to the source read for the call; edits that cannot be applied (a reversed range,
//! overlapping ranges) reject with `ERR_INVALID_TEXT_EDIT` instead of a corrupted source.

use super::documents::with_open_document;
use super::text_document;
use crate::client::args::{self, Args};
use crate::client::locate::Locating;
use crate::client::ns_args::or;
use crate::client::Client;
use crate::kernel::error::{Error, Result};
use crate::lsp::text::{apply_text_edits, TextEdit};
use serde_json::{json, Value};

/// `format(ref, opts)` -> `{formatted, edits}`.
pub(crate) async fn format(me: Client, a: Args, document: Locating) -> Result<Value> {
    let opts = args::method_options(&a, 1, "navigation.format")?;
    let options = json!({
        "tabSize": or(&opts, "tabSize", json!(2)),
        "insertSpaces": or(&opts, "insertSpaces", json!(true)),
    });
    with_open_document(&me, document, |me, uri, text| async move {
        let mut params = text_document(&uri);
        params.insert("options".into(), options);
        let res = me
            .active_request("textDocument/formatting", Some(Value::Object(params)))
            .await?;
        let edits = match res {
            Value::Array(list) => Value::Array(list),
            _ => json!([]),
        };
        let parsed: Vec<TextEdit> = serde_json::from_value(edits.clone()).map_err(|e| {
            Error::new(format!(
                "textDocument/formatting returned malformed edits: {e}"
            ))
        })?;
        let formatted = apply_text_edits(&text, &parsed).map_err(|e| {
            e.into_error("textDocument/formatting returned edits that cannot be applied: ")
        })?;
        Ok(json!({"formatted": formatted, "edits": edits}))
    })
    .await
}
