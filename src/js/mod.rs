//! The N-API layer: converts JS values to engine types and back, and forwards. No behaviour
//! lives here; every function is a thin adapter over an engine module.

mod call;
mod callback;
mod driver;
mod errors;
mod functions;
mod json;
mod logger;
mod process_exit;
mod values;
