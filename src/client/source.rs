//! The `source` namespace (docs/wire.md#source): read an object's source (or a class include) by
//! name; adt-ls's "not supported" placeholder becomes the reference's error.

use super::args::Args;
use super::repository::read;
use super::resolve::{is_unsupported_placeholder, resolve_with_include, ObjectRef};
use super::Client;
use crate::error::{Error, Result};
use serde_json::Value;
use std::future::Future;

/// `source.read({name, objectType, include?})`.
pub fn read_source(
    client: &Client,
    a: Args,
) -> impl Future<Output = Result<Value>> + Send + 'static {
    let me = client.clone();
    async move {
        let dest = me.begin()?;
        let (r, opts) = ObjectRef::arg(&a, 0)?;
        let uri = resolve_with_include(&me, &dest, &r, opts.get("include")).await?;
        let content = read(&me, &uri).await?;
        if is_unsupported_placeholder(&content) {
            return Err(Error::new(format!(
                "Object type {} is not served by adt-ls headless on this runtime/backend. Use Eclipse for this type or update SAPSE.adt-vscode.",
                r.object_type
            )));
        }
        Ok(Value::String(content))
    }
}
