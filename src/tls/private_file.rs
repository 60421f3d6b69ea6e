//! Writing files that hold keys or trust material into the private work dir: created or
//! replaced owner-only (0600 on Unix, docs/decisions.md#d6) through
//! [`safe_fs`](crate::safe_fs), never through a link and never blocking on a FIFO.

use crate::kernel::error::{Error, Result};
use std::path::Path;

/// Write `bytes` to `path`, creating or truncating it with mode 0600 on Unix.
pub(super) fn write_private_file(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::safe_fs::write_private_file(path, bytes)
}

/// Set mode 0600 on an existing file (no-op on non-Unix systems).
pub(super) fn restrict_permissions(path: &Path) -> Result<()> {
    crate::safe_fs::restrict_file(path)
}

/// An I/O error that names the operation and the file, keeping the errno code.
pub(super) fn with_path(e: std::io::Error, op: &str, path: &Path) -> Error {
    let mut err = Error::from(e);
    err.message = format!("{op} {}: {}", path.display(), err.message);
    err
}
