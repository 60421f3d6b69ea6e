//! adt-ls-native: a Rust engine for SAP's headless adt-ls, exposed to Node.js through a thin
//! N-API layer (`js`). Every other module is plain Rust and knows nothing about N-API.

#[macro_use]
extern crate napi_derive;

pub mod discovery;
pub mod driver;
pub mod error;
pub mod federated;
pub mod identity;
pub mod log;
pub mod lsp;
pub mod process;
pub mod redact;
pub mod text;
pub mod version;

mod js;
