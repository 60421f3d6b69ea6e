//! Logging. The engine logs through a process-global [`Sink`] (the JS layer installs one
//! that forwards, in order, to the user's `Logger`); without a sink every line is dropped,
//! like the reference's `silentLogger`. Lines are redacted before they reach the sink, and
//! nothing is ever written to stdout.

use std::sync::{Arc, RwLock};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// Receives every log line the engine emits (already redacted).
pub trait Sink: Send + Sync {
    fn log(&self, level: Level, message: String);
}

static SINK: RwLock<Option<Arc<dyn Sink>>> = RwLock::new(None);

/// Install (or with `None`, remove) the process-global sink.
pub fn set_sink(sink: Option<Arc<dyn Sink>>) {
    if let Ok(mut slot) = SINK.write() {
        *slot = sink;
    }
}

/// Emit one line at `level`.
pub fn log(level: Level, message: impl AsRef<str>) {
    let sink = match SINK.read() {
        Ok(slot) => slot.clone(),
        Err(_) => None,
    };
    if let Some(sink) = sink {
        sink.log(level, crate::redact::redact(message.as_ref()));
    }
}

pub fn debug(message: impl AsRef<str>) {
    log(Level::Debug, message)
}
pub fn info(message: impl AsRef<str>) {
    log(Level::Info, message)
}
pub fn warn(message: impl AsRef<str>) {
    log(Level::Warn, message)
}
pub fn error(message: impl AsRef<str>) {
    log(Level::Error, message)
}

/// One process-wide capture for tests: every test module that inspects log lines uses this
/// sink, so installing it from several modules can never steal another module's lines.
#[cfg(test)]
pub mod testing {
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
    pub fn capture_logs() {
        capture();
    }

    /// Every line captured so far in this test process.
    pub fn lines() -> Vec<(Level, String)> {
        capture().0.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Captured lines at `level` that contain `needle`.
    pub fn logged(level: Level, needle: &str) -> Vec<String> {
        lines()
            .into_iter()
            .filter(|(l, m)| *l == level && m.contains(needle))
            .map(|(_, m)| m)
            .collect()
    }

    /// Every captured message.
    pub fn all_logged() -> Vec<String> {
        lines().into_iter().map(|(_, m)| m).collect()
    }
}
