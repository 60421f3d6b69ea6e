//! The `transport` namespace (docs/wire.md#transport): the MCP transport tools (`tools`: find, create,
//! the paged diff), the native CTS requests on one object (`objects`: assign, check, lock
//! status) and the normalised, filtered, capped transport list (`list`).

mod list;
mod objects;
mod tools;

use super::args::Args;
use super::Client;
use crate::error::Result;
use crate::lsp::BoxFuture;
use serde_json::Value;

/// `transport.<name>(...)`, or `None` for a name this namespace does not have.
pub fn call(client: &Client, name: &str, a: Args) -> Option<BoxFuture<Result<Value>>> {
    Some(match name {
        "find" => Box::pin(tools::find(client, a)),
        "create" => Box::pin(tools::create(client, a)),
        "assign" => Box::pin(objects::assign(client, a)),
        "list" => Box::pin(list::list(client, a)),
        "check" => Box::pin(objects::check(client, a)),
        "getLockStatus" => Box::pin(objects::get_lock_status(client, a)),
        "getDiff" => Box::pin(tools::get_diff(client, a)),
        _ => return None,
    })
}
