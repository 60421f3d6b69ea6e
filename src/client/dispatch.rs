//! The method table: dotted JS method names to their implementations. Unknown names are a
//! programming error of the N-API layer and reject clearly.

use super::args::Args;
use super::{lifecycle, navigation, quality, raw, repository, services, source, transport, Client};
use crate::error::{Error, Result};
use crate::lsp::BoxFuture;
use serde_json::Value;

/// Every method the JS client object exposes, by namespace (health and dispose are separate).
/// Methods declared `Promise<void>`: they resolve `undefined`.
pub const VOID_METHODS: &[&str] = &["lifecycle.update", "lifecycle.delete"];

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
    "source.read",
    "lifecycle.resolveAffUri",
    "lifecycle.create",
    "lifecycle.update",
    "lifecycle.activate",
    "lifecycle.runUnitTests",
    "lifecycle.delete",
    "lifecycle.generate",
    "lifecycle.validate",
    "lifecycle.listCreatableObjects",
    "lifecycle.getObjectTypeDetails",
    "lifecycle.getCreationForm",
    "lifecycle.listGenerators",
    "lifecycle.getGeneratorSchema",
    "navigation.documentSymbols",
    "navigation.checkSyntax",
    "navigation.goToDefinition",
    "navigation.goToDeclaration",
    "navigation.hover",
    "navigation.documentHighlight",
    "navigation.findReferences",
    "navigation.typeHierarchy",
    "navigation.completion",
    "navigation.format",
    "navigation.semanticTokens",
    "quality.listAtcVariants",
    "quality.runAtc",
    "quality.runUnitTestsWithCoverage",
    "services.runApplication",
    "services.serviceBindingDetails",
    "services.publishServiceBinding",
    "services.listServices",
    "services.getServiceInfo",
    "transport.find",
    "transport.create",
    "transport.assign",
    "transport.list",
    "transport.check",
    "transport.getLockStatus",
    "transport.getDiff",
];

/// The namespaces that route their own method names.
type Namespace = fn(&Client, &str, Args) -> Option<BoxFuture<Result<Value>>>;
const NAMESPACES: &[(&str, Namespace)] = &[
    ("lifecycle.", lifecycle::call),
    ("navigation.", navigation::call),
    ("quality.", quality::call),
    ("services.", services::call),
    ("transport.", transport::call),
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
        "source.read" => Box::pin(source::read_source(client, args)),
        other => namespaced(client, other, args).unwrap_or_else(|| unknown(other)),
    }
}

/// A `<namespace>.<name>` method of one of [`NAMESPACES`].
fn namespaced(client: &Client, method: &str, args: Args) -> Option<BoxFuture<Result<Value>>> {
    let (name, route) = NAMESPACES
        .iter()
        .find_map(|(prefix, route)| Some((method.strip_prefix(prefix)?, route)))?;
    route(client, name, args)
}

fn unknown(other: &str) -> BoxFuture<Result<Value>> {
    let e = Error::new(format!("adt-ls-native: unknown client method {other}"));
    Box::pin(async move { Err(e) })
}
