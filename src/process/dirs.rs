//! Private directories: the driver's data dir (`<tmp>/adt-ls-<12hex>`), the client's work
//! base (`<tmp>/adt-ls-client-<8hex>`) and the LSP socket dir (`<tmp>/adt-ls-pipe-<12hex>`).
//! Each is created with mode 0700 in the `mkdir` call itself (never a wider mode first,
//! whatever the umask; docs/decisions.md#d6), carries an [owner mark](super::owner) for the
//! next start's stale-dir sweep, is recorded for the exit-time cleanup under the reaper's
//! lock (nothing is created once the host is exiting), and is removed on dispose.

use super::{ids, owner, reaper};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The OS temp dir (honours `TMPDIR` on Unix, like Node's `os.tmpdir()`).
pub fn temp_dir() -> PathBuf {
    std::env::temp_dir()
}

/// Create `path` and its missing parents, each 0700 from the start; an existing last
/// component is made private too. Refused once the host is exiting (so a removed work base
/// is never re-created by a late `<work base>/data`).
pub fn create_private_dir_all(path: &Path) -> Result<()> {
    reaper::create_tracked(path, false, || {
        private_builder(true)
            .create(path)
            .map_err(|e| io_error("mkdir", path, e))?;
        make_private(path)
    })
}

/// Create the fresh private dir `path` (it must not exist), mark it as ours and record it
/// for the exit-time cleanup.
pub fn create_owned_dir(path: &Path) -> Result<()> {
    reaper::create_tracked(path, true, || {
        private_builder(false)
            .create(path)
            .map_err(|e| io_error("mkdir", path, e))?;
        make_private(path)?;
        owner::write_marker(path).map_err(|e| io_error("mark", path, e))
    })
}

/// Create a fresh, uniquely named owned dir `<base>/<prefix><random_bytes as hex>`, like
/// `mkdtemp`.
pub fn make_temp_dir(base: &Path, prefix: &str, random_bytes: usize) -> Result<PathBuf> {
    for _ in 0..16 {
        let candidate = base.join(format!("{prefix}{}", ids::random_hex(random_bytes)?));
        match create_owned_dir(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.has_code("EEXIST") => continue,
            Err(e) => return Err(e),
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

fn private_builder(recursive: bool) -> std::fs::DirBuilder {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(recursive);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
}

/// A umask can only narrow 0700; this restores the owner's bits (and narrows an existing
/// caller-supplied dir).
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
    fn temp_dirs_are_unique_private_marked_and_removable() {
        let a = make_temp_dir(&temp_dir(), "adt-ls-test-", 4).unwrap();
        let b = make_temp_dir(&temp_dir(), "adt-ls-test-", 6).unwrap();
        assert_ne!(a, b);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&a).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        let mark = std::fs::read_to_string(a.join(owner::MARKER)).unwrap();
        assert_eq!(
            owner::OwnerMark::parse(&mark).map(|m| m.pid),
            Some(std::process::id())
        );
        assert!(remove_dir_all_quiet(&a));
        assert!(remove_dir_all_quiet(&b));
        assert!(remove_dir_all_quiet(&a), "removing twice is fine");
        reaper::untrack_path(&a);
        reaper::untrack_path(&b);
    }

    #[cfg(unix)]
    #[test]
    fn nested_dirs_are_private_at_every_level() {
        use std::os::unix::fs::PermissionsExt;
        let base = make_temp_dir(&temp_dir(), "adt-ls-test-", 4).unwrap();
        let deep = base.join("x/y");
        create_private_dir_all(&deep).unwrap();
        for dir in [base.join("x"), deep] {
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{}", dir.display());
        }
        assert!(remove_dir_all_quiet(&base));
        reaper::untrack_path(&base);
    }
}
