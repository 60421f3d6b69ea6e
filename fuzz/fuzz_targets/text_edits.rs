//! Applying LSP text edits (`src/text/edits.rs`, behind `applyTextEdits` and
//! `navigation.format`). The input is a text, a `0xFF` byte, then edits of five bytes (start
//! line and character, end line and character, new-text length) each followed by that many
//! bytes of new text (lossy UTF-8); a position byte is a small signed number, `0x7F` the
//! largest `i64` and `0x80` the smallest. Invariants: no panic; the edits are applied exactly
//! when a brute-force check over all pairs finds no reversed range and no overlap; applied,
//! the result equals the reference's splice-one-edit-after-another algorithm (replacements
//! ahead of insertions at one offset, the order it splices correctly) and is no longer than
//! the text plus the new texts; refused, the error names an edit that is reversed or two that
//! overlap; heap use stays proportional to the input.
#![no_main]

use adt_ls_native::fuzzing::text::{apply_text_edits_utf16, EditError, Position, Range, TextEdit};
use adt_ls_native_fuzz::peak_heap;
use libfuzzer_sys::fuzz_target;

/// The heap the application may use: the UTF-16 text and output (2 bytes a unit), one line
/// start per newline and one span per edit (8 and 40 bytes, each from at least 1 and 5 input
/// bytes), and the output's copies.
fn budget(input_len: usize) -> usize {
    64 * 1024 + 32 * input_len
}

fn number(byte: u8) -> i64 {
    match byte {
        0x7F => i64::MAX,
        0x80 => i64::MIN,
        b => i64::from(b as i8),
    }
}

fn parse(data: &[u8]) -> (Vec<u16>, Vec<TextEdit>) {
    let split = data.iter().position(|b| *b == 0xFF).unwrap_or(data.len());
    let text: Vec<u16> = String::from_utf8_lossy(&data[..split])
        .encode_utf16()
        .collect();
    let mut rest = data.get(split + 1..).unwrap_or_default();
    let mut edits = Vec::new();
    while rest.len() >= 5 {
        let (head, tail) = rest.split_at(5);
        let take = usize::from(head[4] % 8).min(tail.len());
        let pos = |l: u8, c: u8| Position {
            line: number(l),
            character: number(c),
        };
        edits.push(TextEdit {
            range: Range {
                start: pos(head[0], head[1]),
                end: pos(head[2], head[3]),
            },
            new_text: String::from_utf8_lossy(&tail[..take]).into_owned(),
        });
        rest = &tail[take..];
    }
    (text, edits)
}

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

/// The reference: sort by start (last first, stable), splice each into the text so far.
fn reference(text: &[u16], edits: &[&TextEdit]) -> Vec<u16> {
    let mut sorted = edits.to_vec();
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

/// What a brute-force check over all pairs finds wrong, if anything.
fn invalid(spans: &[(usize, usize)]) -> Option<&'static str> {
    if spans.iter().any(|(a, b)| a > b) {
        return Some("reversed");
    }
    let inside = |p: usize, (x, y): (usize, usize)| x < p && p < y;
    for (i, &(a, b)) in spans.iter().enumerate() {
        for &(c, d) in &spans[i + 1..] {
            let meet = a.max(c) < b.min(d);
            if meet || (a == b && inside(a, (c, d))) || (c == d && inside(c, (a, b))) {
                return Some("overlap");
            }
        }
    }
    None
}

fuzz_target!(|data: &[u8]| {
    let (text, edits) = parse(data);
    let (outcome, peak) = peak_heap(|| apply_text_edits_utf16(&text, &edits));
    assert!(
        peak <= budget(data.len()),
        "applying used {peak} heap bytes"
    );
    let spans: Vec<(usize, usize)> = edits
        .iter()
        .map(|e| (offset(&text, e.range.start), offset(&text, e.range.end)))
        .collect();
    match (outcome, invalid(&spans)) {
        (Ok(out), None) => {
            let inserted: usize = edits
                .iter()
                .map(|e| e.new_text.encode_utf16().count())
                .sum();
            assert!(out.len() <= text.len() + inserted);
            let (mut ordered, inserts): (Vec<_>, Vec<_>) =
                edits.iter().zip(&spans).partition(|(_, (a, b))| a < b);
            ordered.extend(inserts);
            let ordered: Vec<&TextEdit> = ordered.into_iter().map(|(e, _)| e).collect();
            assert_eq!(out, reference(&text, &ordered));
        }
        (Err(EditError::Reversed { index, .. }), Some("reversed")) => {
            assert!(spans[index].0 > spans[index].1);
        }
        (Err(EditError::Overlap { first, second }), Some("overlap")) => {
            assert!(first < second && second < edits.len());
            assert_eq!(invalid(&[spans[first], spans[second]]), Some("overlap"));
        }
        (got, expected) => panic!("got {got:?}, brute force says {expected:?}"),
    }
});
