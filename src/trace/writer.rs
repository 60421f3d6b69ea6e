//! The trace file: created owner-only (0600) when new, appended to otherwise, written
//! through (one `write` per line, nothing buffered in the engine). It is opened through
//! [`safe_fs`](crate::safe_fs): never through a link, never blocking on a FIFO, and refused
//! when it is another user's, writable by others, or in a directory others could swap it
//! in. The first failed write is logged and closes the file for good, so a full disk never
//! reaches the client.

use crate::kernel::error::{codes, Error, Result};
use crate::kernel::log;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub(super) struct TraceFile {
    path: PathBuf,
    file: Mutex<Option<File>>,
    open: AtomicBool,
}

impl TraceFile {
    pub(super) fn open(path: &Path) -> Result<TraceFile> {
        let file = crate::safe_fs::open_append(path, "the trace file").map_err(|e| {
            if e.has_code(codes::UNSAFE_PATH) {
                return e;
            }
            let message = format!(
                "cannot open the trace file {}: {}",
                path.display(),
                e.message
            );
            Error { message, ..e }
        })?;
        Ok(TraceFile {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
            open: AtomicBool::new(true),
        })
    }

    /// A trace over an already open file (tests: a device that fails every write).
    #[cfg(all(test, target_os = "linux"))]
    pub(super) fn from_file(path: &Path, file: File) -> TraceFile {
        TraceFile {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
            open: AtomicBool::new(true),
        }
    }

    pub(super) fn is_open(&self) -> bool {
        self.open.load(Ordering::Acquire)
    }

    /// Append `line` and a newline; after a failure nothing more is written.
    pub(super) fn write_line(&self, mut line: String) {
        line.push('\n');
        let mut slot = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let Some(file) = slot.as_mut() else {
            return;
        };
        if let Err(e) = file.write_all(line.as_bytes()) {
            *slot = None;
            self.open.store(false, Ordering::Release);
            log::warn(format!(
                "trace: writing {} failed ({e}); tracing stopped",
                self.path.display()
            ));
        }
    }

    /// Flush and close; idempotent.
    pub(super) fn close(&self) {
        self.open.store(false, Ordering::Release);
        let taken = self.file.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(mut file) = taken {
            let _ = file.flush();
        }
    }
}
