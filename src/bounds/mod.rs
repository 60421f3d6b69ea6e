//! Bounds on what a peer can make us hold: the backlog charged for every message a reader
//! takes until it is done with, and the JSON nesting depth checked before any peer message
//! is parsed.

pub(crate) mod backlog;
pub mod json_depth;
