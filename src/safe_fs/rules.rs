//! The rules that decide whether a file or directory may be used, applied to what `fstat`
//! said about an open descriptor (so the facts belong to the object we hold, not to whatever
//! the path names later). Pure: the callers gather the [`Facts`].
//!
//! Two roles, as OpenSSH's `safe_path` and systemd's unsafe-transition checks draw them:
//! an *entry* (a file we write, a directory we keep private) must be ours alone; a
//! *container* (the temp dir, a trace file's directory and every ancestor) may be shared,
//! but only in a way that keeps others from renaming or replacing our entries in it.

/// What kind of object a descriptor or directory entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Regular,
    Directory,
    Symlink,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Unknown,
}

impl Kind {
    /// The kind in an `st_mode` value.
    pub(crate) fn of_mode(mode: u32) -> Kind {
        match mode & 0o170000 {
            0o100000 => Kind::Regular,
            0o040000 => Kind::Directory,
            0o120000 => Kind::Symlink,
            0o010000 => Kind::Fifo,
            0o140000 => Kind::Socket,
            0o020000 => Kind::CharDevice,
            0o060000 => Kind::BlockDevice,
            _ => Kind::Unknown,
        }
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            Kind::Regular => "a regular file",
            Kind::Directory => "a directory",
            Kind::Symlink => "a symbolic link",
            Kind::Fifo => "a FIFO",
            Kind::Socket => "a socket",
            Kind::CharDevice => "a character device",
            Kind::BlockDevice => "a block device",
            Kind::Unknown => "an unknown kind of file",
        }
    }
}

/// What `fstat` says about an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts {
    pub kind: Kind,
    /// The permission bits, with setuid/setgid/sticky (`st_mode & 0o7777`).
    pub mode: u32,
    pub uid: u32,
}

impl Facts {
    /// From a raw `st_mode` and `st_uid`.
    pub(crate) fn from_stat(st_mode: u32, uid: u32) -> Facts {
        Facts {
            kind: Kind::of_mode(st_mode),
            mode: st_mode & 0o7777,
            uid,
        }
    }
}

/// Why an object was refused. Each has a stable name (the error's `reason`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unsafe {
    /// The path's last component is a symbolic link.
    Symlink,
    /// Not the kind asked for (a FIFO or device where a file was wanted, ...).
    WrongKind { found: Kind, wanted: Kind },
    /// Owned by another user.
    ForeignOwner { uid: u32, ours: u32 },
    /// An entry its group or other users may write to.
    WritableByOthers { mode: u32 },
    /// A container others may write to without the sticky bit: they can rename our
    /// entries away and put their own in their place.
    NotSticky { mode: u32 },
    /// A directory the object sits in failed the container rules.
    Parent {
        dir: std::path::PathBuf,
        why: Box<Unsafe>,
    },
}

const STICKY: u32 = 0o1000;
const GROUP_WRITE: u32 = 0o020;
const OTHER_WRITE: u32 = 0o002;

impl Unsafe {
    /// The stable name of the reason.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Unsafe::Symlink => "symlink",
            Unsafe::WrongKind {
                wanted: Kind::Directory,
                ..
            } => "not-directory",
            Unsafe::WrongKind { .. } => "not-regular",
            Unsafe::ForeignOwner { .. } => "foreign-owner",
            Unsafe::WritableByOthers { .. } => "writable-by-others",
            Unsafe::NotSticky { .. } => "world-writable-without-sticky",
            Unsafe::Parent { .. } => "unsafe-parent",
        }
    }

    /// The reason in words ("it is a FIFO, not a regular file").
    pub(crate) fn describe(&self) -> String {
        match self {
            Unsafe::Symlink => "it is a symbolic link".to_string(),
            Unsafe::WrongKind { found, wanted } => {
                format!("it is {}, not {}", found.describe(), wanted.describe())
            }
            Unsafe::ForeignOwner { uid, ours } => {
                format!("it is owned by uid {uid}, not by this user (uid {ours})")
            }
            Unsafe::WritableByOthers { mode } => {
                format!("its group or other users may write to it (mode {mode:04o})")
            }
            Unsafe::NotSticky { mode } => format!(
                "other users may write to it and it lacks the sticky bit (mode {mode:04o}), so they can replace what it holds"
            ),
            Unsafe::Parent { dir, why } => {
                format!("its directory {} is unsafe: {}", dir.display(), why.describe())
            }
        }
    }
}

