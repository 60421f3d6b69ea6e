//! The last chunks adt-ls wrote to stdout and stderr (60 chunks, not lines, as the reference
//! keeps them), used to explain early exits and crashes in error messages.

use std::collections::VecDeque;
use std::sync::Mutex;

const KEEP_CHUNKS: usize = 60;

#[derive(Default)]
pub(crate) struct OutputTail {
    chunks: Mutex<VecDeque<String>>,
}

impl OutputTail {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn push(&self, chunk: String) {
        let mut chunks = self.chunks.lock().unwrap_or_else(|p| p.into_inner());
        if chunks.len() == KEEP_CHUNKS {
            chunks.pop_front();
        }
        chunks.push_back(chunk);
    }

    /// The last `n` chunks concatenated (redacted: the JVM echoes `JAVA_TOOL_OPTIONS`).
    pub(crate) fn last(&self, n: usize) -> String {
        let chunks = self.chunks.lock().unwrap_or_else(|p| p.into_inner());
        let start = chunks.len().saturating_sub(n);
        let joined: String = chunks.iter().skip(start).map(String::as_str).collect();
        crate::kernel::redact::redact(&joined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_the_last_sixty_chunks() {
        let t = OutputTail::new();
        for i in 0..100 {
            t.push(format!("{i},"));
        }
        assert_eq!(t.last(3), "97,98,99,");
        assert_eq!(
            t.last(1000).split(',').filter(|s| !s.is_empty()).count(),
            60
        );
    }
}
