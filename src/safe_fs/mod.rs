//! Files and directories that other local users might touch (docs/security.md, "Files and
//! directories"): the one place that opens and creates them. Every file we create or append
//! to (the trace, key and trust files, owner marks) and every directory we create or trust
//! (the temp dir, our private dirs, a caller's data dir, the trace file's directory) goes
//! through here.
//!
//! On Unix a directory is held by descriptor and judged by `fstat` on it ([`rules`]);
//! children are created and opened relative to it (`mkdirat`, `openat` with `O_NOFOLLOW`),
//! and no open can block (`O_NONBLOCK`). A refusal is an error with the code
//! `ERR_UNSAFE_PATH` naming the path and the reason (`path`, `reason` details).
//! [`temp`] picks a temp dir that can be trusted, or a private per-user one.
//!
//! Hand-written over `rustix`: no well-kept crate offers "walk a path by descriptor and
//! apply OpenSSH's ownership and mode rules"; `cap-std` opens relative to a directory but
//! judges neither owners nor modes.

mod open;
#[cfg_attr(not(unix), allow(dead_code))]
mod rules;
pub(crate) mod temp;
#[cfg(test)]
mod tests;

#[cfg(not(unix))]
mod other;
#[cfg(unix)]
mod unix;

#[cfg(not(unix))]
use other as imp;
#[cfg(unix)]
use unix as imp;

pub(crate) use imp::Dir;
pub(crate) use rules::Sharing;

use crate::kernel::error::{codes, Error, Result};
use open::{Access, Check, Fail};
use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Split `path` into the directory that holds it and its last component.
fn split(path: &Path) -> Result<(PathBuf, OsString)> {
    let name = path.file_name().ok_or_else(|| {
        Error::coded(
            codes::INVALID_ARG_VALUE,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_os_string()))
}

/// Open the directory `path` to create entries in (see [`rules::check_container`]).
pub(crate) fn open_container(path: &Path, what: &str, sharing: Sharing) -> Result<Dir> {
    Dir::open_container(path, sharing).map_err(|f| f.into_error(what, path))
}

/// Open `path` for appending (created 0600 when missing): its directory must be a safe
/// container and the file a regular file of ours that no one else may write to.
pub(crate) fn open_append(path: &Path, what: &str) -> Result<std::fs::File> {
    let (parent, name) = split(path)?;
    let dir = Dir::open_container(&parent, Sharing::Group).map_err(|f| f.into_error(what, path))?;
    let canonical = dir.path().join(&name);
    dir.open_file(&name, Access::Append, Check::Entry)
        .map_err(|f| relabel(f, &canonical, path).into_error(what, path))
}

/// A refusal of the canonical path of the subject is a refusal of the subject.
fn relabel(fail: Fail, canonical: &Path, subject: &Path) -> Fail {
    match fail {
        Fail::Unsafe { at, why } if at == canonical => Fail::Unsafe {
            at: subject.to_path_buf(),
            why,
        },
        other => other,
    }
}

/// Write `bytes` to `path` in a private directory of ours, creating or replacing the file
/// with mode 0600.
pub(crate) fn write_private_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let (parent, name) = split(path)?;
    let what = "a private file";
    let dir = Dir::open_own(&parent).map_err(|f| f.into_error(what, path))?;
    let mut file = dir
        .open_file(&name, Access::Write, Check::Own)
        .map_err(|f| f.into_error(what, path))?;
    imp::make_private(&file, path, true).map_err(|f| f.into_error(what, path))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(|e| Error::from(e).prefixed(&format!("write {}: ", path.display())))
}

/// Set mode 0600 on the existing regular file `path` of ours (never through a link).
pub(crate) fn restrict_file(path: &Path) -> Result<()> {
    let (parent, name) = split(path)?;
    let what = "a private file";
    let dir = Dir::open_own(&parent).map_err(|f| f.into_error(what, path))?;
    let file = dir
        .open_file(&name, Access::Read, Check::Own)
        .map_err(|f| f.into_error(what, path))?;
    imp::make_private(&file, path, false).map_err(|f| f.into_error(what, path))
}

/// Create the new file `name` (0600) in `dir` holding `bytes`.
pub(crate) fn create_new_file(dir: &Dir, name: &str, bytes: &[u8]) -> Result<()> {
    let path = dir.path().join(name);
    let mut file = dir
        .open_file(OsStr::new(name), Access::CreateNew, Check::Own)
        .map_err(|f| f.into_error("a new file", &path))?;
    file.write_all(bytes)
        .map_err(|e| Error::from(e).prefixed(&format!("write {}: ", path.display())))
}

/// The text of the regular file `name` of ours in `dir` if it holds at most `max` bytes.
pub(crate) fn read_small_file(dir: &Dir, name: &str, max: u64) -> Option<String> {
    let file = dir
        .open_file(OsStr::new(name), Access::Read, Check::Own)
        .ok()?;
    let mut text = String::new();
    file.take(max + 1).read_to_string(&mut text).ok()?;
    (text.len() as u64 <= max).then_some(text)
}

/// Make `path` a private directory of ours (0700) and return the path to use: missing
/// components are created 0700 relative to the deepest existing one (a safe container);
/// an existing `path` must be a real directory (not a link) that we own and no one else
/// may write to, and is narrowed to 0700 through its descriptor.
pub(crate) fn ensure_private_dir_all(path: &Path, what: &str) -> Result<PathBuf> {
    let (base, names) = existing_base(path)?;
    let mut dir =
        Dir::open_container(&base, Sharing::Group).map_err(|f| f.into_error(what, path))?;
    let last = names.len().saturating_sub(1);
    for (i, name) in names.iter().enumerate() {
        let next = dir.ensure_dir(name);
        dir = next
            .map_err(|f| match f {
                Fail::Unsafe { why, .. } if i == last => Fail::Unsafe {
                    at: path.to_path_buf(),
                    why,
                },
                other => other,
            })
            .map_err(|f| f.into_error(what, path))?;
    }
    Ok(dir.path().to_path_buf())
}

/// Remove a directory tree, ignoring "not found". Best effort: returns whether it is gone.
pub(crate) fn remove_dir_all_quiet(path: &Path) -> bool {
    match std::fs::remove_dir_all(path) {
        Ok(()) => true,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

/// The deepest existing directory on the way to `path`, and the names below it down to
/// `path` (at least `path`'s own name).
fn existing_base(path: &Path) -> Result<(PathBuf, Vec<OsString>)> {
    let (mut base, name) = split(path)?;
    let mut names = vec![name];
    loop {
        match std::fs::symlink_metadata(&base) {
            Ok(_) => break,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let (parent, name) = split(&base)?;
                names.push(name);
                base = parent;
            }
            Err(e) => return Err(Error::from(e).prefixed(&format!("stat {}: ", base.display()))),
        }
    }
    names.reverse();
    Ok((base, names))
}
