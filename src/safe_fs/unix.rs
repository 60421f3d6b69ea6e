//! The POSIX side of [`super`]: directories held by descriptor, children created and opened
//! relative to them (`mkdirat`, `openat` with `O_NOFOLLOW`), every object judged by `fstat`
//! on the descriptor we hold, and every open of a path that another user might have
//! replaced by a FIFO made with `O_NONBLOCK`, so nothing can block.

use super::open::{Access, Check, Fail};
use super::rules::{self, Facts, Kind, Sharing, Unsafe};
use rustix::fs::{self as rfs, AtFlags, Mode, OFlags};
use rustix::io::Errno;
use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// This process's effective uid: the owner everything we use must have.
pub(crate) fn our_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Opening a directory we read or create entries in.
const DIR_OPEN: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NONBLOCK);

/// Opening an ancestor only to walk through it (Linux: `O_PATH`, which needs no read
/// permission on it).
#[cfg(any(target_os = "linux", target_os = "android"))]
const WALK_OPEN: OFlags = OFlags::PATH
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const WALK_OPEN: OFlags = DIR_OPEN;

/// Opening a file: never through a link, never blocking, never a controlling terminal.
const FILE_OPEN: OFlags = OFlags::NOFOLLOW
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOCTTY);

/// A directory held open by descriptor, with the (canonical) path it was reached by.
#[derive(Clone, Debug)]
pub(crate) struct Dir {
    fd: Arc<OwnedFd>,
    path: PathBuf,
}

fn facts_of(fd: impl AsFd) -> std::io::Result<Facts> {
    let st = rfs::fstat(fd)?;
    #[allow(clippy::unnecessary_cast)]
    Ok(Facts::from_stat(st.st_mode as u32, st.st_uid))
}

fn io(op: &'static str, path: &Path, e: impl Into<std::io::Error>) -> Fail {
    Fail::Io {
        op,
        path: path.to_path_buf(),
        error: e.into(),
    }
}

fn unsafe_at(path: &Path, why: Unsafe) -> Fail {
    Fail::Unsafe {
        at: path.to_path_buf(),
        why,
    }
}

impl Dir {
    /// The path this directory was reached by (canonical for containers).
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Open `path` as a container: resolve it to its canonical path once, then walk that
    /// path from `/` one component at a time (`O_NOFOLLOW`), judging every directory on the
    /// way by `fstat` (ancestors as [`Sharing::Group`], the directory itself by `sharing`).
    pub(crate) fn open_container(path: &Path, sharing: Sharing) -> Result<Dir, Fail> {
        let canonical = std::fs::canonicalize(path).map_err(|e| io("open", path, e))?;
        let ours = our_uid();
        let names: Vec<&OsStr> = canonical
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n),
                _ => None,
            })
            .collect();
        let root = Path::new("/");
        let flags = if names.is_empty() {
            DIR_OPEN
        } else {
            WALK_OPEN
        };
        let mut fd = rfs::open(root, flags, Mode::empty()).map_err(|e| io("open", root, e))?;
        let mut at = PathBuf::from("/");
        // Components below `fd` judged by `fstatat` because they could not be opened (no
        // read permission, and no `O_PATH` on this platform); only root or we can change
        // them, as judged.
        let mut rel = PathBuf::new();
        for (i, name) in names.iter().enumerate() {
            let last = i + 1 == names.len();
            if rel.as_os_str().is_empty() {
                let judged = facts_of(&fd).map_err(|e| io("stat", &at, e))?;
                rules::check_container(&judged, ours, Sharing::Group)
                    .map_err(|why| unsafe_at(&at, why))?;
            }
            let flags = if last { DIR_OPEN } else { WALK_OPEN };
            at.push(name);
            let target = rel.join(name);
            match rfs::openat(&fd, &target, flags, Mode::empty()) {
                Ok(next) => {
                    fd = next;
                    rel = PathBuf::new();
                }
                Err(Errno::ACCESS) if !last && WALK_OPEN == DIR_OPEN => {
                    let st = rfs::statat(&fd, &target, AtFlags::SYMLINK_NOFOLLOW)
                        .map_err(|e| io("stat", &at, e))?;
                    #[allow(clippy::unnecessary_cast)]
                    let judged = Facts::from_stat(st.st_mode as u32, st.st_uid);
                    rules::check_container(&judged, ours, Sharing::Group)
                        .map_err(|why| unsafe_at(&at, why))?;
                    rel = target;
                }
                Err(e) => {
                    let name = target.as_os_str();
                    return Err(explain_open(fd.as_fd(), name, &at, Kind::Directory, e));
                }
            }
        }
        let judged = facts_of(&fd).map_err(|e| io("stat", &at, e))?;
        rules::check_container(&judged, ours, sharing).map_err(|why| unsafe_at(&at, why))?;
        Ok(Dir {
            fd: Arc::new(fd),
            path: canonical,
        })
    }
}

