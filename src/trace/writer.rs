//! The trace file: created owner-only (0600) when new, appended to otherwise, written
//! through (one `write` per line, nothing buffered in the engine). The first failed write is
//! logged and closes the file for good, so a full disk never reaches the client.

use crate::error::{Error, Result};
use crate::log;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub struct TraceFile {
    path: PathBuf,
    file: Mutex<Option<File>>,
    open: AtomicBool,
}

impl TraceFile {
    pub fn open(path: &Path) -> Result<TraceFile> {
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let file = options.open(path).map_err(|e| {
            Error::new(format!(
                "cannot open the trace file {}: {e}",
                path.display()
            ))
        })?;
        Ok(TraceFile {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
            open: AtomicBool::new(true),
        })
    }

    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::Acquire)
    }

    /// Append `line` and a newline; after a failure nothing more is written.
    pub fn write_line(&self, mut line: String) {
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
    pub fn close(&self) {
        self.open.store(false, Ordering::Release);
        let taken = self.file.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(mut file) = taken {
            let _ = file.flush();
        }
    }
}
