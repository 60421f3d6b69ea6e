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

/// Kill every tracked process tree and delete every tracked path. Synchronous and quick.
pub fn reap_all() {
    let (pids, paths) = with(|r| (std::mem::take(&mut r.pids), std::mem::take(&mut r.paths)));
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
