//! Dispatch: a dotted JS method name to its implementation in the [`registry`]. Unknown
//! names are a programming error of the N-API layer and reject clearly.

use super::args::Args;
use super::registry;
use super::Client;
use crate::kernel::error::{Error, Result};
use crate::kernel::future::BoxFuture;
use serde_json::Value;

/// Start `method`; the second value is true for the methods that resolve `undefined`.
pub(super) fn call(client: &Client, method: &str, args: Args) -> (BoxFuture<Result<Value>>, bool) {
    match registry::find(method) {
        Some(m) => ((m.run)(client, args), m.spec.is_void()),
        None => (unknown(method), false),
    }
}

fn unknown(other: &str) -> BoxFuture<Result<Value>> {
    let e = Error::new(format!("adt-ls-native: unknown client method {other}"));
    Box::pin(async move { Err(e) })
}
