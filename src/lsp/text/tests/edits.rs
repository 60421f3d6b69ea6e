//! `apply_text_edits`: the reference's cases, positions, UTF-16, and the refusals.

use super::{edit, pos};
use crate::kernel::error::{codes, ErrorCode};
use crate::lsp::text::{apply_text_edits, apply_text_edits_utf16, EditError, TextEdit};

fn apply(text: &str, edits: &[TextEdit]) -> String {
    apply_text_edits(text, edits).unwrap()
}

// navigation.test.ts: applyTextEdits (6 cases).
#[test]
fn no_edits_is_identity() {
    assert_eq!(apply("a\nb", &[]), "a\nb");
}

#[test]
fn full_replace() {
    assert_eq!(apply("abc\ndef", &[edit((0, 0), (1, 3), "new")]), "new");
}

#[test]
fn multiple_unordered_edits() {
    let text = "DATA x.\nDATA y.\n";
    let edits = [
        edit((0, 5), (0, 6), "a"),
        edit((1, 5), (1, 6), "b"),
        edit((0, 0), (0, 4), "data"),
    ];
    assert_eq!(apply(text, &edits), "data a.\nDATA b.\n");
}

#[test]
fn multi_line_offset() {
    let text = "line0\nline1\nline2";
    let edits = [edit((2, 0), (2, 4), "LINE"), edit((1, 4), (2, 0), "X\n")];
    assert_eq!(apply(text, &edits), "line0\nlineX\nLINE2");
}

#[test]
fn out_of_range_sentinel_end_replaces_whole_text() {
    let e = edit((0, 0), (1_000_000_000, 0), "formatted\n");
    assert_eq!(apply("a\nb\nc", &[e]), "formatted\n");
    // A sentinel start means "append at the end".
    assert_eq!(apply("a\nb", &[edit((99, 0), (99, 0), "!")]), "a\nb!");
}

#[test]
fn character_clamped_to_line_end() {
    assert_eq!(apply("ab\ncd", &[edit((0, 99), (0, 99), "!")]), "ab!\ncd");
    assert_eq!(apply("ab\ncd", &[edit((1, 99), (1, 99), "!")]), "ab\ncd!");
}

#[test]
fn negative_character_clamped_to_line_start() {
    assert_eq!(apply("ab\ncd", &[edit((1, -5), (1, 1), "X")]), "ab\nXd");
}

#[test]
fn negative_line_is_offset_zero() {
    assert_eq!(apply("ab", &[edit((-1, 3), (-7, 0), "X")]), "Xab");
}

#[test]
fn extreme_numbers_do_not_overflow() {
    let e = edit((0, i64::MAX), (i64::MAX, i64::MAX), "!");
    assert_eq!(apply("ab\ncd", &[e]), "ab!");
    let e = edit((i64::MIN, i64::MIN), (0, i64::MIN), "!");
    assert_eq!(apply("ab", &[e]), "!ab");
}

#[test]
fn empty_text() {
    assert_eq!(apply("", &[edit((0, 0), (0, 0), "x")]), "x");
    assert_eq!(apply("", &[edit((5, 5), (9, 9), "x")]), "x");
}

#[test]
fn crlf_keeps_carriage_return_in_the_line() {
    let text = "ab\r\ncd\r\n";
    // Character 99 clamps before the `\n`, i.e. after the `\r`.
    assert_eq!(apply(text, &[edit((0, 99), (0, 99), "!")]), "ab\r!\ncd\r\n");
    assert_eq!(apply(text, &[edit((0, 2), (0, 2), "!")]), "ab!\r\ncd\r\n");
    // The empty last line after the final newline is line 2.
    assert_eq!(apply(text, &[edit((2, 0), (2, 0), "!")]), "ab\r\ncd\r\n!");
}

#[test]
fn surrogate_pairs_count_two_units() {
    let text = "a😀b\n😀c";
    assert_eq!(apply(text, &[edit((0, 3), (0, 4), "B")]), "a😀B\n😀c");
    assert_eq!(apply(text, &[edit((1, 2), (1, 3), "C")]), "a😀b\n😀C");
    assert_eq!(apply(text, &[edit((0, 1), (0, 3), "")]), "ab\n😀c");
}

#[test]
fn offset_inside_a_surrogate_pair_splits_it() {
    // Inserting between the halves leaves both unpaired: U+FFFD each.
    assert_eq!(
        apply("😀", &[edit((0, 1), (0, 1), "x")]),
        "\u{FFFD}x\u{FFFD}"
    );
    // Deleting one half leaves the other unpaired.
    assert_eq!(apply("😀z", &[edit((0, 0), (0, 1), "")]), "\u{FFFD}z");
    // An empty edit between the halves keeps the pair in the UTF-16 buffer.
    let utf16: Vec<u16> = "😀".encode_utf16().collect();
    let out = apply_text_edits_utf16(&utf16, &[edit((0, 1), (0, 1), "")]).unwrap();
    assert_eq!(out, utf16);
}