/// An entry of ours: the kind asked for, owned by us and writable by no one else.
pub(crate) fn check_entry(facts: &Facts, wanted: Kind, ours: u32) -> Result<(), Unsafe> {
    check_kind(facts, wanted)?;
    check_owner(facts.uid, ours)?;
    if facts.mode & (GROUP_WRITE | OTHER_WRITE) != 0 {
        return Err(Unsafe::WritableByOthers { mode: facts.mode });
    }
    Ok(())
}

/// An entry we just created or are about to narrow to 0700/0600: the kind and the owner
/// (its mode is ours to set).
pub(crate) fn check_own(facts: &Facts, wanted: Kind, ours: u32) -> Result<(), Unsafe> {
    check_kind(facts, wanted)?;
    check_owner(facts.uid, ours)
}

/// How strictly a container is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sharing {
    /// An ancestor, a trace file's directory, a data dir's parent: writable by its group is
    /// accepted (the group can write there anyway); world-writable needs the sticky bit.
    Group,
    /// The temp dir our private dirs go into: writable by anyone but its owner needs the
    /// sticky bit.
    None,
}

/// A container: a directory owned by root or by us; if others may write to it, the
/// sticky bit must be set so they cannot rename or remove our entries.
pub(crate) fn check_container(facts: &Facts, ours: u32, sharing: Sharing) -> Result<(), Unsafe> {
    check_kind(facts, Kind::Directory)?;
    if facts.uid != 0 {
        check_owner(facts.uid, ours)?;
    }
    let writable = match sharing {
        Sharing::Group => OTHER_WRITE,
        Sharing::None => GROUP_WRITE | OTHER_WRITE,
    };
    if facts.mode & writable != 0 && facts.mode & STICKY == 0 {
        return Err(Unsafe::NotSticky { mode: facts.mode });
    }
    Ok(())
}

/// A directory only we may enter (`$XDG_RUNTIME_DIR` as a fallback temp dir): ours, and no
/// permission bits for group or others.
pub(crate) fn check_private_dir(facts: &Facts, ours: u32) -> Result<(), Unsafe> {
    check_own(facts, Kind::Directory, ours)?;
    if facts.mode & 0o077 != 0 {
        return Err(Unsafe::WritableByOthers { mode: facts.mode });
    }
    Ok(())
}

fn check_kind(facts: &Facts, wanted: Kind) -> Result<(), Unsafe> {
    match facts.kind {
        k if k == wanted => Ok(()),
        Kind::Symlink => Err(Unsafe::Symlink),
        found => Err(Unsafe::WrongKind { found, wanted }),
    }
}

