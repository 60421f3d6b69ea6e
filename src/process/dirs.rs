//! Private directories: the driver's data dir (`<tmp>/adt-ls-<12hex>`), the client's work
//! base (`<tmp>/adt-ls-client-<8hex>`) and the LSP socket dir (`<tmp>/adt-ls-pipe-<12hex>`).
//! Each is created with mode 0700 in the `mkdirat` call itself (never a wider mode first,
//! whatever the umask; docs/decisions.md#d6) relative to a trusted container held by
//! descriptor ([`safe_fs`](crate::safe_fs)), carries an [owner mark](super::owner) for the
//! next start's stale-dir sweep, is recorded for the exit-time cleanup under the reaper's
//! lock (nothing is created once the host is exiting), and is removed on dispose.

use super::{owner, reaper};
use crate::kernel::error::{Error, Result};
use crate::kernel::ids;
use crate::safe_fs::{self, Dir};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Make `path` (a caller's data dir, or the client's `<work base>/data`) a private dir:
/// missing parents are created 0700, an existing dir must be a real dir of ours that no one
/// else may write to and is narrowed to 0700 ([`safe_fs::ensure_private_dir_all`]). Returns
/// the path to hand to adt-ls (its real path). Refused once the host is exiting (so a
/// removed work base is never re-created by a late `<work base>/data`).
pub(crate) fn create_private_dir_all(path: &Path) -> Result<PathBuf> {
    reaper::create_tracked(path, false, || {
        safe_fs::ensure_private_dir_all(path, "the data dir")
    })
}

/// Create the fresh private dir `<container>/<name>` (it must not exist) relative to the
/// container's descriptor, mark it as ours and record it for the exit-time cleanup.
pub(crate) fn create_owned_dir(container: &Dir, name: &str) -> Result<PathBuf> {
    let path = container.path().join(name);
    reaper::create_tracked(&path, true, || {
        let dir = container
            .create_dir(OsStr::new(name))
            .map_err(|f| f.into_error("a private dir", &path))?;
        if let Err(e) = owner::write_marker(&dir) {
            safe_fs::remove_dir_all_quiet(&path);
            return Err(e);
        }
        Ok(path.clone())
    })
}

/// Create a fresh, uniquely named owned dir `<container>/<prefix><random_bytes as hex>`,
/// like `mkdtemp`.
pub(crate) fn make_temp_dir(container: &Dir, prefix: &str, random_bytes: usize) -> Result<PathBuf> {
    for _ in 0..16 {
        let name = format!("{prefix}{}", ids::random_hex(random_bytes)?);
        match create_owned_dir(container, &name) {
            Ok(path) => return Ok(path),
            Err(e) if e.has_code("EEXIST") => continue,
            Err(e) => return Err(e),
        }
    }
    Err(Error::new(format!(
        "mkdtemp: could not create a unique directory in {}",
        container.path().display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp() -> Dir {
        safe_fs::open_container(
            &std::env::temp_dir(),
            "the temp dir",
            safe_fs::Sharing::None,
        )
        .unwrap()
    }

    #[test]
    fn temp_dirs_are_unique_private_marked_and_removable() {
        let a = make_temp_dir(&temp(), "adt-ls-test-", 4).unwrap();
        let b = make_temp_dir(&temp(), "adt-ls-test-", 6).unwrap();
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
        assert!(safe_fs::remove_dir_all_quiet(&a));
        assert!(safe_fs::remove_dir_all_quiet(&b));
        assert!(safe_fs::remove_dir_all_quiet(&a), "removing twice is fine");
        reaper::untrack_path(&a);
        reaper::untrack_path(&b);
    }

    #[cfg(unix)]
    #[test]
    fn nested_dirs_are_private_at_every_level() {
        use std::os::unix::fs::PermissionsExt;
        let base = make_temp_dir(&temp(), "adt-ls-test-", 4).unwrap();
        let deep = base.join("x/y");
        assert_eq!(create_private_dir_all(&deep).unwrap(), deep);
        for dir in [base.join("x"), deep] {
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{}", dir.display());
        }
        assert!(safe_fs::remove_dir_all_quiet(&base));
        reaper::untrack_path(&base);
    }
}
