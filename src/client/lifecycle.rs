//! The `lifecycle` namespace (docs/wire.md#lifecycle): resolve, create / update / activate / test /
//! delete an object, generators, validation and the creation metadata. Writes live in
//! `writes` (with the session-death retry), the activation result in `activation`, the
//! MCP-backed calls in `tools`, the native creation form in `creation_form`.

mod activation;
mod creation_form;
mod tools;
mod writes;

use super::args::Args;
use super::{resolve, Client};
use crate::error::Result;
use crate::lsp::BoxFuture;
use serde_json::Value;

/// `lifecycle.<name>(...)`, or `None` for a name this namespace does not have.
pub fn call(client: &Client, name: &str, a: Args) -> Option<BoxFuture<Result<Value>>> {
    Some(match name {
        "resolveAffUri" => Box::pin(resolve::resolve_method(client, a)),
        "create" => Box::pin(tools::create(client, a)),
        "update" => Box::pin(writes::update(client, a)),
        "activate" => Box::pin(writes::activate(client, a)),
        "runUnitTests" => Box::pin(tools::run_unit_tests(client, a)),
        "delete" => Box::pin(writes::delete(client, a)),
        "generate" => Box::pin(tools::generate(client, a)),
        "validate" => Box::pin(tools::validate(client, a)),
        "listCreatableObjects" => Box::pin(tools::list_creatable_objects(client)),
        "getObjectTypeDetails" => Box::pin(tools::get_object_type_details(client, a)),
        "getCreationForm" => Box::pin(creation_form::get_creation_form(client, a)),
        "listGenerators" => Box::pin(tools::list_generators(client)),
        "getGeneratorSchema" => Box::pin(tools::get_generator_schema(client, a)),
        _ => return None,
    })
}
