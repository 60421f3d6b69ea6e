//! Which directory our temp dirs go into. The host's temp dir (`os.tmpdir()`) when it can be
//! trusted with them: owned by root or by us, and if anyone else may write to it, with the
//! sticky bit (so no one else can rename our dirs away and put theirs in their place). Else a
//! private per-user directory: `$XDG_RUNTIME_DIR` when it is ours and 0700, or
//! `<cache dir>/adt-ls-native/tmp`, created 0700. The fallback is logged once per process
//! and temp dir.

use super::{ensure_private_dir_all, Dir, Sharing};
use crate::kernel::error::{Error, Result};
use crate::kernel::host::HostEnv;
use crate::kernel::log;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const WHAT: &str = "the temp dir";

/// The directory to create our private dirs in (see the module doc).
pub(crate) fn trusted_temp_dir(host: &HostEnv) -> Result<Dir> {
    let tmp = host.temp_dir();
    match Dir::open_container(&tmp, Sharing::None) {
        Ok(dir) => Ok(dir),
        Err(fail) if fail.is_refusal() => {
            let refused = fail.into_error(WHAT, &tmp);
            let dir = private_fallback(host).map_err(|e| refused.clone().with_cause(e.message))?;
            log_fallback_once(&tmp, &refused, dir.path());
            Ok(dir)
        }
        Err(fail) => Err(fail.into_error(WHAT, &tmp)),
    }
}

/// `$XDG_RUNTIME_DIR` when it is an absolute path to a directory only we may enter.
pub(crate) fn runtime_dir(host: &HostEnv) -> Option<Dir> {
    let path = PathBuf::from(host.var("XDG_RUNTIME_DIR")?);
    if !path.is_absolute() {
        return None;
    }
    let dir = Dir::open_container(&path, Sharing::None).ok()?;
    dir.is_private().then_some(dir)
}

/// The user's cache dir: `$XDG_CACHE_HOME` (absolute), else `~/Library/Caches` (macOS) or
/// `~/.cache`.
fn cache_dir(host: &HostEnv) -> Option<PathBuf> {
    if let Some(xdg) = host.var("XDG_CACHE_HOME").map(PathBuf::from) {
        if xdg.is_absolute() {
            return Some(xdg);
        }
    }
    let home = host
        .home
        .clone()
        .or_else(|| host.var("HOME").map(PathBuf::from))?;
    if !home.is_absolute() {
        return None;
    }
    Some(if cfg!(target_os = "macos") {
        home.join("Library").join("Caches")
    } else {
        home.join(".cache")
    })
}

fn private_fallback(host: &HostEnv) -> Result<Dir> {
    if let Some(dir) = runtime_dir(host) {
        return Ok(dir);
    }
    let cache = cache_dir(host).ok_or_else(|| {
        Error::new(
            "no private fallback: $XDG_RUNTIME_DIR is unusable and there is no home directory",
        )
    })?;
    let what = "the private temp dir";
    let path = ensure_private_dir_all(&cache.join("adt-ls-native").join("tmp"), what)?;
    super::open_container(&path, what, Sharing::None)
}

fn log_fallback_once(tmp: &Path, refused: &Error, fallback: &Path) {
    static LOGGED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    let mut logged = LOGGED.lock().unwrap_or_else(|p| p.into_inner());
    if logged
        .get_or_insert_with(HashSet::new)
        .insert(tmp.to_path_buf())
    {
        log::warn(format!(
            "{}; using the private directory {} for temp files instead",
            refused.message,
            fallback.display()
        ));
    }
}

/// The directory for the LSP socket's private dir: `temp` when a socket path under it
/// `fits`, else `/tmp` or `$XDG_RUNTIME_DIR`, whichever fits and can be trusted.
pub(crate) fn socket_container(
    temp: &Dir,
    host: &HostEnv,
    fits: impl Fn(&Path) -> bool,
) -> Result<Dir> {
    if fits(temp.path()) {
        return Ok(temp.clone());
    }
    let tmp = Dir::open_container(Path::new("/tmp"), Sharing::None).ok();
    tmp.into_iter()
        .chain(runtime_dir(host))
        .find(|d| fits(d.path()))
        .ok_or_else(|| {
            Error::new(format!(
                "no directory for the adt-ls socket: a socket path under {} is too long, and neither /tmp nor $XDG_RUNTIME_DIR is short enough and safe to use",
                temp.path().display()
            ))
        })
}
