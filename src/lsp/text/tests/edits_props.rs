//! Properties of `apply_text_edits` against a literal port of the reference's algorithm
//! (sort by start offset, last first, stable; splice each edit into the text changed so far),
//! and against a brute-force check of which lists are valid.

use super::pos;
use crate::lsp::text::{
    apply_text_edits, apply_text_edits_utf16, EditError, Position, Range, TextEdit,
};
use proptest::prelude::*;

/// The reference's position → offset mapping on the original text.
fn offset(text: &[u16], p: Position) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            (0..text.len())
                .filter(|&i| text[i] == u16::from(b'\n'))
                .map(|i| i + 1),
        )
        .collect();
    let Ok(line) = usize::try_from(p.line) else {
        return 0;
    };
    let Some(&start) = starts.get(line) else {
        return text.len();
    };
    let end = starts.get(line + 1).map_or(text.len(), |n| n - 1);
    let character = usize::try_from(p.character.max(0)).unwrap_or(usize::MAX);
    start.saturating_add(character).min(end)
}

/// The reference's `applyTextEdits`, slicing like `String.prototype.slice`.
fn reference(text: &[u16], edits: &[TextEdit]) -> Vec<u16> {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(offset(text, e.range.start)));
    let mut out = text.to_vec();
    for e in sorted {
        let start = offset(text, e.range.start).min(out.len());
        let end = offset(text, e.range.end).min(out.len());
        let mut next = out[..start].to_vec();
        next.extend(e.new_text.encode_utf16());
        next.extend_from_slice(&out[end..]);
        out = next;
    }
    out
}

/// The edits' offsets.
fn spans(text: &[u16], edits: &[TextEdit]) -> Vec<(usize, usize)> {
    edits
        .iter()
        .map(|e| (offset(text, e.range.start), offset(text, e.range.end)))
        .collect()
}

/// Brute force over all pairs: `None` when the list is valid, else what is wrong with it.
fn invalid(text: &[u16], edits: &[TextEdit]) -> Option<&'static str> {
    let s = spans(text, edits);
    if s.iter().any(|(a, b)| a > b) {
        return Some("reversed");
    }
    for (i, &(a, b)) in s.iter().enumerate() {
        for &(c, d) in &s[i + 1..] {
            let interiors_meet = a.max(c) < b.min(d);
            let inside = |p: usize, (x, y): (usize, usize)| x < p && p < y;
            let insertion_inside = (a == b && inside(a, (c, d))) || (c == d && inside(c, (a, b)));
            if interiors_meet || insertion_inside {
                return Some("overlap");
            }
        }
    }
    None
}

/// True when some insertion with text comes, in the given order, before a replacement that
/// starts at the same offset: the one valid case the reference spliced wrongly.
fn reference_misorders(text: &[u16], edits: &[TextEdit]) -> bool {
    let s = spans(text, edits);
    s.iter().enumerate().any(|(j, &(c, d))| {
        c < d
            && s[..j]
                .iter()
                .zip(edits)
                .any(|(&(a, b), e)| a == b && a == c && !e.new_text.is_empty())
    })
}

/// The same list with the replacements moved ahead of the insertions (stable), which the
/// reference applies correctly.
fn replacements_first(text: &[u16], edits: &[TextEdit]) -> Vec<TextEdit> {
    let s = spans(text, edits);
    let (mut out, inserts): (Vec<_>, Vec<_>) = edits.iter().zip(&s).partition(|(_, (a, b))| a < b);
    out.extend(inserts);
    out.into_iter().map(|(e, _)| e.clone()).collect()
}

/// Text mixing ASCII, newlines, CRLF and astral characters.
fn text_strategy() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("a".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("😀".to_string()),
            Just("é".to_string()),
            "\\PC{0,3}",
        ],
        0..20,
    )
    .prop_map(|parts| parts.concat())
}

fn any_position() -> impl Strategy<Value = Position> {
    (
        prop_oneof![any::<i64>(), -2i64..10],
        prop_oneof![any::<i64>(), -2i64..12],
    )
        .prop_map(|(line, character)| Position { line, character })
}

