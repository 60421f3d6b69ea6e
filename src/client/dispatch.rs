//! The method table: dotted JS method names to their implementations. Unknown names are a
//! programming error of the N-API layer and reject clearly.

use super::args::Args;
use super::{raw, repository, Client};
use crate::error::{Error, Result};
use crate::lsp::BoxFuture;
use serde_json::Value;

/// Every method the JS client object exposes, by namespace (health and dispose are separate).
pub const METHODS: &[&str] = &[
    "capabilities",
    "listDestinations",
    "reconnect",
    "raw.lsp",
    "raw.tool",
    "repository.search",
    "repository.getUsers",
    "repository.getLsUri",
    "repository.readFile",
    "repository.writeFile",
    "repository.delete",
    "repository.listInactive",
];

pub fn call(client: &Client, method: &str, args: Args) -> BoxFuture<Result<Value>> {
    match method {
        "capabilities" => Box::pin(raw::capabilities(client)),
        "listDestinations" => Box::pin(raw::list_destinations(client)),
        "reconnect" => Box::pin(raw::reconnect(client)),
        "raw.lsp" => Box::pin(raw::lsp(client, args)),
        "raw.tool" => Box::pin(raw::tool(client, args)),
        "repository.search" => Box::pin(repository::search(client, args)),
        "repository.getUsers" => Box::pin(repository::get_users(client)),
        "repository.getLsUri" => Box::pin(repository::get_ls_uri(client, args)),
        "repository.readFile" => Box::pin(repository::read_file(client, args)),
        "repository.writeFile" => Box::pin(repository::write_file(client, args)),
        "repository.delete" => Box::pin(repository::delete(client, args)),
        "repository.listInactive" => Box::pin(repository::list_inactive(client)),
        other => {
            let e = Error::new(format!("adt-ls-native: unknown client method {other}"));
            Box::pin(async move { Err(e) })
        }
    }
}