#[test]
fn insertions_at_one_offset_appear_in_reverse_order_like_the_reference() {
    // Both insert at 0: the reference splices the first given first, so it ends up last.
    let edits = [edit((0, 0), (0, 0), "1"), edit((0, 0), (0, 0), "2")];
    assert_eq!(apply("x", &edits), "21x");
}

#[test]
fn an_insertion_comes_before_a_replacement_starting_at_the_same_offset() {
    // In this order the reference gives "aYdef" + the insertion; in the other order it
    // spliced the replacement into the already inserted text ("aYcdef").
    let replace = edit((0, 1), (0, 3), "Y");
    let insert = edit((0, 1), (0, 1), "X");
    assert_eq!(
        apply("abcdef", &[replace.clone(), insert.clone()]),
        "aXYdef"
    );
    assert_eq!(apply("abcdef", &[insert, replace]), "aXYdef");
}

#[test]
fn touching_ranges_do_not_overlap() {
    let edits = [
        edit((0, 2), (0, 4), "B"),
        edit((0, 0), (0, 2), "A"),
        edit((0, 4), (0, 4), "!"),
        edit((0, 4), (0, 6), "C"),
    ];
    assert_eq!(apply("aabbcc", &edits), "AB!C");
}

#[test]
fn lone_surrogates_survive_the_utf16_entry_point() {
    let text = [0xD800u16, u16::from(b'a')];
    let out = apply_text_edits_utf16(&text, &[edit((0, 2), (0, 2), "b")]).unwrap();
    assert_eq!(out, [0xD800, u16::from(b'a'), u16::from(b'b')]);
}

#[test]
fn a_reversed_range_is_refused_naming_the_edit() {
    // The reference gave "abcXbcd" (the text between end and start twice).
    let edits = [edit((0, 0), (0, 0), "ok"), edit((0, 3), (0, 1), "X")];
    let err = apply_text_edits("abcd", &edits).unwrap_err();
    assert_eq!(
        err,
        EditError::Reversed {
            index: 1,
            start: pos(0, 3),
            end: pos(0, 1)
        }
    );
    assert_eq!(
        err.to_string(),
        "edits[1] starts after its end (start line 0, character 3; end line 0, character 1): \
         a TextEdit range must not be reversed"
    );
    // Across lines too.
    let err = apply_text_edits("ab\ncd", &[edit((1, 0), (0, 1), "")]).unwrap_err();
    assert!(matches!(err, EditError::Reversed { index: 0, .. }));
}

#[test]
fn reversed_positions_that_clamp_to_one_offset_are_an_insertion() {
    // Both ends clamp to the end of line 0: no text lies between them.
    assert_eq!(apply("ab\ncd", &[edit((0, 9), (0, 5), "!")]), "ab!\ncd");
}

#[test]
fn overlapping_edits_are_refused_naming_both() {
    let edits = [
        edit((0, 0), (0, 1), "a"),
        edit((0, 4), (0, 6), "x"),
        edit((0, 2), (0, 3), "b"),
        edit((0, 5), (0, 7), "y"),
    ];
    let err = apply_text_edits("0123456789", &edits).unwrap_err();
    assert_eq!(
        err,
        EditError::Overlap {
            first: 1,
            second: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "edits[1] and edits[3] overlap: LSP text edits must not overlap"
    );
}

#[test]
fn an_insertion_inside_a_replaced_range_overlaps_it() {
    let edits = [edit((0, 1), (0, 4), "R"), edit((0, 2), (0, 2), "I")];
    assert_eq!(
        apply_text_edits("abcdef", &edits).unwrap_err(),
        EditError::Overlap {
            first: 0,
            second: 1
        }
    );
}

#[test]
fn two_replacements_with_one_start_overlap() {
    let edits = [edit((0, 1), (0, 2), "R"), edit((0, 1), (0, 3), "S")];
    assert!(matches!(
        apply_text_edits("abcdef", &edits),
        Err(EditError::Overlap {
            first: 0,
            second: 1
        })
    ));
}

#[test]
fn the_coded_error_carries_the_indices() {
    let e = EditError::Overlap {
        first: 2,
        second: 7,
    }
    .into_error("applyTextEdits: ");
    assert_eq!(
        e.code,
        Some(ErrorCode::Str(codes::INVALID_TEXT_EDIT.to_string()))
    );
    assert!(e
        .message
        .starts_with("applyTextEdits: edits[2] and edits[7] overlap"));
    assert_eq!(
        e.details(),
        [
            ("editIndex", serde_json::json!(7)),
            ("otherEditIndex", serde_json::json!(2))
        ]
    );
}

#[test]
fn a_million_one_character_edits_are_applied_in_one_pass() {
    // The former splice-per-edit copied the whole text for every edit (10^12 unit copies
    // here: hours); one pass takes a moment.
    let n = 1_000_000;
    let text = "x".repeat(n);
    let edits: Vec<TextEdit> = (0..n as i64)
        .rev()
        .map(|i| edit((0, i), (0, i + 1), "yz"))
        .collect();
    let out = apply(&text, &edits);
    assert_eq!(out.len(), 2 * n);
    assert!(out.bytes().all(|b| b == b'y' || b == b'z'));
}
