//! The JS-thread runtime under the binding: promise settlement and the outbox, JS-thread reads
//! over libuv, references and callbacks held from Rust, caller stacks, logging delivery, the
//! error class and the module-init hook, and the safe primitives the binding converts with
//! (values of the current call, symbol-keyed properties). It holds the layer's `unsafe`; each
//! block says why it is sound in a `SAFETY:` comment.

pub(super) mod call;
pub(super) mod callback;
pub(super) mod caller_stack;
pub(super) mod cancel;
pub(super) mod checked;
pub(super) mod dispose;
pub(super) mod error_class;
pub(super) mod errors;
pub(super) mod host;
pub(super) mod init;
pub(super) mod js_engine;
#[cfg(unix)]
pub(super) mod js_thread_reads;
pub(super) mod json;
pub(super) mod logger;
pub(super) mod option_types;

pub(super) mod outbox;
pub(super) mod process_exit;
pub(super) mod properties;
pub(super) mod raw_ref;
pub(super) mod semantic_tokens;
pub(super) mod settle;
pub(super) mod timeouts;
#[cfg(unix)]
pub(super) mod uv_poll;
pub(super) mod values;
pub(super) mod wake_queue;