impl Dir {
    /// Create the fresh directory `name` (mode 0700; `EEXIST` when it exists) and hold it.
    pub(crate) fn create_dir(&self, name: &OsStr) -> Result<Dir, Fail> {
        let path = self.path.join(name);
        rfs::mkdirat(self.fd(), name, Mode::from_raw_mode(0o700))
            .map_err(|e| io("mkdir", &path, e))?;
        self.hold_private_dir(name, path, true)
    }

    /// Open the directory `name`, creating it (0700) when missing. An existing one must be
    /// ours and writable by no one else; it is narrowed to 0700 through its descriptor.
    pub(crate) fn ensure_dir(&self, name: &OsStr) -> Result<Dir, Fail> {
        let path = self.path.join(name);
        let created = match rfs::mkdirat(self.fd(), name, Mode::from_raw_mode(0o700)) {
            Ok(()) => true,
            Err(Errno::EXIST) => false,
            Err(e) => return Err(io("mkdir", &path, e)),
        };
        self.hold_private_dir(name, path, created)
    }

    fn hold_private_dir(&self, name: &OsStr, path: PathBuf, fresh: bool) -> Result<Dir, Fail> {
        let fd = rfs::openat(self.fd(), name, DIR_OPEN, Mode::empty())
            .map_err(|e| explain_open(self.fd(), name, &path, Kind::Directory, e))?;
        let judged = facts_of(&fd).map_err(|e| io("stat", &path, e))?;
        let verdict = if fresh {
            rules::check_own(&judged, Kind::Directory, our_uid())
        } else {
            rules::check_entry(&judged, Kind::Directory, our_uid())
        };
        verdict.map_err(|why| unsafe_at(&path, why))?;
        // The mode given to mkdir is narrowed by the umask; this sets exactly 0700.
        rfs::fchmod(&fd, Mode::from_raw_mode(0o700)).map_err(|e| io("chmod", &path, e))?;
        Ok(Dir {
            fd: Arc::new(fd),
            path,
        })
    }

    /// Open the directory `name` if it is a directory of ours (for the stale sweep);
    /// `None` for anything else.
    pub(crate) fn open_own_child(&self, name: &OsStr) -> Option<Dir> {
        let fd = rfs::openat(self.fd(), name, DIR_OPEN, Mode::empty()).ok()?;
        let judged = facts_of(&fd).ok()?;
        rules::check_own(&judged, Kind::Directory, our_uid()).ok()?;
        Some(Dir {
            fd: Arc::new(fd),
            path: self.path.join(name),
        })
    }

    /// Open the file `name` in this directory for `access`: never through a link, never
    /// blocking (a FIFO without a reader fails with `ENXIO`, one with a reader is refused by
    /// `fstat`); the descriptor must be a regular file passing `check`. `O_NONBLOCK` is
    /// cleared afterwards.
    pub(crate) fn open_file(
        &self,
        name: &OsStr,
        access: Access,
        check: Check,
    ) -> Result<std::fs::File, Fail> {
        let path = self.path.join(name);
        let mode = Mode::from_raw_mode(0o600);
        let fd = rfs::openat(self.fd(), name, flags(access) | FILE_OPEN, mode)
            .map_err(|e| explain_open(self.fd(), name, &path, Kind::Regular, e))?;
        let judged = facts_of(&fd).map_err(|e| io("stat", &path, e))?;
        check
            .apply(&judged, Kind::Regular, our_uid())
            .map_err(|why| unsafe_at(&path, why))?;
        let flags = rfs::fcntl_getfl(&fd).map_err(|e| io("fcntl", &path, e))?;
        rfs::fcntl_setfl(&fd, flags - OFlags::NONBLOCK).map_err(|e| io("fcntl", &path, e))?;
        Ok(std::fs::File::from(fd))
    }

