//! Last-resort cleanup when the host process goes away (decisions D5.16): every live adt-ls
//! process group and every temp path the engine created is recorded here, and the N-API
//! layer calls [`reap_all`] from Node's environment cleanup hook, so a script that never
//! calls `dispose()` still leaves no JVM and no temp dir behind. (On Linux the child also
//! gets `PR_SET_PDEATHSIG`, which covers a host killed by a signal.)

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

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

pub fn track_pid(pid: u32) {
    with(|r| r.pids.insert(pid));
}

pub fn untrack_pid(pid: u32) {
    with(|r| r.pids.remove(&pid));
}

/// Record a file or directory to delete at exit (directories recursively).
pub fn track_path(path: PathBuf) {
    with(|r| r.paths.insert(path));
}

pub fn untrack_path(path: &PathBuf) {
    with(|r| r.paths.remove(path));
}

/// Kill every tracked process tree and delete every tracked path. Synchronous and quick;
/// never blocks on the registry lock (it may run from an `atexit` handler while another
/// thread was stopped holding it).
pub fn reap_all() {
    let Some((pids, paths)) = try_take() else {
        return;
    };
    for pid in pids {
        super::child::kill_tree(pid);
    }
    for path in paths {
        if path.is_dir() {
            let _ = std::fs::remove_dir_all(&path);
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}
