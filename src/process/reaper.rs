//! Last-resort cleanup when the host process goes away (docs/decisions.md#d5-16): every live adt-ls
//! process group and every temp path the engine created is recorded here, and the N-API
//! layer calls [`reap_all`] from Node's environment cleanup hook, so a script that never
//! calls `dispose()` still leaves no JVM and no temp dir behind. (On Linux the child also
//! gets `PR_SET_PDEATHSIG`, which covers a host killed by a signal.)
//!
//! Once [`reap_all`] has begun the host is exiting: nothing may be created any more (a
//! startup still running on a worker thread would otherwise re-create a removed work dir
//! after cleanup). [`create_tracked`] makes and records a path under the registry lock,
//! so a path is either created before the reap (and removed by it) or not at all.

use crate::kernel::error::{codes, Error, Result};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// Set for good when the host process starts its exit-time cleanup.
static EXITING: AtomicBool = AtomicBool::new(false);

#[derive(Default)]
struct Registry {
    pids: HashSet<u32>,
    paths: HashSet<PathBuf>,
}

fn registry() -> &'static Mutex<Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(Mutex::default)
}

fn try_take() -> Option<(HashSet<u32>, HashSet<PathBuf>)> {
    for _ in 0..50 {
        match registry().try_lock() {
            Ok(mut r) => return Some((std::mem::take(&mut r.pids), std::mem::take(&mut r.paths))),
            Err(std::sync::TryLockError::Poisoned(p)) => {
                let mut r = p.into_inner();
                return Some((std::mem::take(&mut r.pids), std::mem::take(&mut r.paths)));
            }
            Err(std::sync::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(2))
            }
        }
    }
    None
}

fn with<R>(f: impl FnOnce(&mut Registry) -> R) -> R {
    let mut guard = registry().lock().unwrap_or_else(|p| p.into_inner());
    f(&mut guard)
}

/// Whether the host process has begun its exit-time cleanup.
pub(crate) fn is_exiting() -> bool {
    EXITING.load(Ordering::SeqCst)
}

fn exiting_error(what: &Path) -> Error {
    Error::coded(
        codes::DISPOSED,
        format!(
            "the host process is exiting: not creating {}",
            what.display()
        ),
    )
}

/// Run `create` (which makes `path`) unless the host is exiting, and record `path` for the
/// exit-time cleanup when `track` is set; both under the registry lock, so a concurrent
/// [`reap_all`] either removes the path or sees it never made.
pub(crate) fn create_tracked<T>(
    path: &Path,
    track: bool,
    create: impl FnOnce() -> Result<T>,
) -> Result<T> {
    with(|r| {
        if is_exiting() {
            return Err(exiting_error(path));
        }
        let made = create()?;
        if track {
            r.paths.insert(path.to_path_buf());
        }
        Ok(made)
    })
}

/// Record a process tree to kill at exit. False when the host is already exiting (the
/// caller kills it at once instead).
pub(crate) fn track_pid(pid: u32) -> bool {
    with(|r| {
        if is_exiting() {
            return false;
        }
        r.pids.insert(pid);
        true
    })
}

pub(crate) fn untrack_pid(pid: u32) {
    with(|r| r.pids.remove(&pid));
}

#[cfg(test)]
/// Record a file or directory to delete at exit (directories recursively).
pub(crate) fn track_path(path: PathBuf) {
    with(|r| r.paths.insert(path));
}

pub(crate) fn untrack_path(path: &PathBuf) {
    with(|r| r.paths.remove(path));
}

/// Kill every tracked process tree and delete every tracked path. Synchronous and quick;
/// never blocks on the registry lock (it may run from an `atexit` handler while another
/// thread was stopped holding it).
pub(crate) fn reap_all() {
    EXITING.store(true, Ordering::SeqCst);
    let Some((pids, paths)) = try_take() else {
        return;
    };
    for pid in pids {
        super::kill::kill_tree(pid);
    }
    for path in paths {
        if path.is_dir() {
            let _ = std::fs::remove_dir_all(&path);
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}
