//! The queue of log lines waiting for a consumer that runs elsewhere (the user's logger, on
//! the JS thread), bounded: at most [`MAX_QUEUED_LINES`] lines and [`MAX_QUEUED_BYTES`]
//! bytes wait. While the consumer is that far behind (a busy JS thread under a flood of
//! adt-ls output), new lines are dropped and counted, and the next delivery ends with one
//! warning that says how many. Log lines are the one thing a peer's flood may cost us, and
//! they are not worth stopping the peer for (docs/security.md, "Hostile peers: queues").

use crate::kernel::log::Level;
use std::collections::VecDeque;

/// Lines that may wait for the JS thread.
pub(crate) const MAX_QUEUED_LINES: usize = 10_000;
/// Bytes of lines that may wait for the JS thread.
pub(crate) const MAX_QUEUED_BYTES: usize = 4 * 1024 * 1024;

/// Lines waiting for the JS thread, and how many were dropped since the last delivery.
pub(crate) struct LineQueue {
    lines: VecDeque<(Level, String)>,
    bytes: usize,
    dropped: usize,
}

impl Default for LineQueue {
    fn default() -> Self {
        LineQueue::new()
    }
}

impl LineQueue {
    pub(crate) const fn new() -> LineQueue {
        LineQueue {
            lines: VecDeque::new(),
            bytes: 0,
            dropped: 0,
        }
    }

    /// Keep `message` unless the queue is full (a single line is always kept).
    pub(crate) fn push(&mut self, level: Level, message: String) {
        let full = self.lines.len() >= MAX_QUEUED_LINES
            || (!self.lines.is_empty() && self.bytes + message.len() > MAX_QUEUED_BYTES);
        if full {
            self.dropped += 1;
            return;
        }
        self.bytes += message.len();
        self.lines.push_back((level, message));
    }

    /// Everything queued, followed by the warning about dropped lines if any were.
    pub(crate) fn take(&mut self) -> Vec<(Level, String)> {
        let mut batch: Vec<(Level, String)> = self.lines.drain(..).collect();
        self.bytes = 0;
        let dropped = std::mem::take(&mut self.dropped);
        if dropped > 0 {
            batch.push((Level::Warn, dropped_warning(dropped)));
        }
        batch
    }
}

fn dropped_warning(dropped: usize) -> String {
    format!(
        "adt-ls-native: {dropped} log lines were dropped because the logger fell behind \
         (at most {MAX_QUEUED_LINES} lines or {MAX_QUEUED_BYTES} bytes wait for it)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_beyond_the_bound_are_counted_and_reported_once() {
        let mut q = LineQueue::new();
        for i in 0..MAX_QUEUED_LINES + 5 {
            q.push(Level::Debug, format!("line {i}"));
        }
        let batch = q.take();
        assert_eq!(batch.len(), MAX_QUEUED_LINES + 1);
        assert_eq!(
            batch[MAX_QUEUED_LINES - 1].1,
            format!("line {}", MAX_QUEUED_LINES - 1)
        );
        let (level, warning) = &batch[MAX_QUEUED_LINES];
        assert_eq!(*level, Level::Warn);
        assert!(
            warning.starts_with("adt-ls-native: 5 log lines were dropped"),
            "{warning}"
        );
        assert!(q.take().is_empty(), "reported once");
    }

    #[test]
    fn bytes_are_bounded_too_but_one_large_line_is_kept() {
        let mut q = LineQueue::new();
        q.push(Level::Info, "x".repeat(MAX_QUEUED_BYTES + 1));
        q.push(Level::Info, "y".to_string());
        let batch = q.take();
        assert_eq!(batch.len(), 2);
        assert!(batch[1].1.contains("1 log lines were dropped"));
        q.push(Level::Info, "z".repeat(MAX_QUEUED_BYTES / 2));
        q.push(Level::Info, "z".repeat(MAX_QUEUED_BYTES / 2));
        q.push(Level::Info, "z".to_string());
        assert_eq!(q.take().len(), 3, "two lines and the warning");
    }
}
