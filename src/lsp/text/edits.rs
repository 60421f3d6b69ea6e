//! Applying LSP `TextEdit`s to a text in one pass: every edit's range is mapped to offsets
//! in the original text, the edits are sorted once, checked (no reversed range, no overlap)
//! and the output is built front to back, so the work is O(n log n) in the edits plus the
//! length of the output, and the output is never longer than the text plus the inserted
//! texts.
//!
//! The result equals the reference's, which sorts the edits by start offset (last first,
//! keeping the given order among equal starts) and splices them into the text one after
//! another, for every input on which that splicing does not corrupt the text:
//!
//! - Positions map to offsets through the line starts (on `\n`; a `\r` stays part of the
//!   line); a line past the last means end of text; a negative line means offset 0; the
//!   character is clamped to `0..=line length`.
//! - Several insertions at one offset appear in the reverse of their given order (the last
//!   one spliced in ends up first), and before a replacement that starts there.
//! - A range whose start maps after its end (the reference then duplicated the text between
//!   them) and edits whose ranges overlap (the reference then spliced into text it had
//!   already changed) are refused with [`EditError`], naming the edits' indices. Ranges
//!   that only touch do not overlap.
//!
//! Editing works on UTF-16 code units and converts back once at the end with
//! `String::from_utf16_lossy`, so an offset inside a surrogate pair splits it the way JS
//! slicing would, and a half that is still unpaired in the final text becomes U+FFFD (a
//! Rust `String` cannot hold it). Arithmetic saturates instead of overflowing.

use super::{Position, TextEdit};
use crate::kernel::error::{codes, Error};
use std::cmp::Reverse;
use std::fmt;

/// Why a list of edits cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// `edits[index]`'s range starts after its end (compared as offsets, after clamping).
    Reversed {
        index: usize,
        start: Position,
        end: Position,
    },
    /// `edits[first]` and `edits[second]` (`first < second`) overlap.
    Overlap { first: usize, second: usize },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Reversed { index, start, end } => write!(
                f,
                "edits[{index}] starts after its end (start line {}, character {}; end line {}, \
                 character {}): a TextEdit range must not be reversed",
                start.line, start.character, end.line, end.character
            ),
            EditError::Overlap { first, second } => write!(
                f,
                "edits[{first}] and edits[{second}] overlap: LSP text edits must not overlap"
            ),
        }
    }
}

impl EditError {
    /// The coded error (`ERR_INVALID_TEXT_EDIT`) with `prefix` before the description and
    /// the edits' indices as `editIndex` (and `otherEditIndex` for an overlap).
    pub fn into_error(self, prefix: &str) -> Error {
        let message = format!("{prefix}{self}");
        let e = Error::coded(codes::INVALID_TEXT_EDIT, message);
        match self {
            EditError::Reversed { index, .. } => e.with_detail("editIndex", index),
            EditError::Overlap { first, second } => e
                .with_detail("editIndex", second)
                .with_detail("otherEditIndex", first),
        }
    }
}

/// Applies `edits` to `text` (see the module comment).
pub fn apply_text_edits(text: &str, edits: &[TextEdit]) -> Result<String, EditError> {
    if edits.is_empty() {
        return Ok(text.to_string());
    }
    let units: Vec<u16> = text.encode_utf16().collect();
    Ok(String::from_utf16_lossy(&apply_text_edits_utf16(
        &units, edits,
    )?))
}

/// Applies `edits` to UTF-16 text, for callers that hold a JS string's code units (lone
/// surrogates survive untouched); see the module comment.
pub fn apply_text_edits_utf16(text: &[u16], edits: &[TextEdit]) -> Result<Vec<u16>, EditError> {
    if edits.is_empty() {
        return Ok(text.to_vec());
    }
    let spans = checked_spans(text, edits)?;
    let removed: usize = spans.iter().map(|s| s.end - s.start).sum();
    let inserted: usize = spans.iter().map(|s| s.new_text.len()).sum();
    let mut out = Vec::with_capacity(text.len().saturating_sub(removed).saturating_add(inserted));
    let mut cursor = 0;
    for span in &spans {
        out.extend_from_slice(&text[cursor..span.start]);
        out.extend(span.new_text.encode_utf16());
        cursor = span.end;
    }
    out.extend_from_slice(&text[cursor..]);
    Ok(out)
}

/// One edit as offsets into the original text.
struct Span<'a> {
    start: usize,
    end: usize,
    index: usize,
    new_text: &'a str,
}

/// The edits as spans in output order, or the first reversed or overlapping edit. Output
/// order is by start; at one start, insertions (empty spans) come first, in reverse input
/// order, then the one replacement that may start there.
fn checked_spans<'a>(text: &[u16], edits: &'a [TextEdit]) -> Result<Vec<Span<'a>>, EditError> {
    let lines = LineIndex::new(text);
    let mut spans = Vec::with_capacity(edits.len());
    for (index, e) in edits.iter().enumerate() {
        let (start, end) = (lines.offset(e.range.start), lines.offset(e.range.end));
        if start > end {
            return Err(EditError::Reversed {
                index,
                start: e.range.start,
                end: e.range.end,
            });
        }
        spans.push(Span {
            start,
            end,
            index,
            new_text: &e.new_text,
        });
    }
    spans.sort_unstable_by_key(|s| (s.start, s.end > s.start, Reverse(s.index)));
    if let Some(pair) = spans.windows(2).find(|w| w[0].end > w[1].start) {
        let (a, b) = (pair[0].index, pair[1].index);
        return Err(EditError::Overlap {
            first: a.min(b),
            second: a.max(b),
        });
    }
    Ok(spans)
}

/// Line starts of a UTF-16 text, for position → offset conversion.
struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    fn new(text: &[u16]) -> LineIndex {
        let newline = u16::from(b'\n');
        let starts = std::iter::once(0)
            .chain(
                text.iter()
                    .enumerate()
                    .filter(|(_, unit)| **unit == newline)
                    .map(|(i, _)| i + 1),
            )
            .collect();
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    fn offset(&self, p: Position) -> usize {
        let Ok(line) = usize::try_from(p.line) else {
            return 0;
        };
        let Some(&line_start) = self.starts.get(line) else {
            return self.len;
        };
        let line_end = self.starts.get(line + 1).map_or(self.len, |next| next - 1);
        let character = usize::try_from(p.character.max(0)).unwrap_or(usize::MAX);
        line_start.saturating_add(character).min(line_end)
    }
}
