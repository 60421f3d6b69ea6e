//! The shared kernel every floor uses: the error type and Node-style argument errors, secret
//! redaction, our wire identity, the cancellation scope, logging and its bounded queue, the
//! `DEBUG` switch, per-call progress, random ids, the captured host environment and the
//! boxed-future alias. Nothing here imports any other part of the crate.

pub mod arg_error;
pub mod cancel_scope;
pub mod debug_env;
pub mod error;
pub mod future;
pub mod host;
pub mod identity;
pub mod ids;
pub mod log;
pub mod log_queue;
pub mod progress;
pub mod redact;

#[cfg(test)]
pub(crate) mod test_skip;