fn check_owner(uid: u32, ours: u32) -> Result<(), Unsafe> {
    if uid == ours {
        Ok(())
    } else {
        Err(Unsafe::ForeignOwner { uid, ours })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: u32 = 1000;

    fn facts(kind: Kind, mode: u32, uid: u32) -> Facts {
        Facts { kind, mode, uid }
    }

    #[test]
    fn modes_name_their_kind() {
        assert_eq!(Kind::of_mode(0o100644), Kind::Regular);
        assert_eq!(Kind::of_mode(0o041777), Kind::Directory);
        assert_eq!(Kind::of_mode(0o120777), Kind::Symlink);
        assert_eq!(Kind::of_mode(0o010600), Kind::Fifo);
        assert_eq!(Kind::of_mode(0o140755), Kind::Socket);
        assert_eq!(Kind::of_mode(0o020666), Kind::CharDevice);
        assert_eq!(Kind::of_mode(0o060660), Kind::BlockDevice);
        assert_eq!(Facts::from_stat(0o041777, 0).mode, 0o1777);
    }

    #[test]
    fn an_entry_must_be_ours_alone_and_of_its_kind() {
        assert_eq!(
            check_entry(&facts(Kind::Regular, 0o600, ME), Kind::Regular, ME),
            Ok(())
        );
        assert_eq!(
            check_entry(&facts(Kind::Regular, 0o644, ME), Kind::Regular, ME),
            Ok(()),
            "readable by others is the caller's choice; only writing is refused"
        );
        assert_eq!(
            check_entry(&facts(Kind::Symlink, 0o777, ME), Kind::Regular, ME),
            Err(Unsafe::Symlink)
        );
        let fifo = check_entry(&facts(Kind::Fifo, 0o600, ME), Kind::Regular, ME).unwrap_err();
        assert_eq!(fifo.name(), "not-regular");
        assert_eq!(fifo.describe(), "it is a FIFO, not a regular file");
        let dev = check_entry(&facts(Kind::CharDevice, 0o666, 0), Kind::Regular, ME);
        assert_eq!(dev.unwrap_err().name(), "not-regular");
        let file_as_dir = check_entry(&facts(Kind::Regular, 0o700, ME), Kind::Directory, ME);
        assert_eq!(file_as_dir.unwrap_err().name(), "not-directory");
        assert_eq!(
            check_entry(&facts(Kind::Regular, 0o600, 65534), Kind::Regular, ME),
            Err(Unsafe::ForeignOwner {
                uid: 65534,
                ours: ME
            })
        );
        for mode in [0o620, 0o602, 0o666, 0o1777] {
            assert_eq!(
                check_entry(&facts(Kind::Regular, mode, ME), Kind::Regular, ME),
                Err(Unsafe::WritableByOthers { mode }),
                "{mode:o}"
            );
        }
        assert_eq!(
            check_entry(&facts(Kind::Directory, 0o775, ME), Kind::Directory, ME)
                .unwrap_err()
                .name(),
            "writable-by-others"
        );
    }

    #[test]
    fn an_own_entry_may_have_any_mode_before_we_narrow_it() {
        assert_eq!(
            check_own(&facts(Kind::Directory, 0o777, ME), Kind::Directory, ME),
            Ok(())
        );
        assert!(check_own(&facts(Kind::Directory, 0o700, 0), Kind::Directory, ME).is_err());
        assert!(check_own(&facts(Kind::Symlink, 0o777, ME), Kind::Directory, ME).is_err());
    }

    #[test]
    fn a_container_shared_with_others_needs_the_sticky_bit() {
        let dir = |mode, uid| facts(Kind::Directory, mode, uid);
        for sharing in [Sharing::Group, Sharing::None] {
            assert_eq!(check_container(&dir(0o1777, 0), ME, sharing), Ok(()));
            assert_eq!(check_container(&dir(0o755, 0), ME, sharing), Ok(()));
            assert_eq!(check_container(&dir(0o700, ME), ME, sharing), Ok(()));
            assert_eq!(
                check_container(&dir(0o777, 0), ME, sharing),
                Err(Unsafe::NotSticky { mode: 0o777 })
            );
            assert_eq!(
                check_container(&dir(0o1777, 65534), ME, sharing),
                Err(Unsafe::ForeignOwner {
                    uid: 65534,
                    ours: ME
                }),
                "the sticky bit does not protect against the directory's owner"
            );
            assert_eq!(
                check_container(&facts(Kind::Symlink, 0o777, ME), ME, sharing),
                Err(Unsafe::Symlink)
            );
        }
        assert_eq!(check_container(&dir(0o775, ME), ME, Sharing::Group), Ok(()));
        assert_eq!(
            check_container(&dir(0o775, ME), ME, Sharing::None),
            Err(Unsafe::NotSticky { mode: 0o775 })
        );
        assert_eq!(check_container(&dir(0o3775, 0), ME, Sharing::None), Ok(()));
    }

    #[test]
    fn a_private_dir_has_no_bits_for_others() {
        let dir = |mode, uid| facts(Kind::Directory, mode, uid);
        assert_eq!(check_private_dir(&dir(0o700, ME), ME), Ok(()));
        assert!(check_private_dir(&dir(0o750, ME), ME).is_err());
        assert!(check_private_dir(&dir(0o700, 0), ME).is_err());
    }

    #[test]
    fn a_parent_reason_names_the_directory() {
        let why = Unsafe::Parent {
            dir: "/shared".into(),
            why: Box::new(Unsafe::NotSticky { mode: 0o777 }),
        };
        assert_eq!(why.name(), "unsafe-parent");
        assert_eq!(
            why.describe(),
            "its directory /shared is unsafe: other users may write to it and it lacks the sticky bit (mode 0777), so they can replace what it holds"
        );
    }
}
