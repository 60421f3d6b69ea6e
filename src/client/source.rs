//! The `source` namespace (docs/wire.md#source): read an object's source (or a class include) by
//! name or known URI, in the version adt-ls serves or, with `version: 'active'`, the active
//! one (docs/wire.md#source-versions), inside the object's turn of the queue; adt-ls's
//! "not supported" placeholder becomes the reference's error.

use super::args::Args;
use super::locate::Locating;
use super::repository::read;
use super::resolve::is_unsupported_placeholder;
use super::versions::{read_active, requested, SourceVersion};
use super::Client;
use crate::kernel::error::{Error, Result};
use serde_json::Value;

/// `source.read({name, objectType, uri?, include?, version?})`.
pub(super) async fn read_source(me: Client, _: Args, target: Locating) -> Result<Value> {
    let version = requested(target.opts())?;
    let (located, turn) = target.turn(&me).await?;
    let content = if version == Some(SourceVersion::Active) {
        read_active(&me, &located.uri, turn).await?
    } else {
        let _turn = turn;
        read(&me, &located.uri).await?
    };
    if is_unsupported_placeholder(&content) {
        return Err(Error::new(format!(
            "Object type {} is not served by adt-ls headless on this runtime/backend. Use Eclipse for this type or update SAPSE.adt-vscode.",
            located.object.object_type
        )));
    }
    Ok(Value::String(content))
}
