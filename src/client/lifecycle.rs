//! The `lifecycle` namespace (docs/wire.md#lifecycle): resolve, create / update / activate / test /
//! delete an object, generators, validation and the creation metadata. Writes live in
//! `writes` (with the session-death retry), the activation result in `activation`, the
//! MCP-backed calls in `tools`, the native creation form in `creation_form`.

mod activation;
mod creation_form;
mod tools;
mod writes;

pub(super) use super::resolve::resolve_method as resolve_aff_uri;
pub(super) use creation_form::get_creation_form;
pub(super) use tools::{
    create, generate, get_generator_schema, get_object_type_details, list_creatable_objects,
    list_generators, run_unit_tests, validate,
};
pub(super) use writes::{activate, delete, update};
