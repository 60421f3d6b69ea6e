//! The exported API's conversions: each file takes the JS arguments of one export family
//! through [`checked`], calls the engine and converts the result back. Behaviour and raw
//! N-API calls live in [`super::runtime`] or in the engine, never here.

mod cli;
mod client;
mod diff_pages;
mod driver;
mod events;
mod functions;
mod mcp;
mod progress;
mod requester;
mod strategies;
mod types;
