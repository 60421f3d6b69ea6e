//! Tests of the text helpers: each helper against the reference's cases, the edge cases of
//! positions and numbers, the refusals, and properties against simple reference
//! implementations.

mod edits;
mod edits_props;
mod semantic;

use super::{Position, Range, TextEdit};

pub(super) fn pos(line: i64, character: i64) -> Position {
    Position { line, character }
}

pub(super) fn edit(start: (i64, i64), end: (i64, i64), new_text: &str) -> TextEdit {
    TextEdit {
        range: Range {
            start: pos(start.0, start.1),
            end: pos(end.0, end.1),
        },
        new_text: new_text.to_string(),
    }
}
