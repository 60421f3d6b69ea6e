//! `decode_semantic_tokens`: the reference's cases, the JS number semantics, modifier
//! resolution against a brute-force filter, and the cap.

use crate::kernel::error::{codes, ErrorCode};
use crate::lsp::text::{
    decode_semantic_tokens, modifier_indices, modifier_name_count, DecodedTokens, Legend,
    TokenType, MODIFIER_NAME_ALLOWANCE,
};
use proptest::prelude::*;

fn legend(types: &[&str], modifiers: &[&str]) -> Legend {
    Legend {
        token_types: types.iter().map(|s| s.to_string()).collect(),
        token_modifiers: modifiers.iter().map(|s| s.to_string()).collect(),
    }
}

/// A token with its names resolved, as JS sees it.
#[derive(Debug, PartialEq)]
struct Named {
    line: i64,
    character: i64,
    length: i64,
    token_type: String,
    modifiers: Vec<String>,
}

fn named(line: i64, character: i64, length: i64, ty: &str, mods: &[&str]) -> Named {
    Named {
        line,
        character,
        length,
        token_type: ty.to_string(),
        modifiers: mods.iter().map(|s| s.to_string()).collect(),
    }
}

fn resolve(decoded: &DecodedTokens, l: &Legend) -> Vec<Named> {
    decoded
        .tokens
        .iter()
        .map(|t| Named {
            line: t.line,
            character: t.character,
            length: t.length,
            token_type: match t.token_type {
                TokenType::Legend(i) => l.token_types[i].clone(),
                TokenType::Unknown(n) => n.to_string(),
            },
            modifiers: decoded
                .modifiers(t)
                .map(|i| l.token_modifiers[i].clone())
                .collect(),
        })
        .collect()
}

fn decode(data: &[i64], l: &Legend) -> Vec<Named> {
    resolve(&decode_semantic_tokens(Some(data), l).unwrap(), l)
}

// navigation.test.ts: decodeSemanticTokens (3 cases).
#[test]
fn missing_data_decodes_to_nothing() {
    let l = legend(&["keyword"], &[]);
    assert!(decode_semantic_tokens(None, &l).unwrap().tokens.is_empty());
    assert!(decode(&[], &l).is_empty());
}

#[test]
fn same_line_delta_with_a_modifier() {
    let l = legend(&["keyword", "variable"], &["declaration", "readonly"]);
    assert_eq!(
        decode(&[0, 0, 4, 0, 0, 0, 5, 3, 1, 1], &l),
        [
            named(0, 0, 4, "keyword", &[]),
            named(0, 5, 3, "variable", &["declaration"])
        ]
    );
}

#[test]
fn line_advance_with_two_modifier_bits() {
    let l = legend(
        &["keyword", "variable"],
        &["declaration", "readonly", "static"],
    );
    assert_eq!(
        decode(&[2, 4, 6, 1, 0b101, 1, 2, 3, 0, 0], &l),
        [
            named(2, 4, 6, "variable", &["declaration", "static"]),
            named(3, 2, 3, "keyword", &[])
        ]
    );
}

#[test]
fn unknown_type_index_and_incomplete_tuple() {
    let l = legend(&["keyword"], &[]);
    assert_eq!(
        decode(&[0, 1, 2, 7, 0, 0, 1, 2, -1, 0, 9, 9, 9, 9], &l),
        [named(0, 1, 2, "7", &[]), named(0, 2, 2, "-1", &[])]
    );
}

