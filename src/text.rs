//! Pure text helpers of the navigation namespace (docs/wire.md#navigation): applying LSP `TextEdit`s to
//! a source text and decoding delta-encoded semantic tokens.
//!
//! Positions count UTF-16 code units, exactly like JavaScript string indices. Editing works
//! on a `Vec<u16>` and converts back once at the end with `String::from_utf16_lossy`, so an
//! offset inside a surrogate pair splits it the way JS slicing would, and a half that is
//! still unpaired in the final text becomes U+FFFD (a Rust `String` cannot hold it).
//!
//! Numbers arrive as `i64`. The N-API layer's int64 conversion truncates fractional JS
//! numbers and turns NaN/±Infinity into 0; JSON input goes through [`js_int`], which does
//! the same. Arithmetic saturates instead of overflowing. A negative line maps to offset 0,
//! which is where the reference's `NaN` offset ends up after `String.prototype.slice`.

use serde::{Deserialize, Deserializer, Serialize};

/// A 0-based LSP position (`character` in UTF-16 code units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Position {
    #[serde(deserialize_with = "js_int")]
    pub line: i64,
    #[serde(deserialize_with = "js_int")]
    pub character: i64,
}

/// An LSP range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// An LSP `TextEdit`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextEdit {
    pub range: Range,
    pub new_text: String,
}

/// The server's semantic-tokens legend (`SemanticTokensLegend`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Legend {
    #[serde(default)]
    pub token_types: Vec<String>,
    #[serde(default)]
    pub token_modifiers: Vec<String>,
}

/// One decoded semantic token: absolute 0-based position and resolved names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecodedToken {
    pub line: i64,
    pub character: i64,
    pub length: i64,
    pub token_type: String,
    pub token_modifiers: Vec<String>,
}

/// Applies `edits` to `text` (see [`apply_text_edits_utf16`]).
pub fn apply_text_edits(text: &str, edits: &[TextEdit]) -> String {
    if edits.is_empty() {
        return text.to_string();
    }
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16_lossy(&apply_text_edits_utf16(&units, edits))
}

/// Applies `edits` to UTF-16 text, for callers that hold a JS string's code units (lone
/// surrogates survive untouched). Positions map to offsets through the line starts (on
/// `\n`; a `\r` stays part of the line); a line past the last means end of text; the
/// character is clamped to `0..=line length`. Edits are applied by start offset, last
/// first, keeping the given order among equal starts (stable, like JS `sort`), each as
/// `out[..start] + newText + out[end..]` with both ends clamped to the current length.
pub fn apply_text_edits_utf16(text: &[u16], edits: &[TextEdit]) -> Vec<u16> {
    if edits.is_empty() {
        return text.to_vec();
    }
    let lines = LineIndex::new(text);
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let start = lines.offset(e.range.start);
            (start, lines.offset(e.range.end), e.new_text.as_str())
        })
        .collect();
    spans.sort_by_key(|span| std::cmp::Reverse(span.0));

    let mut out = text.to_vec();
    for (start, end, new_text) in spans {
        let start = start.min(out.len());
        let end = end.min(out.len());
        let mut next = Vec::with_capacity(start + new_text.len() + out.len() - end);
        next.extend_from_slice(&out[..start]);
        next.extend(new_text.encode_utf16());
        next.extend_from_slice(&out[end..]);
        out = next;
    }
    out
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

/// Decodes delta-encoded 5-tuples `[Δline, Δchar, length, typeIdx, modBits]`. `None` gives
/// no tokens; a trailing incomplete tuple is ignored. `Δline > 0` moves to a new line and
/// sets the character; otherwise (also for a negative `Δline`) the character advances.
/// An unknown type index prints as its decimal value. Modifier `b` is tested against bit
/// `b % 32` of the low 32 bits of `modBits`, as JS `modBits & (1 << b)` does.
pub fn decode_semantic_tokens(data: Option<&[i64]>, legend: &Legend) -> Vec<DecodedToken> {
    let Some(data) = data else {
        return Vec::new();
    };
    let mut line: i64 = 0;
    let mut character: i64 = 0;
    data.chunks_exact(5)
        .map(|tuple| {
            let (d_line, d_char, length, type_idx, mod_bits) =
                (tuple[0], tuple[1], tuple[2], tuple[3], tuple[4]);
            if d_line > 0 {
                line = line.saturating_add(d_line);
                character = d_char;
            } else {
                character = character.saturating_add(d_char);
            }
            DecodedToken {
                line,
                character,
                length,
                token_type: token_type_name(legend, type_idx),
                token_modifiers: modifier_names(legend, mod_bits),
            }
        })
        .collect()
}

