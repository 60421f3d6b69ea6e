//! LSP base-protocol framing: `Content-Length: N\r\n\r\n` followed by N bytes of UTF-8 JSON.
//!
//! Written by hand because the framing is twenty lines and the crates that offer it
//! (`lsp-server`, `tower-lsp`) bundle a blocking transport or a whole server framework.
//! Outgoing frames carry no `Content-Type` (as vscode-jsonrpc 8.2.1 writes them); incoming
//! header names are matched case-insensitively and any other header is ignored.
//!
//! Bounds (docs/security.md): a header block of at most [`MAX_HEADER_BYTES`], a body of at
//! most [`MAX_BODY_BYTES`]. The search for the header's end resumes where the previous one
//! stopped, so a peer trickling a header without CRLF costs O(n) in total, never O(n^2). The
//! first violation is final: the decoder keeps reporting it and drops further input, and the
//! connection ends (connection.rs).

use std::fmt;

/// Refuse headers larger than this: a peer that never sends `\r\n\r\n` must not make us
/// buffer without bound.
pub const MAX_HEADER_BYTES: usize = 8 * 1024;
/// Refuse bodies larger than this: 64 MiB, far above any adt-ls message (a large class
/// source or search result is a few MB).
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// A framing violation: the stream cannot be trusted any further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FramingError {
    HeaderTooLarge,
    MissingContentLength,
    InvalidContentLength(String),
    BodyTooLarge(usize),
    InvalidHeaderLine(String),
}

impl fmt::Display for FramingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FramingError::HeaderTooLarge => {
                write!(f, "LSP header exceeds {MAX_HEADER_BYTES} bytes")
            }
            FramingError::MissingContentLength => f.write_str("LSP header has no Content-Length"),
            FramingError::InvalidContentLength(v) => write!(f, "invalid LSP Content-Length: {v}"),
            FramingError::BodyTooLarge(n) => write!(f, "LSP body of {n} bytes is too large"),
            FramingError::InvalidHeaderLine(l) => write!(f, "invalid LSP header line: {l}"),
        }
    }
}

impl std::error::Error for FramingError {}

/// Frame one message body.
pub fn encode(body: &[u8]) -> Vec<u8> {
    let header = format!("Content-Length: {}\r\n\r\n", body.len());
    let mut out = Vec::with_capacity(header.len() + body.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(body);
    out
}

/// Incremental decoder: feed bytes as they arrive, take complete bodies out.
#[derive(Default)]
pub struct Decoder {
    buf: Vec<u8>,
    /// Bytes of `buf` before this are consumed: frames are taken by moving it, and the
    /// consumed prefix is dropped only when it is at least half the buffer (at a push) or a
    /// frame is still arriving, so many frames in one read cost one copy each, not one copy of
    /// everything behind them.
    start: usize,
    /// Body length of the frame whose header has been consumed, if any.
    pending_body: Option<usize>,
    /// How far `buf` has been searched for the header's end without finding it.
    scanned: usize,
    /// The first framing violation; once set, input is dropped and it is reported again.
    failed: Option<FramingError>,
}

impl Decoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Append received bytes (dropped once the stream is known to be broken).
    pub fn push(&mut self, bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.compact();
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Drop the consumed prefix (a move of the unconsumed bytes only).
    fn compact(&mut self) {
        self.buf.drain(..self.start);
        self.start = 0;
    }

    /// Bytes held, waiting for the rest of a frame.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// The next complete message body, `Ok(None)` when more bytes are needed. After the
    /// first error every call returns that error.
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, FramingError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let out = self.decode();
        if let Err(e) = &out {
            self.failed = Some(e.clone());
            self.buf = Vec::new();
            self.start = 0;
        }
        out
    }

    fn decode(&mut self) -> Result<Option<Vec<u8>>, FramingError> {
        let body_len = match self.pending_body {
            Some(n) => n,
            None => match self.take_header()? {
                Some(n) => {
                    self.pending_body = Some(n);
                    n
                }
                None => return Ok(None),
            },
        };
        if self.buffered() < body_len {
            return Ok(None);
        }
        let end = self.start + body_len;
        let rest_len = self.buf.len() - end;
        let body = if self.start == 0 && rest_len <= body_len {
            // A body at the front with less behind it (a large result): it takes the buffer's
            // allocation and only the rest is copied. Give back what lies past its end (a
            // shrinking realloc, no copy for large blocks), or a frame taken from one big read
            // would keep that read's capacity alive (found by the `lsp_framing` fuzz target).
            let rest = self.buf.split_off(body_len);
            let mut body = std::mem::replace(&mut self.buf, rest);
            body.shrink_to_fit();
            body
        } else {
            // One of several frames in a read: copy it out (exactly its bytes) and move on.
            let body = self.buf[self.start..end].to_vec();
            self.start = end;
            body
        };
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        }
        self.pending_body = None;
        Ok(Some(body))
    }

    /// Parse and drop one header block if it is complete; returns the content length.
    fn take_header(&mut self) -> Result<Option<usize>, FramingError> {
        // Resume the search where the last one stopped (minus a terminator's length).
        // `scanned` and `end` count from `start`.
        let unconsumed = &self.buf[self.start..];
        let from = self.scanned.saturating_sub(3);
        let Some(end) = find_header_end(&unconsumed[from..]).map(|i| from + i) else {
            self.scanned = unconsumed.len();
            // Up to 3 bytes of the terminator may already be here: only once a full one
            // could not end at or before the limit is the header too large (so the verdict
            // does not depend on where a read happened to end).
            if unconsumed.len() >= MAX_HEADER_BYTES + 4 {
                return Err(FramingError::HeaderTooLarge);
            }
            return Ok(None);
        };
        self.scanned = 0;
        if end > MAX_HEADER_BYTES {
            return Err(FramingError::HeaderTooLarge);
        }
        let header = String::from_utf8_lossy(&unconsumed[..end]).into_owned();
        self.start += end + 4;
        let body_len = parse_content_length(&header)?;
        // A body still arriving starts at the front, so once complete it can take the
        // buffer's allocation (a large result is not copied); this moves at most one read.
        if self.buffered() < body_len {
            self.compact();
        }
        Ok(Some(body_len))
    }
}

