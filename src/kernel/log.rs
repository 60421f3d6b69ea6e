//! Logging. The engine logs through a process-global [`Sink`] (the JS layer installs one
//! that forwards, in order, to the user's `Logger`); without a sink every line is dropped,
//! like the reference's `silentLogger`. Lines are redacted before they reach the sink, and
//! nothing is ever written to stdout.
//!
//! Without a sink, a `DEBUG` value (see [`crate::kernel::debug_env`], installed by the JS layer when
//! the addon loads) writes the lines of the areas it enables to stderr; a sink installed by
//! `setLogger` takes precedence over `DEBUG`. A line's area comes from the module that logged
//! it (`#[track_caller]`), so call sites stay plain `log::debug(...)`.

use crate::kernel::debug_env::{self, Area, DebugPatterns};
use std::io::Write;
use std::panic::Location;
use std::sync::{Arc, RwLock};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

impl Level {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// Receives every log line the engine emits (already redacted).
pub(crate) trait Sink: Send + Sync {
    fn log(&self, level: Level, message: String);
}

static SINK: RwLock<Option<Arc<dyn Sink>>> = RwLock::new(None);

/// Install (or with `None`, remove) the process-global sink.
pub(crate) fn set_sink(sink: Option<Arc<dyn Sink>>) {
    if let Ok(mut slot) = SINK.write() {
        *slot = sink;
    }
}

static DEBUG: RwLock<Option<Arc<DebugPatterns>>> = RwLock::new(None);

/// Install (or with `None`, remove) the `DEBUG` patterns used while no sink is installed.
pub(crate) fn set_debug(patterns: Option<DebugPatterns>) {
    if let Ok(mut slot) = DEBUG.write() {
        *slot = patterns.filter(|p| !p.is_silent()).map(Arc::new);
    }
}

/// Emit one line at `level`.
#[track_caller]
pub(crate) fn log(level: Level, message: impl AsRef<str>) {
    let sink = match SINK.read() {
        Ok(slot) => slot.clone(),
        Err(_) => None,
    };
    if let Some(sink) = sink {
        sink.log(level, crate::kernel::redact::redact(message.as_ref()));
        return;
    }
    let debug = match DEBUG.read() {
        Ok(slot) => slot.clone(),
        Err(_) => None,
    };
    if let Some(debug) = debug {
        let area = Area::of_file(Location::caller().file());
        if debug.area_enabled(area) {
            let text = crate::kernel::redact::redact(message.as_ref());
            let lines = debug_env::format_lines(&timestamp(), area, level.as_str(), &text);
            // A closed stderr must not disturb the engine: the write error is dropped.
            let _ = std::io::stderr().lock().write_all(lines.as_bytes());
        }
    }
}

/// Now as `Date#toISOString()` does it (UTC, milliseconds).
pub(crate) fn timestamp() -> String {
    let now = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
        now.millisecond()
    )
}

#[track_caller]
pub(crate) fn debug(message: impl AsRef<str>) {
    log(Level::Debug, message)
}
#[track_caller]
pub(crate) fn info(message: impl AsRef<str>) {
    log(Level::Info, message)
}
#[track_caller]
pub(crate) fn warn(message: impl AsRef<str>) {
    log(Level::Warn, message)
}
#[cfg(test)]
#[track_caller]
pub(crate) fn error(message: impl AsRef<str>) {
    log(Level::Error, message)
}

/// One process-wide capture for tests: every test module that inspects log lines uses this
/// sink, so installing it from several modules can never steal another module's lines.
#[cfg(test)]
pub(crate) mod testing {
    use super::{set_sink, Level, Sink};
    use std::sync::{Arc, Mutex, OnceLock};

    #[derive(Default)]
    struct Capture(Mutex<Vec<(Level, String)>>);

    impl Sink for Capture {
        fn log(&self, level: Level, message: String) {
            if let Ok(mut lines) = self.0.lock() {
                lines.push((level, message));
            }
        }
    }

    fn capture() -> &'static Arc<Capture> {
        static CAPTURE: OnceLock<Arc<Capture>> = OnceLock::new();
        CAPTURE.get_or_init(|| {
            let capture = Arc::new(Capture::default());
            set_sink(Some(capture.clone()));
            capture
        })
    }

    /// Start capturing (idempotent).
    pub(crate) fn capture_logs() {
        capture();
    }

    /// Every line captured so far in this test process.
    pub(crate) fn lines() -> Vec<(Level, String)> {
        capture().0.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Captured lines at `level` that contain `needle`.
    pub(crate) fn logged(level: Level, needle: &str) -> Vec<String> {
        lines()
            .into_iter()
            .filter(|(l, m)| *l == level && m.contains(needle))
            .map(|(_, m)| m)
            .collect()
    }

    /// Every captured message.
    pub(crate) fn all_logged() -> Vec<String> {
        lines().into_iter().map(|(_, m)| m).collect()
    }
}
