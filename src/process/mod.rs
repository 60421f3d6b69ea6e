//! The adt-ls process and its pipe: spawn argv, the listener adt-ls connects to, the child's
//! lifetime (process tree, exit watch, output tail), private data dirs, exit-time cleanup and
//! the next start's sweep of what dead hosts left behind.

pub(crate) mod args;
pub(crate) mod child;
pub(crate) mod dirs;
pub(crate) mod kill;
pub(crate) mod owner;
#[cfg(unix)]
pub(crate) mod peer;
pub(crate) mod pipe;
pub(crate) mod reaper;
pub(crate) mod tail;
#[cfg(windows)]
pub(crate) mod win_job;
#[cfg(windows)]
pub(crate) mod win_pipe_security;