/// Where `\r\n\r\n` starts in `buf`.
pub fn find_header_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n")
}

fn parse_content_length(header: &str) -> Result<usize, FramingError> {
    let mut length = None;
    for line in header.split("\r\n") {
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(FramingError::InvalidHeaderLine(truncate(line)));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            let n: usize = value
                .parse()
                .map_err(|_| FramingError::InvalidContentLength(truncate(value)))?;
            if n > MAX_BODY_BYTES {
                return Err(FramingError::BodyTooLarge(n));
            }
            length = Some(n);
        }
    }
    length.ok_or(FramingError::MissingContentLength)
}

fn truncate(s: &str) -> String {
    s.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn encodes_without_content_type() {
        let frame = encode(br#"{"a":1}"#);
        assert_eq!(frame, b"Content-Length: 7\r\n\r\n{\"a\":1}".to_vec());
    }

    #[test]
    fn counts_bytes_not_chars() {
        let frame = encode("{\"t\":\"ä€😀\"}".as_bytes());
        assert!(frame.starts_with(b"Content-Length: 17\r\n"));
    }

    #[test]
    fn decodes_case_insensitive_headers_and_content_type() {
        let mut d = Decoder::new();
        d.push(b"content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}");
        assert_eq!(d.next_frame().unwrap(), Some(b"{}".to_vec()));
        assert_eq!(d.next_frame().unwrap(), None);
    }

    #[test]
    fn decodes_back_to_back_frames() {
        let mut d = Decoder::new();
        let mut bytes = encode(b"[1]");
        bytes.extend(encode(b"[22]"));
        d.push(&bytes);
        assert_eq!(d.next_frame().unwrap(), Some(b"[1]".to_vec()));
        assert_eq!(d.next_frame().unwrap(), Some(b"[22]".to_vec()));
        assert_eq!(d.next_frame().unwrap(), None);
    }

    #[test]
    fn rejects_missing_or_bad_length() {
        let mut d = Decoder::new();
        d.push(b"X-Other: 1\r\n\r\n");
        assert_eq!(d.next_frame(), Err(FramingError::MissingContentLength));
        let mut d = Decoder::new();
        d.push(b"Content-Length: -4\r\n\r\n");
        assert!(matches!(
            d.next_frame(),
            Err(FramingError::InvalidContentLength(_))
        ));
        let mut d = Decoder::new();
        d.push(b"garbage\r\n\r\n");
        assert!(matches!(
            d.next_frame(),
            Err(FramingError::InvalidHeaderLine(_))
        ));
    }

    #[test]
    fn frames_hold_no_more_memory_than_their_bytes() {
        let mut stream = Vec::new();
        for i in 0..50 {
            stream.extend_from_slice(&encode(format!("[{i}]").as_bytes()));
        }
        stream.extend_from_slice(&vec![b' '; 4096]);
        let mut d = Decoder::new();
        d.push(&stream);
        let mut frames = 0;
        while let Ok(Some(frame)) = d.next_frame() {
            assert_eq!(frame.capacity(), frame.len(), "frame {frames}");
            frames += 1;
        }
        assert_eq!(frames, 50);
    }

    #[test]
    fn small_and_large_frames_mixed_across_pushes_come_out_whole_and_in_order() {
        let large = vec![b'7'; 200_000];
        let bodies: Vec<Vec<u8>> = vec![
            b"[1]".to_vec(),
            large.clone(),
            b"[2]".to_vec(),
            b"[3]".to_vec(),
            large.clone(),
            b"[4]".to_vec(),
        ];
        let stream: Vec<u8> = bodies.iter().flat_map(|b| encode(b)).collect();
        for chunk in [7, 4096, 65536, stream.len()] {
            let mut d = Decoder::new();
            let mut out = Vec::new();
            for piece in stream.chunks(chunk) {
                d.push(piece);
                while let Some(frame) = d.next_frame().unwrap() {
                    assert_eq!(frame.capacity(), frame.len());
                    out.push(frame);
                }
            }
            assert_eq!(out, bodies, "chunk {chunk}");
            assert_eq!(d.buffered(), 0, "chunk {chunk}");
        }
    }

    #[test]
    fn rejects_endless_headers() {
        let mut d = Decoder::new();
        d.push(&vec![b'a'; MAX_HEADER_BYTES + 4]);
        assert_eq!(d.next_frame(), Err(FramingError::HeaderTooLarge));
    }

    /// Found by the `lsp_framing` fuzz target (chunking invariance): a header block of
    /// exactly the limit was accepted in one read but refused when a read ended inside its
    /// `\r\n\r\n`.
    #[test]
    fn a_header_at_the_limit_is_accepted_however_it_is_cut() {
        let head = b"Content-Length: 2\r\nX-Pad: ";
        let mut stream = head.to_vec();
        stream.resize(MAX_HEADER_BYTES, b'p');
        stream.extend_from_slice(b"\r\n\r\n{}");
        for cut in MAX_HEADER_BYTES..stream.len() {
            let mut d = Decoder::new();
            d.push(&stream[..cut]);
            assert_eq!(d.next_frame(), Ok(None), "cut at {cut}");
            d.push(&stream[cut..]);
            assert_eq!(d.next_frame(), Ok(Some(b"{}".to_vec())), "cut at {cut}");
        }
        let mut d = Decoder::new();
        d.push(&stream[..MAX_HEADER_BYTES + 3]);
        d.push(b"x");
        assert_eq!(d.next_frame(), Err(FramingError::HeaderTooLarge));
    }

    #[test]
    fn a_trickled_header_without_crlf_is_scanned_once_and_fails_for_good() {
        // Old behaviour: every push rescanned the whole buffer and the buffer kept growing
        // after the error. Now the work is linear and the error is final.
        let mut d = Decoder::new();
        let mut fed = 0usize;
        let mut first_error = None;
        while fed < 64 * 1024 * 1024 {
            d.push(&[b'a'; 1024]);
            fed += 1024;
            match d.next_frame() {
                Ok(None) => {}
                Err(e) => {
                    first_error.get_or_insert(fed);
                    assert_eq!(e, FramingError::HeaderTooLarge);
                }
                Ok(Some(_)) => unreachable!(),
            }
            assert!(
                d.buffered() <= MAX_HEADER_BYTES + 1024,
                "buffer grew to {}",
                d.buffered()
            );
        }
        assert_eq!(first_error, Some(MAX_HEADER_BYTES + 1024));
        // A valid frame after the error is not decoded: the stream cannot be trusted.
        d.push(&encode(b"{}"));
        assert_eq!(d.next_frame(), Err(FramingError::HeaderTooLarge));
    }

    #[test]
    fn a_split_terminator_is_found_after_an_incremental_scan() {
        let mut d = Decoder::new();
        for chunk in [&b"Content-Length: 2\r"[..], b"\n", b"\r", b"\n{", b"}"] {
            d.push(chunk);
            if let Some(body) = d.next_frame().unwrap() {
                assert_eq!(body, b"{}".to_vec());
                return;
            }
        }
        panic!("frame not decoded");
    }

    #[test]
    fn rejects_huge_bodies() {
        let mut d = Decoder::new();
        d.push(format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1).as_bytes());
        assert!(matches!(d.next_frame(), Err(FramingError::BodyTooLarge(_))));
    }

    proptest! {
        /// However the byte stream is cut into chunks, the same bodies come out in order.
        #[test]
        fn any_chunking_yields_the_same_frames(
            bodies in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..200), 1..8),
            cuts in proptest::collection::vec(1usize..64, 1..40),
        ) {
            let stream: Vec<u8> = bodies.iter().flat_map(|b| encode(b)).collect();
            let mut d = Decoder::new();
            let mut out = Vec::new();
            let mut pos = 0;
            let mut cut = cuts.iter().cycle();
            while pos < stream.len() {
                let n = (*cut.next().unwrap()).min(stream.len() - pos);
                d.push(&stream[pos..pos + n]);
                pos += n;
                while let Some(frame) = d.next_frame().unwrap() {
                    out.push(frame);
                }
            }
            prop_assert_eq!(out, bodies);
        }

        /// Arbitrary input never panics; it yields frames, waits, or reports an error.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let mut d = Decoder::new();
            d.push(&bytes);
            for _ in 0..4 {
                match d.next_frame() {
                    Ok(Some(_)) => continue,
                    _ => break,
                }
            }
        }
    }
}
