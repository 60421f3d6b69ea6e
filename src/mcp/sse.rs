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

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Streaming SSE parser; see the module documentation.
#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of the line being read (no line terminator).
    line: Vec<u8>,
    /// The data buffer of the event being built (each data line followed by LF).
    data: String,
    /// True when the previous byte was a CR, so an LF right after it is part of that line end.
    after_cr: bool,
    /// True once the first line has been completed (the BOM can only precede it).
    seen_first_line: bool,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed the next chunk; returns the `data` of every event dispatched by it, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<String> {
        let mut events = Vec::new();
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
                    self.end_line(&mut events);
                }
                b'\n' => self.end_line(&mut events),
                _ => self.line.push(byte),
            }
        }
        events
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
    fn field_without_colon_has_empty_value() {
        assert_eq!(parse_all("data\ndata: y\n\n"), vec!["\ny".to_string()]);
    }
}
