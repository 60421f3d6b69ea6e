//! Progress on stderr, for people: on a terminal one live line (`\r`, erase line) with the
//! phase, how many objects are done, the object and the percentage and message of adt-ls's
//! latest progress report; off a terminal one plain line per event; nothing with `--quiet`.
//! stdout never gets any of it. Reports reach this from the engine's progress scope
//! ([`crate::kernel::progress`]) on engine tasks; a mutex keeps lines whole.

use crate::kernel::progress::{Report, Sink};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where progress goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Live,
    Lines,
    Quiet,
}

/// The longest live line (longer ones are cut, so the line never wraps on a usual terminal).
const LIVE_WIDTH: usize = 100;

struct State {
    phase: String,
    done: usize,
    total: usize,
    /// The live line is on screen and must be erased before other output.
    showing: bool,
}

/// One run's progress display.
pub(crate) struct Progress {
    mode: Mode,
    state: Mutex<State>,
    out: Mutex<Box<dyn Write + Send>>,
}

impl Progress {
    pub(crate) fn new(mode: Mode, out: Box<dyn Write + Send>) -> Arc<Progress> {
        Arc::new(Progress {
            mode,
            state: Mutex::new(State {
                phase: String::new(),
                done: 0,
                total: 0,
                showing: false,
            }),
            out: Mutex::new(out),
        })
    }

    /// A new phase over `total` objects (`atc`, `unit`, ...).
    pub(crate) fn phase(&self, phase: &str, total: usize) {
        if let Ok(mut s) = self.state.lock() {
            s.phase = phase.to_string();
            s.done = 0;
            s.total = total;
        }
    }

    /// The engine sink of one object's call: its reports become progress lines.
    pub(crate) fn sink(self: &Arc<Self>, object: &str) -> Arc<Sink> {
        let me = self.clone();
        let object = object.to_string();
        Sink::new(move |report| me.report(&object, &report))
    }

    /// A report of adt-ls about `object`.
    pub(crate) fn report(&self, object: &str, report: &Report) {
        let pct = percent(report);
        let message = report.message.clone().unwrap_or_default();
        self.show(object, &format!("{pct}{message}"));
    }

    /// `object` is done; `what` says how it went.
    pub(crate) fn finished(&self, object: &str, what: &str) {
        if let Ok(mut s) = self.state.lock() {
            s.done += 1;
        }
        self.show(object, what);
    }

    fn show(&self, object: &str, text: &str) {
        if self.mode == Mode::Quiet {
            return;
        }
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        let line = format!("{} [{}/{}] {object} {text}", s.phase, s.done, s.total);
        let line = line.trim_end();
        let Ok(mut out) = self.out.lock() else {
            return;
        };
        let _ = match self.mode {
            Mode::Live => {
                s.showing = true;
                let cut: String = line.chars().take(LIVE_WIDTH).collect();
                write!(out, "\r\x1b[2K{cut}")
            }
            _ => writeln!(out, "adt-ls-native: {line}"),
        };
        let _ = out.flush();
    }

    /// Erase the live line (before the final messages, and at the end).
    pub(crate) fn clear(&self) {
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        if s.showing {
            if let Ok(mut out) = self.out.lock() {
                let _ = write!(out, "\r\x1b[2K");
                let _ = out.flush();
            }
            s.showing = false;
        }
    }

    /// A line of its own (a summary or an error), after erasing the live line.
    pub(crate) fn message(&self, text: &str) {
        self.clear();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        }
    }
}

/// `50% ` for a report with a total, `` otherwise.
fn percent(report: &Report) -> String {
    match report.total {
        Some(total) if total > 0.0 => {
            let pct = (report.progress / total * 100.0).clamp(0.0, 100.0);
            format!("{pct:.0}% ")
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl Buf {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn report(progress: f64, total: Option<f64>, message: Option<&str>) -> Report {
        Report {
            progress,
            total,
            message: message.map(str::to_string),
        }
    }

    #[test]
    fn live_lines_overwrite_plain_lines_append_quiet_shows_nothing() {
        for (mode, expected) in [
            (
                Mode::Live,
                "\r\x1b[2Katc [0/2] ZCL_A:CLAS/OC 50% checking\r\x1b[2Katc [1/2] ZCL_A:CLAS/OC 3 findings\r\x1b[2Kdone\n",
            ),
            (
                Mode::Lines,
                "adt-ls-native: atc [0/2] ZCL_A:CLAS/OC 50% checking\nadt-ls-native: atc [1/2] ZCL_A:CLAS/OC 3 findings\ndone\n",
            ),
            (Mode::Quiet, "done\n"),
        ] {
            let buf = Buf::default();
            let p = Progress::new(mode, Box::new(buf.clone()));
            p.phase("atc", 2);
            p.sink("ZCL_A:CLAS/OC").report(report(50.0, Some(100.0), Some("checking")));
            p.finished("ZCL_A:CLAS/OC", "3 findings");
            p.message("done");
            assert_eq!(buf.text(), expected, "{mode:?}");
        }
    }

    #[test]
    fn percentages_need_a_total() {
        assert_eq!(percent(&report(1.0, Some(3.0), None)), "33% ");
        assert_eq!(percent(&report(0.0, None, Some("x"))), "");
        assert_eq!(percent(&report(7.0, Some(0.0), None)), "");
    }
}
