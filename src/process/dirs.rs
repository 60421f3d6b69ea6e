//! Private directories: the driver's data dir (`<tmp>/adt-ls-<12hex>`) and the client's work
//! base (`<tmp>/adt-ls-client-<random>`), created 0700 (decisions D6) and removed on dispose.

use super::ids;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The OS temp dir (honours `TMPDIR` on Unix, like Node's `os.tmpdir()`).
pub fn temp_dir() -> PathBuf {
    std::env::temp_dir()
}

/// Create `path` and its parents; the last component is made private (0700 on Unix).
pub fn create_private_dir_all(path: &Path) -> Result<()> {
    std::fs::create_dir_all(path).map_err(|e| io_error("mkdir", path, e))?;
    make_private(path)
}

/// Create a fresh, uniquely named private directory `<base>/<prefix><random>`, like `mkdtemp`.
pub fn make_temp_dir(base: &Path, prefix: &str) -> Result<PathBuf> {
    for _ in 0..16 {
        let candidate = base.join(format!("{prefix}{}", ids::random_hex(4)?));
        match std::fs::create_dir(&candidate) {
            Ok(()) => {
                make_private(&candidate)?;
                return Ok(candidate);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error("mkdtemp", &candidate, e)),
        }
    }
    Err(Error::new(format!(
        "mkdtemp: could not create a unique directory in {}",
        base.display()
    )))
}

/// Remove a directory tree, ignoring "not found". Best effort: returns whether it is gone.
pub fn remove_dir_all_quiet(path: &Path) -> bool {
    match std::fs::remove_dir_all(path) {
        Ok(()) => true,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

#[cfg(unix)]
fn make_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| io_error("chmod", path, e))
}

#[cfg(not(unix))]
fn make_private(_path: &Path) -> Result<()> {
    Ok(())
}

fn io_error(op: &str, path: &Path, e: std::io::Error) -> Error {
    Error::from(e).prefixed(&format!("{op} {}: ", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_dirs_are_unique_private_and_removable() {
        let a = make_temp_dir(&temp_dir(), "adt-ls-test-").unwrap();
        let b = make_temp_dir(&temp_dir(), "adt-ls-test-").unwrap();
        assert_ne!(a, b);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&a).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        assert!(remove_dir_all_quiet(&a));
        assert!(remove_dir_all_quiet(&b));
        assert!(remove_dir_all_quiet(&a), "removing twice is fine");
    }
}