#[test]
fn negative_line_delta_advances_the_character_only() {
    let l = legend(&["t"], &[]);
    assert_eq!(
        decode(&[3, 4, 1, 0, 0, -1, 2, 1, 0, 0], &l),
        [named(3, 4, 1, "t", &[]), named(3, 6, 1, "t", &[])]
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
    assert_eq!(
        decode(&[0, 0, 1, 0, 1 | (1 << 33)], &l)[0].modifiers,
        ["m0", "m32"]
    );
    assert_eq!(decode(&[0, 0, 1, 0, -1], &l)[0].modifiers.len(), 34);
}

#[test]
fn extreme_deltas_saturate() {
    let l = legend(&["t"], &[]);
    let d = decode(
        &[
            i64::MAX,
            0,
            0,
            0,
            0,
            5,
            0,
            0,
            0,
            0,
            0,
            i64::MAX,
            0,
            0,
            0,
            0,
            1,
            0,
            0,
            0,
        ],
        &l,
    );
    assert_eq!(d[1].line, i64::MAX);
    assert_eq!(d[3].character, i64::MAX);
}

#[test]
fn names_are_counted_not_copied() {
    // 32 modifiers of 10 KB and 1,000 tokens with every bit: 32,000 references to 32 names.
    let big: Vec<String> = (0..32).map(|i| format!("{i}").repeat(10_000)).collect();
    let l = Legend {
        token_types: vec!["t".into()],
        token_modifiers: big,
    };
    let data: Vec<i64> = (0..1000).flat_map(|_| [0, 1, 1, 0, -1]).collect();
    let decoded = decode_semantic_tokens(Some(&data), &l).unwrap();
    assert_eq!(decoded.tokens.len(), 1000);
    assert_eq!(decoded.modifier_names, 32_000);
    assert_eq!(decoded.used_modifier_bits(), u32::MAX);
}

#[test]
fn a_legend_of_32_modifiers_never_reaches_the_cap() {
    let l = Legend {
        token_types: vec![],
        token_modifiers: (0..32).map(|i| i.to_string()).collect(),
    };
    let data: Vec<i64> = (0..200_000).flat_map(|_| [0, 1, 1, 0, -1]).collect();
    assert_eq!(
        decode_semantic_tokens(Some(&data), &l)
            .unwrap()
            .modifier_names,
        6_400_000
    );
}

#[test]
fn a_long_legend_repeated_by_every_bit_is_refused() {
    // 100,000 one-letter modifiers and 20 tokens with every bit: 2 million names.
    let l = Legend {
        token_types: vec![],
        token_modifiers: vec!["m".into(); 100_000],
    };
    let data: Vec<i64> = (0..20).flat_map(|_| [0, 1, 1, 0, -1]).collect();
    let e = decode_semantic_tokens(Some(&data), &l).unwrap_err();
    assert_eq!(
        e.code,
        Some(ErrorCode::Str(codes::SEMANTIC_TOKENS_TOO_LARGE.into()))
    );
    let limit = 20 * 32 + MODIFIER_NAME_ALLOWANCE;
    assert_eq!(
        e.message,
        format!(
            "the decoded semantic tokens would hold 2000000 modifier names, more than the {limit} \
             allowed for 20 tokens (32 per token plus 1048576): the legend has 100000 modifiers, \
             and modifier bit b names legend entries b, b + 32, b + 64, …"
        )
    );
    assert_eq!(
        e.details()[0],
        ("modifierNames", serde_json::json!(2_000_000))
    );
    // Ten tokens (1 million names) are within the allowance.
    let ok = decode_semantic_tokens(Some(&data[..50]), &l).unwrap();
    assert_eq!(ok.modifier_names, 1_000_000);
}

proptest! {
    #[test]
    fn modifier_indices_equal_the_js_filter(bits in any::<u32>(), count in 0usize..200) {
        // legend.tokenModifiers.filter((_, b) => (modBits & (1 << b)) !== 0)
        let expected: Vec<usize> = (0..count).filter(|b| bits & (1u32 << (b % 32)) != 0).collect();
        prop_assert_eq!(modifier_indices(bits, count).collect::<Vec<_>>(), expected.clone());
        prop_assert_eq!(modifier_name_count(bits, count), expected.len());
    }

    #[test]
    fn decode_is_bounded_by_its_input(data in proptest::collection::vec(any::<i64>(), 0..40), types in 0usize..4, mods in 0usize..80) {
        let l = Legend {
            token_types: (0..types).map(|i| format!("t{i}")).collect(),
            token_modifiers: (0..mods).map(|i| format!("m{i}")).collect(),
        };
        let decoded = decode_semantic_tokens(Some(&data), &l).unwrap();
        prop_assert_eq!(decoded.tokens.len(), data.len() / 5);
        let listed: usize = decoded.tokens.iter().map(|t| decoded.modifiers(t).count()).sum();
        prop_assert_eq!(listed, decoded.modifier_names);
        prop_assert!(decoded.modifier_names <= decoded.tokens.len() * mods);
    }
}
