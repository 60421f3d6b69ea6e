//! Decoding LSP semantic tokens (`src/text/semantic.rs`, behind `decodeSemanticTokens` and
//! `navigation.semanticTokens`). The input is a legend size (one byte of type count, two
//! bytes little-endian of modifier count) and then the token data, one number per byte (a
//! small signed number; `0xFF` is -1, every modifier bit; `0xFE` takes the next 8 bytes as an
//! `i64`). Invariants: no panic; one token per complete 5-tuple; the modifier names the
//! tokens hold are exactly the legend entries JS's `modBits & (1 << b)` selects, counted
//! without listing them, and never more than 32 per token plus the allowance (past it,
//! decoding fails with `ERR_SEMANTIC_TOKENS_TOO_LARGE`); the decoded tokens take heap in
//! proportion to the data, whatever the legend's size.
#![no_main]

use adt_ls_native::fuzzing::codes;
use adt_ls_native::fuzzing::text::{
    decode_semantic_tokens, modifier_indices, Legend, TokenType, MODIFIER_NAME_ALLOWANCE,
};
use adt_ls_native_fuzz::{heap_budget, peak_heap};
use libfuzzer_sys::fuzz_target;

fn parse(data: &[u8]) -> Option<(Legend, Vec<i64>)> {
    let (&types, rest) = data.split_first()?;
    let (count, mut rest) = rest.split_at_checked(2)?;
    let modifiers = usize::from(u16::from_le_bytes([count[0], count[1]]));
    let legend = Legend {
        token_types: (0..types).map(|i| format!("t{i}")).collect(),
        // Decoding reads only the legend's lengths; empty names allocate nothing, so a legend
        // of 65,535 modifiers stays cheap per input.
        token_modifiers: vec![String::new(); modifiers],
    };
    let mut numbers = Vec::new();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        numbers.push(match b {
            0xFF => -1,
            0xFE => match rest.split_at_checked(8) {
                Some((bytes, tail)) => {
                    rest = tail;
                    i64::from_le_bytes(bytes.try_into().unwrap_or_default())
                }
                None => 0,
            },
            b => i64::from(b as i8),
        });
    }
    Some((legend, numbers))
}

fuzz_target!(|data: &[u8]| {
    let Some((legend, numbers)) = parse(data) else {
        return;
    };
    let (decoded, peak) = peak_heap(|| decode_semantic_tokens(Some(&numbers), &legend));
    let data_bytes = numbers.len() * std::mem::size_of::<i64>();
    assert!(
        peak <= heap_budget(data_bytes),
        "decoding used {peak} heap bytes"
    );
    let tokens = numbers.len() / 5;
    let limit = tokens * 32 + MODIFIER_NAME_ALLOWANCE;
    let count = legend.token_modifiers.len();
    match decoded {
        Ok(decoded) => {
            assert_eq!(decoded.tokens.len(), tokens);
            assert!(decoded.modifier_names <= limit);
            let mut listed = 0;
            for (t, tuple) in decoded.tokens.iter().zip(numbers.chunks_exact(5)) {
                assert_eq!(t.modifier_bits, tuple[4] as u32);
                let indices: Vec<usize> = decoded.modifiers(t).collect();
                if count <= 256 {
                    let js: Vec<usize> = (0..count)
                        .filter(|b| t.modifier_bits & (1u32 << (b % 32)) != 0)
                        .collect();
                    assert_eq!(indices, js);
                }
                assert!(indices.windows(2).all(|w| w[0] < w[1]));
                assert!(indices.last().is_none_or(|i| *i < count));
                listed += indices.len();
                match t.token_type {
                    TokenType::Legend(i) => assert!(i < legend.token_types.len()),
                    TokenType::Unknown(n) => {
                        assert!(usize::try_from(n).map_or(true, |i| i >= legend.token_types.len()))
                    }
                }
            }
            assert_eq!(listed, decoded.modifier_names);
        }
        Err(e) => {
            assert!(e.has_code(codes::SEMANTIC_TOKENS_TOO_LARGE), "{e:?}");
            // Listed one by one, stopping once past the limit (at most one legend more).
            let mut names = 0usize;
            for t in numbers.chunks_exact(5) {
                names += modifier_indices(t[4] as u32, count).count();
                if names > limit {
                    break;
                }
            }
            assert!(
                names > limit,
                "{names} names refused under the limit {limit}"
            );
        }
    }
});