    /// The names in this directory, read through the descriptor, at most `limit` of them;
    /// the flag says whether the listing stopped at the limit.
    pub(crate) fn names(&self, limit: usize) -> Result<(Vec<std::ffi::OsString>, bool), Fail> {
        use std::os::unix::ffi::OsStrExt;
        let mut stream = rfs::Dir::read_from(self.fd()).map_err(|e| io("read", &self.path, e))?;
        let mut out = Vec::new();
        while let Some(entry) = stream.read() {
            let Ok(entry) = entry else { break };
            let bytes = entry.file_name().to_bytes();
            if bytes == b"." || bytes == b".." {
                continue;
            }
            if out.len() == limit {
                return Ok((out, true));
            }
            out.push(OsStr::from_bytes(bytes).to_os_string());
        }
        Ok((out, false))
    }
}

/// Why opening `name` in `parent` failed: a link, a FIFO without a reader (`ENXIO`), a
/// device or a file of another user refused by the kernel's protected_regular/fifos
/// rules are named as such (from `fstatat` without following); anything else stays an
/// I/O error.
fn explain_open(parent: BorrowedFd<'_>, name: &OsStr, path: &Path, wanted: Kind, e: Errno) -> Fail {
    let explainable = [
        Errno::LOOP,
        Errno::NOTDIR,
        Errno::MLINK,
        Errno::NXIO,
        Errno::ACCESS,
        Errno::PERM,
        Errno::ISDIR,
        Errno::OPNOTSUPP,
    ];
    if explainable.contains(&e) {
        if let Ok(st) = rfs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW) {
            #[allow(clippy::unnecessary_cast)]
            let judged = Facts::from_stat(st.st_mode as u32, st.st_uid);
            if let Err(why) = rules::check_own(&judged, wanted, our_uid()) {
                return unsafe_at(path, why);
            }
        }
    }
    io("open", path, e)
}

impl Dir {
    /// Open `path`, a directory of ours that no one else may write to (a work dir we made),
    /// without following a link at its end.
    pub(crate) fn open_own(path: &Path) -> Result<Dir, Fail> {
        let fd = rfs::open(path, DIR_OPEN, Mode::empty())
            .map_err(|e| explain_open(rfs::CWD, path.as_os_str(), path, Kind::Directory, e))?;
        let judged = facts_of(&fd).map_err(|e| io("stat", path, e))?;
        rules::check_entry(&judged, Kind::Directory, our_uid())
            .map_err(|why| unsafe_at(path, why))?;
        Ok(Dir {
            fd: Arc::new(fd),
            path: path.to_path_buf(),
        })
    }
}

/// Make `file` exactly 0600 (the mode given at creation is narrowed by the umask, and an
/// existing file keeps its own), and empty it when `truncate` is set.
pub(crate) fn make_private(file: &std::fs::File, path: &Path, truncate: bool) -> Result<(), Fail> {
    rfs::fchmod(file, Mode::from_raw_mode(0o600)).map_err(|e| io("chmod", path, e))?;
    if truncate {
        rfs::ftruncate(file, 0).map_err(|e| io("truncate", path, e))?;
    }
    Ok(())
}

fn flags(access: Access) -> OFlags {
    match access {
        Access::Append => OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE,
        Access::Write => OFlags::WRONLY | OFlags::CREATE,
        Access::CreateNew => OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL,
        Access::Read => OFlags::RDONLY,
    }
}

impl Dir {
    /// True when only we may enter this directory (ours, no bits for group or others).
    pub(crate) fn is_private(&self) -> bool {
        facts_of(self.fd()).is_ok_and(|f| rules::check_private_dir(&f, our_uid()).is_ok())
    }
}
