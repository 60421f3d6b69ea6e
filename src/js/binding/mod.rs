//! The exported API's conversions: each file takes the JS arguments of one export family
//! through [`checked`], calls the engine and converts the result back. Behaviour and raw
//! N-API calls live in [`super::runtime`] or in the engine, never here. Conversions the
//! napi-rs API leaves raw (a value of the current call, a symbol-keyed property) go through
//! runtime's safe primitives ([`super::runtime::values`], [`super::runtime::properties`]).

mod cli;
mod client;
mod diff_pages;
mod driver;
mod events;
mod functions;
mod logger;
mod mcp;
mod progress;
mod requester;
mod strategies;
mod types;
