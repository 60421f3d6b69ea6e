//! Incremental `text/event-stream` parser (WHATWG "server-sent events" rules), reduced to what
//! an MCP client needs: the `data` of each dispatched event. It is fed raw byte chunks as they
//! arrive and never waits for the end of the stream.
//!
//! * Lines end in LF, CRLF or a lone CR; a CRLF split across two chunks is one line end.
//! * Lines are split on bytes and decoded only when complete, so a UTF-8 character split
//!   across chunks is decoded whole (invalid sequences become U+FFFD, as WHATWG decodes).
//! * One leading UTF-8 BOM is ignored.
//! * `data:` values are collected (one optional leading space removed) and joined with LF;
//!   `event`, `id`, `retry`, unknown fields and `:` comments are ignored.
//! * A blank line dispatches the event, unless it had no `data` line at all.
//! * A trailing event without its blank line is never dispatched.
//! * One event (the data collected so far plus the line being read) is bounded
//!   ([`SseParser::with_limit`], default [`super::limits::DEFAULT_MAX_EVENT_BYTES`]): a line
//!   without a newline cannot grow without bound. Past the bound the parser fails for good.

use super::limits::DEFAULT_MAX_EVENT_BYTES;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An event grew past the parser's bound; the stream must be dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventTooLarge {
    pub limit: usize,
}

/// Streaming SSE parser; see the module documentation.
#[derive(Debug)]
pub struct SseParser {
    /// Bytes of the line being read (no line terminator).
    line: Vec<u8>,
    /// The data buffer of the event being built (each data line followed by LF).
    data: String,
    /// True when the previous byte was a CR, so an LF right after it is part of that line end.
    after_cr: bool,
    /// True once the first line has been completed (the BOM can only precede it).
    seen_first_line: bool,
    /// Bound on `line` + `data`, in bytes.
    limit: usize,
    /// Set once the bound was passed: further input is ignored.
    overflowed: bool,
}

impl Default for SseParser {
    fn default() -> Self {
        Self::with_limit(DEFAULT_MAX_EVENT_BYTES)
    }
}

impl SseParser {
    /// A parser with the default event bound.
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser that fails once one event exceeds `limit` bytes.
    pub fn with_limit(limit: usize) -> Self {
        SseParser {
            line: Vec::new(),
            data: String::new(),
            after_cr: false,
            seen_first_line: false,
            limit,
            overflowed: false,
        }
    }

    /// Feed the next chunk; returns the `data` of every event dispatched by it, in order
    /// (events completed before an overflow included; nothing after it).
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<String> {
        let mut events = Vec::new();
        let _ = self.feed_into(chunk, &mut events);
        events
    }

    /// [`SseParser::feed`] that reports an event over the bound. The events dispatched
    /// before the overflow are dropped with the stream.
    pub fn try_feed(&mut self, chunk: &[u8]) -> Result<Vec<String>, EventTooLarge> {
        let mut events = Vec::new();
        self.feed_into(chunk, &mut events)?;
        Ok(events)
    }