fn token_type_name(legend: &Legend, type_idx: i64) -> String {
    usize::try_from(type_idx)
        .ok()
        .and_then(|i| legend.token_types.get(i))
        .cloned()
        .unwrap_or_else(|| type_idx.to_string())
}

fn modifier_names(legend: &Legend, mod_bits: i64) -> Vec<String> {
    // ToInt32: keep the low 32 bits.
    let bits = mod_bits as u32;
    legend
        .token_modifiers
        .iter()
        .enumerate()
        .filter(|(b, _)| bits & (1u32 << (b % 32)) != 0)
        .map(|(_, name)| name.clone())
        .collect()
}

/// Deserializes a JSON number as JS code would use it as an integer: integers as they are
/// (saturating beyond `i64`), fractions truncated toward zero.
pub fn js_int<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    Ok(match (number.as_i64(), number.as_u64(), number.as_f64()) {
        (Some(i), _, _) => i,
        (None, Some(_), _) => i64::MAX,
        // `as` truncates toward zero and saturates; NaN cannot occur in JSON.
        (None, None, Some(f)) => f as i64,
        (None, None, None) => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pos(line: i64, character: i64) -> Position {
        Position { line, character }
    }

    fn edit(start: (i64, i64), end: (i64, i64), new_text: &str) -> TextEdit {
        TextEdit {
            range: Range {
                start: pos(start.0, start.1),
                end: pos(end.0, end.1),
            },
            new_text: new_text.to_string(),
        }
    }

    fn legend(types: &[&str], modifiers: &[&str]) -> Legend {
        Legend {
            token_types: types.iter().map(|s| s.to_string()).collect(),
            token_modifiers: modifiers.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn token(line: i64, character: i64, length: i64, ty: &str, mods: &[&str]) -> DecodedToken {
        DecodedToken {
            line,
            character,
            length,
            token_type: ty.to_string(),
            token_modifiers: mods.iter().map(|s| s.to_string()).collect(),
        }
    }

    // navigation.test.ts: applyTextEdits (6 cases).
    #[test]
    fn no_edits_is_identity() {
        assert_eq!(apply_text_edits("a\nb", &[]), "a\nb");
    }

    #[test]
    fn full_replace() {
        let e = edit((0, 0), (1, 3), "new");
        assert_eq!(apply_text_edits("abc\ndef", &[e]), "new");
    }

    #[test]
    fn multiple_unordered_edits() {
        let text = "DATA x.\nDATA y.\n";
        let edits = [
            edit((0, 5), (0, 6), "a"),
            edit((1, 5), (1, 6), "b"),
            edit((0, 0), (0, 4), "data"),
        ];
        assert_eq!(apply_text_edits(text, &edits), "data a.\nDATA b.\n");
    }

    #[test]
    fn multi_line_offset() {
        let text = "line0\nline1\nline2";
        let edits = [edit((2, 0), (2, 4), "LINE"), edit((1, 4), (2, 0), "X\n")];
        assert_eq!(apply_text_edits(text, &edits), "line0\nlineX\nLINE2");
    }

    #[test]
    fn out_of_range_sentinel_end_replaces_whole_text() {
        let e = edit((0, 0), (1_000_000_000, 0), "formatted\n");
        assert_eq!(apply_text_edits("a\nb\nc", &[e]), "formatted\n");
        // A sentinel start means "append at the end".
        let e = edit((99, 0), (99, 0), "!");
        assert_eq!(apply_text_edits("a\nb", &[e]), "a\nb!");
    }

    #[test]
    fn character_clamped_to_line_end() {
        let e = edit((0, 99), (0, 99), "!");
        assert_eq!(apply_text_edits("ab\ncd", &[e]), "ab!\ncd");
        let e = edit((1, 99), (1, 99), "!");
        assert_eq!(apply_text_edits("ab\ncd", &[e]), "ab\ncd!");
    }

    #[test]
    fn negative_character_clamped_to_line_start() {
        let e = edit((1, -5), (1, 1), "X");
        assert_eq!(apply_text_edits("ab\ncd", &[e]), "ab\nXd");
    }

    #[test]
    fn negative_line_is_offset_zero() {
        let e = edit((-1, 3), (-7, 0), "X");
        assert_eq!(apply_text_edits("ab", &[e]), "Xab");
    }

    #[test]
    fn extreme_numbers_do_not_overflow() {
        let e = edit((0, i64::MAX), (i64::MAX, i64::MAX), "!");
        assert_eq!(apply_text_edits("ab\ncd", &[e]), "ab!");
        let e = edit((i64::MIN, i64::MIN), (0, i64::MIN), "!");
        assert_eq!(apply_text_edits("ab", &[e]), "!ab");
    }

    #[test]
    fn empty_text() {
        assert_eq!(apply_text_edits("", &[edit((0, 0), (0, 0), "x")]), "x");
        assert_eq!(apply_text_edits("", &[edit((5, 5), (9, 9), "x")]), "x");
    }

    #[test]
    fn crlf_keeps_carriage_return_in_the_line() {
        let text = "ab\r\ncd\r\n";
        // Character 99 clamps before the `\n`, i.e. after the `\r`.
        assert_eq!(
            apply_text_edits(text, &[edit((0, 99), (0, 99), "!")]),
            "ab\r!\ncd\r\n"
        );
        assert_eq!(
            apply_text_edits(text, &[edit((0, 2), (0, 2), "!")]),
            "ab!\r\ncd\r\n"
        );
        // The empty last line after the final newline is line 2.
        assert_eq!(
            apply_text_edits(text, &[edit((2, 0), (2, 0), "!")]),
            "ab\r\ncd\r\n!"
        );
    }

    #[test]
    fn surrogate_pairs_count_two_units() {
        let text = "a😀b\n😀c";
        assert_eq!(
            apply_text_edits(text, &[edit((0, 3), (0, 4), "B")]),
            "a😀B\n😀c"
        );
        assert_eq!(
            apply_text_edits(text, &[edit((1, 2), (1, 3), "C")]),
            "a😀b\n😀C"
        );
        assert_eq!(
            apply_text_edits(text, &[edit((0, 1), (0, 3), "")]),
            "ab\n😀c"
        );
    }

    #[test]
    fn offset_inside_a_surrogate_pair_splits_it() {
        // Inserting between the halves leaves both unpaired: U+FFFD each.
        assert_eq!(
            apply_text_edits("😀", &[edit((0, 1), (0, 1), "x")]),
            "\u{FFFD}x\u{FFFD}"
        );
        // Deleting one half leaves the other unpaired.
        assert_eq!(
            apply_text_edits("😀z", &[edit((0, 0), (0, 1), "")]),
            "\u{FFFD}z"
        );
        // Two edits that each touch one half, re-joined in the UTF-16 buffer.
        let utf16: Vec<u16> = "😀".encode_utf16().collect();
        let out = apply_text_edits_utf16(&utf16, &[edit((0, 1), (0, 1), "")]);
        assert_eq!(out, utf16);
    }

    #[test]
    fn equal_starts_keep_input_order_like_a_stable_sort() {
        // Both insert at 0: the first applied (input order) ends up last.
        let edits = [edit((0, 0), (0, 0), "1"), edit((0, 0), (0, 0), "2")];
        assert_eq!(apply_text_edits("x", &edits), "21x");
    }

    #[test]
    fn reversed_range_slices_like_js() {
        // out.slice(0, 3) + "X" + out.slice(1)
        assert_eq!(
            apply_text_edits("abcd", &[edit((0, 3), (0, 1), "X")]),
            "abcXbcd"
        );
    }

    #[test]
    fn lone_surrogates_survive_the_utf16_entry_point() {
        let text = [0xD800u16, u16::from(b'a')];
        let out = apply_text_edits_utf16(&text, &[edit((0, 2), (0, 2), "b")]);
        assert_eq!(out, [0xD800, u16::from(b'a'), u16::from(b'b')]);
    }

    // navigation.test.ts: decodeSemanticTokens (3 cases).
    #[test]
    fn missing_data_decodes_to_nothing() {
        assert!(decode_semantic_tokens(None, &legend(&["keyword"], &[])).is_empty());
        assert!(decode_semantic_tokens(Some(&[]), &legend(&["keyword"], &[])).is_empty());
    }

    #[test]
    fn same_line_delta_with_a_modifier() {
        let l = legend(&["keyword", "variable"], &["declaration", "readonly"]);
        let data = [0, 0, 4, 0, 0, 0, 5, 3, 1, 1];
        assert_eq!(
            decode_semantic_tokens(Some(&data), &l),
            [
                token(0, 0, 4, "keyword", &[]),
                token(0, 5, 3, "variable", &["declaration"]),
            ]
        );
    }

    #[test]
    fn line_advance_with_two_modifier_bits() {
        let l = legend(
            &["keyword", "variable"],
            &["declaration", "readonly", "static"],
        );
        let data = [2, 4, 6, 1, 0b101, 1, 2, 3, 0, 0];
        assert_eq!(
            decode_semantic_tokens(Some(&data), &l),
            [
                token(2, 4, 6, "variable", &["declaration", "static"]),
                token(3, 2, 3, "keyword", &[]),
            ]
        );
    }

    #[test]
    fn unknown_type_index_and_incomplete_tuple() {
        let l = legend(&["keyword"], &[]);
        let data = [0, 1, 2, 7, 0, 0, 1, 2, -1, 0, 9, 9, 9, 9];
        assert_eq!(
            decode_semantic_tokens(Some(&data), &l),
            [token(0, 1, 2, "7", &[]), token(0, 2, 2, "-1", &[])]
        );
    }

    #[test]
    fn negative_line_delta_advances_the_character_only() {
        let l = legend(&["t"], &[]);
        let data = [3, 4, 1, 0, 0, -1, 2, 1, 0, 0];
        assert_eq!(
            decode_semantic_tokens(Some(&data), &l),
            [token(3, 4, 1, "t", &[]), token(3, 6, 1, "t", &[])]
        );
    }

    #[test]
    fn modifier_bits_wrap_like_int32() {
        let names: Vec<String> = (0..34).map(|i| format!("m{i}")).collect();
        let l = Legend {
            token_types: vec!["t".into()],
            token_modifiers: names,
        };
        // Bit 0 also selects m32 (1 << 32 === 1 in JS); bit 33 of modBits is dropped.
        let data = [0, 0, 1, 0, 1 | (1 << 33)];
        let decoded = decode_semantic_tokens(Some(&data), &l);
        assert_eq!(decoded[0].token_modifiers, ["m0", "m32"]);
        let data = [0, 0, 1, 0, -1];
        assert_eq!(
            decode_semantic_tokens(Some(&data), &l)[0]
                .token_modifiers
                .len(),
            34
        );
    }

    #[test]
    fn json_shapes_round_trip() {
        let edits: Vec<TextEdit> = serde_json::from_value(serde_json::json!([
            {"range": {"start": {"line": 0, "character": 1.9}, "end": {"line": 1e9, "character": 0}}, "newText": "x"}
        ]))
        .unwrap();
        assert_eq!(edits, [edit((0, 1), (1_000_000_000, 0), "x")]);
        let l: Legend = serde_json::from_value(serde_json::json!({"tokenTypes": ["a"]})).unwrap();
        assert_eq!(l, legend(&["a"], &[]));
        let out = serde_json::to_value(token(1, 2, 3, "a", &["m"])).unwrap();
        assert_eq!(
            out,
            serde_json::json!({"line": 1, "character": 2, "length": 3, "tokenType": "a", "tokenModifiers": ["m"]})
        );
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

    proptest! {
        #[test]
        fn apply_never_panics(
            text in text_strategy(),
            edits in proptest::collection::vec(
                (any_position(), any_position(), "\\PC{0,4}").prop_map(|(start, end, new_text)| TextEdit {
                    range: Range { start, end },
                    new_text,
                }),
                0..6,
            ),
        ) {
            let _ = apply_text_edits(&text, &edits);
        }

        #[test]
        fn no_edits_is_identity_property(text in text_strategy()) {
            prop_assert_eq!(apply_text_edits(&text, &[]), text);
        }

        #[test]
        fn single_insert_equals_utf16_splice(text in text_strategy(), at in 0usize..64, insert in "\\PC{0,4}") {
            let units: Vec<u16> = text.encode_utf16().collect();
            let at = at.min(units.len());
            // Express the offset as a position: find its line and column.
            let line = units[..at].iter().filter(|u| **u == u16::from(b'\n')).count();
            let line_start = units[..at].iter().rposition(|u| *u == u16::from(b'\n')).map_or(0, |i| i + 1);
            let p = Position { line: line as i64, character: (at - line_start) as i64 };
            let e = TextEdit { range: Range { start: p, end: p }, new_text: insert.clone() };

            let mut expected = units.clone();
            expected.splice(at..at, insert.encode_utf16());
            prop_assert_eq!(apply_text_edits_utf16(&units, std::slice::from_ref(&e)), expected.clone());
            prop_assert_eq!(apply_text_edits(&text, &[e]), String::from_utf16_lossy(&expected));
        }

        #[test]
        fn decode_never_panics(data in proptest::collection::vec(any::<i64>(), 0..40), types in 0usize..4, mods in 0usize..40) {
            let l = Legend {
                token_types: (0..types).map(|i| format!("t{i}")).collect(),
                token_modifiers: (0..mods).map(|i| format!("m{i}")).collect(),
            };
            let decoded = decode_semantic_tokens(Some(&data), &l);
            prop_assert_eq!(decoded.len(), data.len() / 5);
        }
    }
}
