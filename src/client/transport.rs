//! The `transport` namespace (docs/wire.md#transport): the MCP transport tools (`tools`: find, create,
//! the paged diff), the native CTS requests on one object (`objects`: assign, check, lock
//! status), reading the CTS lock that confirms an assignment (`cts_lock`) and the
//! normalised, filtered, capped transport list (`list`).

mod cts_lock;
mod list;
mod objects;
pub(super) mod pages;
mod tools;

pub(super) use list::list;
pub(super) use objects::{assign, check, get_lock_status};
pub(crate) use pages::DiffPaging;
pub(super) use tools::{create, find, get_diff};
