//! The lifecycle's writes over LSP (docs/wire.md#lifecycle): `update` (writeFile), `activate`
//! (activation/activate) and `delete` (fileSystem/delete on the `.json` metadata file). Each
//! locates the object first and writes in the object's turn of the queue
//! (docs/wire.md#the-object-queue); the write runs in `with_write_retry`, so a write that died
//! with the SAP session is retried once after the probe confirmed the death and a re-logon
//! revived it, still in the same turn.

use super::activation::activate_result;
use crate::client::args::Args;
use crate::client::locate::Locating;
use crate::client::ns_args::or;
use crate::client::repository::{delete_params, revive_fn};
use crate::client::resolve::metadata_aff_uri;
use crate::client::Client;
use crate::kernel::error::Result;
use crate::resilience::wrappers::with_write_retry;
use serde_json::{json, Value};

/// One LSP write with the session-death retry.
async fn write(client: &Client, method: &'static str, params: Value) -> Result<Value> {
    let revive = revive_fn(client);
    with_write_retry(revive.as_ref(), || {
        client.active_request(method, Some(params.clone()))
    })
    .await
}

/// `update({name, objectType, uri?, source, include?})`: resolves to nothing.
pub(crate) async fn update(me: Client, _: Args, target: Locating) -> Result<Value> {
    let source = match target.opts().get("source") {
        Some(Value::String(s)) => s.clone(),
        other => {
            return Err(crate::kernel::arg_error::type_error(
                "ref.source",
                "a string",
                &crate::kernel::arg_error::Received::of_json(other),
            ))
        }
    };
    let (located, _turn) = target.turn(&me).await?;
    write(
        &me,
        "adtLs/fileSystem/writeFile",
        json!({"uri": located.uri, "content": source}),
    )
    .await?;
    Ok(Value::Null)
}

/// `activate({name, objectType, uri?, forceActivation?})` -> `ActivateResult`.
pub(crate) async fn activate(me: Client, _: Args, target: Locating) -> Result<Value> {
    let (located, _turn) = target.turn(&me).await?;
    let params = json!({
        "destination": located.dest,
        "fileUris": [located.uri],
        "references": [],
        "forceActivation": or(&located.opts, "forceActivation", json!(false)),
    });
    let res = write(&me, "adtLs/activation/activate", params).await?;
    Ok(activate_result(&res))
}

/// `delete({name, objectType, uri?})`: deletes the whole object through its metadata file.
pub(crate) async fn delete(me: Client, _: Args, target: Locating) -> Result<Value> {
    let (located, _turn) = target.turn(&me).await?;
    write(
        &me,
        "adtLs/fileSystem/delete",
        delete_params(&metadata_aff_uri(&located.uri)),
    )
    .await?;
    Ok(Value::Null)
}
