//! Writing files that hold keys or trust material: created owner-only (0600 on Unix,
//! docs/decisions.md#d6) and replaced atomically enough for a private work dir.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path`, creating or truncating it with mode 0600 on Unix.
pub fn write_private_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(|e| with_path(e, "open", path))?;
    // The mode only applies on creation; tighten a pre-existing file too.
    restrict_permissions(path)?;
    file.write_all(bytes)
        .map_err(|e| with_path(e, "write", path))?;
    file.flush().map_err(|e| with_path(e, "write", path))?;
    Ok(())
}

/// Set mode 0600 on an existing file (no-op on non-Unix systems).
pub fn restrict_permissions(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| with_path(e, "chmod", path))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// An I/O error that names the operation and the file, keeping the errno code.
pub fn with_path(e: std::io::Error, op: &str, path: &Path) -> Error {
    let mut err = Error::from(e);
    err.message = format!("{op} {}: {}", path.display(), err.message);
    err
}
