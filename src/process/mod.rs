//! The adt-ls process and its pipe: spawn argv, the listener adt-ls connects to, the child's
//! lifetime (process tree, exit watch, output tail), private data dirs, exit-time cleanup and
//! the next start's sweep of what dead hosts left behind.

pub mod args;
pub mod child;
pub mod dirs;
pub mod owner;
pub mod peer;
pub mod pipe;
pub mod reaper;
pub mod tail;
#[cfg(windows)]
pub mod win_job;
#[cfg(windows)]
pub mod win_pipe_security;
