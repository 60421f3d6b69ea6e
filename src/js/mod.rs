//! The N-API layer: converts JS values to engine types and back, and forwards. No behaviour
//! lives here; every function is a thin adapter over an engine module.

mod call;
mod callback;
mod caller_stack;
mod cancel;
mod checked;
mod cli;
mod client;
mod diff_pages;
mod dispose;
mod driver;
mod error_class;
mod errors;
mod events;
mod functions;
mod host;
mod init;
#[cfg(unix)]
mod js_thread_reads;
mod json;
mod logger;
mod mcp;
mod outbox;
mod process_exit;
mod progress;
mod raw_ref;
mod requester;
mod runtime;
mod semantic_tokens;
mod settle;
mod strategies;
mod timeouts;
mod trace_option;
mod types;
#[cfg(unix)]
mod uv_poll;
mod values;
