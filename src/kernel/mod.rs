//! The shared kernel every floor uses: the error type and Node-style argument errors, secret
//! redaction, our wire identity, the cancellation scope, logging and its bounded queue, the
//! `DEBUG` switch, per-call progress, random ids, the captured host environment, JavaScript truthiness
//! of JSON values and the boxed-future alias. Nothing here imports any other part of the crate.

pub(crate) mod arg_error;
pub(crate) mod cancel_scope;
pub(crate) mod debug_env;
pub(crate) mod error;
pub(crate) mod future;
pub(crate) mod host;
pub(crate) mod identity;
pub(crate) mod ids;
pub(crate) mod log;
pub(crate) mod log_queue;
pub(crate) mod progress;
pub(crate) mod redact;
pub(crate) mod truthy;

#[cfg(test)]
pub(crate) mod test_dir;
#[cfg(test)]
pub(crate) mod test_skip;
#[cfg(test)]
pub(crate) mod test_task;
