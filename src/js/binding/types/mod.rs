//! The value types of the public API as Rust types, so napi-rs generates their TypeScript
//! declarations (`#[napi(object)]`). The engine hands results to JS as JSON; these types
//! describe that JSON (their field names are the camelCase JS names); the option types
//! (`options.rs`) describe what JS passes in. Shapes come from
//! `@marianfoo/adt-ls` 0.5.0's declarations, the reference SDK, the LSP 3.17 specification and
//! the captured adt-ls 1.1.2 MCP output schemas; see `docs/types.md`.
//! What napi cannot express (index signatures, generic or callback types) stays in
//! `types/header.d.ts`.

// Declaration-only: values of these types are built as JSON by the engine, never in Rust.
#![allow(dead_code)]

mod client;
mod common;
mod events;
mod lifecycle;
mod lsp;
mod navigation;
pub(super) mod options;
mod quality;
mod repository;
mod services;
mod transport;