    fn feed_into(&mut self, chunk: &[u8], events: &mut Vec<String>) -> Result<(), EventTooLarge> {
        let too_large = EventTooLarge { limit: self.limit };
        if self.overflowed {
            return Err(too_large);
        }
        for &byte in chunk {
            if self.after_cr {
                self.after_cr = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(events);
                }
                b'\n' => self.end_line(events),
                _ => self.line.push(byte),
            }
            if self.line.len() + self.data.len() > self.limit {
                self.overflowed = true;
                self.line = Vec::new();
                self.data = String::new();
                return Err(too_large);
            }
        }
        Ok(())
    }

    fn end_line(&mut self, events: &mut Vec<String>) {
        let mut bytes = std::mem::take(&mut self.line);
        if !self.seen_first_line {
            self.seen_first_line = true;
            if bytes.starts_with(BOM) {
                bytes.drain(..BOM.len());
            }
        }
        if bytes.is_empty() {
            self.dispatch(events);
            return;
        }
        let line = String::from_utf8_lossy(&bytes);
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        if field == "data" {
            self.data.push_str(value);
            self.data.push('\n');
        }
    }

    fn dispatch(&mut self, events: &mut Vec<String>) {
        let mut data = std::mem::take(&mut self.data);
        if data.is_empty() {
            return;
        }
        data.pop(); // the LF added after the last data line
        events.push(data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(input: &str) -> Vec<String> {
        SseParser::new().feed(input.as_bytes())
    }

    #[test]
    fn data_lines_are_joined_with_lf_and_one_space_is_stripped() {
        let events = parse_all("data: {\"a\":\ndata:  1}\n\n");
        assert_eq!(events, vec!["{\"a\":\n 1}".to_string()]);
    }

    #[test]
    fn comments_and_other_fields_are_ignored() {
        let events =
            parse_all(": heartbeat\nevent: message\nid: 7\nretry: 10\nfoo: bar\ndata: x\n\n");
        assert_eq!(events, vec!["x".to_string()]);
    }

    #[test]
    fn events_without_data_are_not_dispatched() {
        assert!(parse_all(": ping\n\nevent: x\n\n").is_empty());
    }

    #[test]
    fn empty_data_line_dispatches_an_empty_event() {
        assert_eq!(parse_all("data:\n\n"), vec![String::new()]);
        assert_eq!(parse_all("data\n\n"), vec![String::new()]);
    }

    #[test]
    fn trailing_event_without_blank_line_is_not_dispatched() {
        assert_eq!(parse_all("data: a\n\ndata: b\n"), vec!["a".to_string()]);
    }

    #[test]
    fn cr_lf_and_crlf_all_end_lines() {
        assert_eq!(
            parse_all("data: a\r\rdata: b\r\n\r\ndata: c\n\n"),
            vec!["a".to_string(), "b".to_string(), "c".to_string()]
        );
    }

    #[test]
    fn crlf_split_across_chunks_is_one_line_end() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"data: a\r").is_empty());
        assert!(parser.feed(b"\ndata: b\r").is_empty());
        assert_eq!(parser.feed(b"\n\r\n"), vec!["a\nb".to_string()]);
    }

    #[test]
    fn utf8_split_across_chunks_is_decoded_whole() {
        let bytes = "data: \u{00e9}\u{1F600}\n\n".as_bytes();
        let mut parser = SseParser::new();
        let mut events = Vec::new();
        for byte in bytes {
            events.extend(parser.feed(std::slice::from_ref(byte)));
        }
        assert_eq!(events, vec!["\u{00e9}\u{1F600}".to_string()]);
    }

    #[test]
    fn leading_bom_is_ignored_even_when_split() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"\xEF").is_empty());
        assert_eq!(parser.feed(b"\xBB\xBFdata: x\n\n"), vec!["x".to_string()]);
    }

    #[test]
    fn an_endless_line_fails_at_the_bound_and_stays_failed() {
        let mut parser = SseParser::with_limit(1024);
        assert_eq!(parser.try_feed(b"data: ok\n\n"), Ok(vec!["ok".to_string()]));
        let mut fed = 0;
        let err = loop {
            match parser.try_feed(&[b'x'; 100]) {
                Ok(events) => assert!(events.is_empty()),
                Err(e) => break e,
            }
            fed += 100;
            assert!(fed < 10_000, "no error after {fed} bytes");
        };
        assert_eq!(err, EventTooLarge { limit: 1024 });
        assert_eq!(parser.try_feed(b"\n\ndata: x\n\n"), Err(err));
        assert!(parser.feed(b"data: y\n\n").is_empty());
    }

    #[test]
    fn many_data_lines_count_towards_one_event() {
        let mut parser = SseParser::with_limit(1024);
        let lines = "data: 0123456789\n".repeat(200);
        assert!(parser.try_feed(lines.as_bytes()).is_err());
        // Separate events each under the bound are fine.
        let mut parser = SseParser::with_limit(1024);
        let events = "data: 0123456789\n\n".repeat(200);
        assert_eq!(parser.try_feed(events.as_bytes()).unwrap().len(), 200);
    }

    #[test]
    fn the_default_bound_is_generous() {
        let mut parser = SseParser::new();
        let big = format!("data: {}\n\n", "x".repeat(4 * 1024 * 1024));
        assert_eq!(
            parser.try_feed(big.as_bytes()).unwrap()[0].len(),
            4 * 1024 * 1024
        );
    }

    #[test]
    fn field_without_colon_has_empty_value() {
        assert_eq!(parse_all("data\ndata: y\n\n"), vec!["\ny".to_string()]);
    }
}