/// The position of `offset` in `text` (line and UTF-16 column).
fn position_of(text: &[u16], offset: usize) -> Position {
    let nl = u16::from(b'\n');
    let line = text[..offset].iter().filter(|u| **u == nl).count();
    let start = text[..offset]
        .iter()
        .rposition(|u| *u == nl)
        .map_or(0, |i| i + 1);
    pos(line as i64, (offset - start) as i64)
}

/// A valid list: sorted cut points make touching spans, some empty, some repeated
/// insertions; then shuffled by the permutation seed.
fn valid_edits(text: &[u16], cuts: &[usize], texts: &[String], seed: u64) -> Vec<TextEdit> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    points.sort_unstable();
    let mut edits: Vec<TextEdit> = points
        .windows(2)
        .enumerate()
        .filter(|(i, _)| i % 3 != 2) // leave some text between edits
        .map(|(i, w)| TextEdit {
            range: Range {
                start: position_of(text, w[0]),
                end: position_of(text, w[1]),
            },
            new_text: texts[i % texts.len()].clone(),
        })
        .collect();
    let mut state = seed | 1;
    for i in (1..edits.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        edits.swap(i, (state % (i as u64 + 1)) as usize);
    }
    edits
}

proptest! {
    #[test]
    fn valid_lists_equal_the_reference(
        text in text_strategy(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
        texts in proptest::collection::vec("\\PC{0,3}", 1..4),
        seed in any::<u64>(),
    ) {
        let units: Vec<u16> = text.encode_utf16().collect();
        let edits = valid_edits(&units, &cuts, &texts, seed);
        prop_assert_eq!(invalid(&units, &edits), None);
        let out = apply_text_edits_utf16(&units, &edits).unwrap();
        prop_assert_eq!(&out, &reference(&units, &replacements_first(&units, &edits)));
        if !reference_misorders(&units, &edits) {
            prop_assert_eq!(&out, &reference(&units, &edits));
        }
        let inserted: usize = edits.iter().map(|e| e.new_text.encode_utf16().count()).sum();
        prop_assert!(out.len() <= units.len() + inserted);
    }

    #[test]
    fn any_list_is_applied_exactly_when_it_is_valid(
        text in text_strategy(),
        edits in proptest::collection::vec(
            (any_position(), any_position(), "\\PC{0,4}").prop_map(|(start, end, new_text)| TextEdit {
                range: Range { start, end },
                new_text,
            }),
            0..6,
        ),
    ) {
        let units: Vec<u16> = text.encode_utf16().collect();
        match (apply_text_edits_utf16(&units, &edits), invalid(&units, &edits)) {
            (Ok(out), None) => {
                prop_assert_eq!(&out, &reference(&units, &replacements_first(&units, &edits)));
                prop_assert_eq!(apply_text_edits(&text, &edits).unwrap(), String::from_utf16_lossy(&out));
            }
            (Err(EditError::Reversed { index, .. }), Some("reversed")) => {
                let (a, b) = spans(&units, &edits)[index];
                prop_assert!(a > b);
            }
            (Err(EditError::Overlap { first, second }), Some("overlap")) => {
                prop_assert!(first < second && second < edits.len());
            }
            (got, expected) => prop_assert!(false, "got {:?}, expected {:?}", got, expected),
        }
    }

    #[test]
    fn no_edits_is_identity_property(text in text_strategy()) {
        prop_assert_eq!(apply_text_edits(&text, &[]).unwrap(), text);
    }

    #[test]
    fn single_insert_equals_utf16_splice(text in text_strategy(), at in 0usize..64, insert in "\\PC{0,4}") {
        let units: Vec<u16> = text.encode_utf16().collect();
        let at = at.min(units.len());
        let p = position_of(&units, at);
        let e = TextEdit { range: Range { start: p, end: p }, new_text: insert.clone() };
        let mut expected = units.clone();
        expected.splice(at..at, insert.encode_utf16());
        prop_assert_eq!(apply_text_edits_utf16(&units, std::slice::from_ref(&e)).unwrap(), expected.clone());
        prop_assert_eq!(apply_text_edits(&text, &[e]).unwrap(), String::from_utf16_lossy(&expected));
    }
}
