//! The terms the platform sides (`unix` on Unix, `other` elsewhere) share with
//! the functions of [`safe_fs`](super) above them: how a file is opened ([`Access`]), what it
//! must be besides a regular file ([`Check`]), and a failure below the public functions
//! ([`Fail`]) with the `ERR_UNSAFE_PATH` error it becomes.

use super::rules::{self, Facts, Kind, Unsafe};
use crate::kernel::error::{codes, Error};
use std::path::{Path, PathBuf};

/// How a file is opened by [`Dir::open_file`](super::Dir::open_file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Append, creating the file (0600) when missing.
    Append,
    /// Write, creating it (0600) when missing; the caller empties it after the checks.
    Write,
    /// Create a new file (0600); an existing name fails with `EEXIST`.
    CreateNew,
    /// Read an existing file.
    Read,
}

/// What an opened file must be besides a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// Ours, and writable by no one else (a file we append to as it is).
    Entry,
    /// Ours (its mode is set to 0600 next).
    Own,
}

impl Check {
    #[cfg_attr(not(unix), allow(dead_code))]
    pub(crate) fn apply(
        self,
        facts: &Facts,
        wanted: Kind,
        ours: u32,
    ) -> std::result::Result<(), Unsafe> {
        match self {
            Check::Entry => rules::check_entry(facts, wanted, ours),
            Check::Own => rules::check_own(facts, wanted, ours),
        }
    }
}

/// A failure below the public functions: an I/O error, or a refusal of the object at `at`.
#[derive(Debug)]
pub(crate) enum Fail {
    Io {
        op: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    Unsafe {
        at: PathBuf,
        why: Unsafe,
    },
}

impl Fail {
    /// The error for using `what` (`"the trace file"`) at `subject`: a refusal names the
    /// subject, and the directory at fault when that is one of the subject's ancestors.
    pub(crate) fn into_error(self, what: &str, subject: &Path) -> Error {
        match self {
            Fail::Io { op, path, error } => {
                Error::from(error).prefixed(&format!("{op} {}: ", path.display()))
            }
            Fail::Unsafe { at, why } if at == subject => refusal(what, subject, why),
            Fail::Unsafe { at, why } => refusal(
                what,
                subject,
                Unsafe::Parent {
                    dir: at,
                    why: Box::new(why),
                },
            ),
        }
    }

    /// True for a refusal (not an I/O error).
    pub(crate) fn is_refusal(&self) -> bool {
        matches!(self, Fail::Unsafe { .. })
    }
}

fn refusal(what: &str, subject: &Path, why: Unsafe) -> Error {
    Error::coded(
        codes::UNSAFE_PATH,
        format!("refused {what} {}: {}", subject.display(), why.describe()),
    )
    .with_detail("path", subject.display().to_string())
    .with_detail("reason", why.name())
}
