//! The non-Unix side of [`super`] (Windows): the same operations over `std::fs` by path. The
//! temp dir there is per-user (`%LOCALAPPDATA%\Temp`, ACL'd to its user), so no other local
//! user can reach our entries through it; links at the last component are still refused.

use super::open::{Access, Check, Fail};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// A directory, by path.
#[derive(Clone, Debug)]
pub(crate) struct Dir {
    path: PathBuf,
}

fn io(op: &'static str, path: &Path, error: std::io::Error) -> Fail {
    Fail::Io {
        op,
        path: path.to_path_buf(),
        error,
    }
}

fn refuse_link(path: &Path) -> Result<(), Fail> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(Fail::Unsafe {
            at: path.to_path_buf(),
            why: super::rules::Unsafe::Symlink,
        }),
        _ => Ok(()),
    }
}

impl Dir {
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn open_container(
        path: &Path,
        _sharing: super::rules::Sharing,
    ) -> Result<Dir, Fail> {
        let meta = std::fs::metadata(path).map_err(|e| io("open", path, e))?;
        if !meta.is_dir() {
            return Err(io("open", path, std::io::Error::other("not a directory")));
        }
        Ok(Dir {
            path: path.to_path_buf(),
        })
    }

    pub(crate) fn open_own(path: &Path) -> Result<Dir, Fail> {
        refuse_link(path)?;
        Self::open_container(path, super::rules::Sharing::Group)
    }

    pub(crate) fn create_dir(&self, name: &OsStr) -> Result<Dir, Fail> {
        let path = self.path.join(name);
        std::fs::create_dir(&path).map_err(|e| io("mkdir", &path, e))?;
        Ok(Dir { path })
    }

    pub(crate) fn ensure_dir(&self, name: &OsStr) -> Result<Dir, Fail> {
        let path = self.path.join(name);
        refuse_link(&path)?;
        match std::fs::create_dir(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io("mkdir", &path, e)),
        }
        Self::open_own(&path)
    }

    pub(crate) fn open_own_child(&self, name: &OsStr) -> Option<Dir> {
        let path = self.path.join(name);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        meta.is_dir().then_some(Dir { path })
    }

    pub(crate) fn open_file(
        &self,
        name: &OsStr,
        access: Access,
        _check: Check,
    ) -> Result<std::fs::File, Fail> {
        let path = self.path.join(name);
        refuse_link(&path)?;
        let mut options = std::fs::OpenOptions::new();
        match access {
            Access::Append => options.append(true).create(true),
            Access::Write => options.write(true).create(true),
            Access::CreateNew => options.write(true).create_new(true),
            Access::Read => options.read(true),
        };
        let file = options.open(&path).map_err(|e| io("open", &path, e))?;
        let meta = file.metadata().map_err(|e| io("stat", &path, e))?;
        if !meta.is_file() {
            return Err(Fail::Unsafe {
                at: path,
                why: super::rules::Unsafe::WrongKind {
                    found: super::rules::Kind::Unknown,
                    wanted: super::rules::Kind::Regular,
                },
            });
        }
        Ok(file)
    }

    pub(crate) fn names(&self, limit: usize) -> Result<(Vec<OsString>, bool), Fail> {
        let entries = std::fs::read_dir(&self.path).map_err(|e| io("read", &self.path, e))?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            if out.len() == limit {
                return Ok((out, true));
            }
            out.push(entry.file_name());
        }
        Ok((out, false))
    }

    pub(crate) fn is_private(&self) -> bool {
        true
    }
}

pub(crate) fn make_private(file: &std::fs::File, path: &Path, truncate: bool) -> Result<(), Fail> {
    if truncate {
        file.set_len(0).map_err(|e| io("truncate", path, e))?;
    }
    Ok(())
}
