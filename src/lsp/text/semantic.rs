//! Decoding LSP semantic tokens (`textDocument/semanticTokens/full`'s `data`, delta-encoded
//! 5-tuples `[Δline, Δchar, length, typeIdx, modBits]`) into absolute tokens whose type and
//! modifiers refer to the legend by index. The names are not copied per token: whoever
//! materialises the tokens makes one value per legend name and shares it (the N-API layer
//! makes one JS string each), so the result grows with the token data, not with tokens ×
//! name length.
//!
//! A token with modifier bit `b` names every legend modifier `b`, `b + 32`, `b + 64`, …
//! (JS `modBits & (1 << b)` tests bit `b % 32`), so a legend longer than 32 modifiers could
//! make each token name all of them. The decoded tokens may therefore name at most 32
//! modifiers per token plus [`MODIFIER_NAME_ALLOWANCE`] in total; beyond that decoding
//! fails with `ERR_SEMANTIC_TOKENS_TOO_LARGE`. No legend of at most 32 modifiers (every
//! legend LSP can express) ever reaches the cap.

use super::Legend;
use crate::kernel::error::{codes, Error};

/// How many modifier names all decoded tokens together may hold beyond 32 per token.
pub const MODIFIER_NAME_ALLOWANCE: usize = 1 << 20;

/// Modifier names per token that never count against the allowance.
const NAMES_PER_TOKEN: usize = 32;

/// A token's type: an index into `legend.tokenTypes`, or the raw index when it is outside
/// the legend (it is shown as its decimal value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenType {
    Legend(usize),
    Unknown(i64),
}

/// One decoded token: absolute 0-based position, its type, and the low 32 bits of its
/// modifier set (resolve with [`DecodedTokens::modifiers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenIndices {
    pub line: i64,
    pub character: i64,
    pub length: i64,
    pub token_type: TokenType,
    pub modifier_bits: u32,
}

/// The decoded tokens of one `data` array and what resolving them needs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DecodedTokens {
    pub tokens: Vec<TokenIndices>,
    /// The legend's number of modifiers.
    pub modifier_count: usize,
    /// How many modifier names the tokens hold in total.
    pub modifier_names: usize,
}

impl DecodedTokens {
    /// The legend indices of `token`'s modifiers, in legend order.
    pub fn modifiers(&self, token: &TokenIndices) -> ModifierIndices {
        modifier_indices(token.modifier_bits, self.modifier_count)
    }

    /// Every modifier bit that some token has (the legend names worth materialising).
    pub fn used_modifier_bits(&self) -> u32 {
        self.tokens.iter().fold(0, |all, t| all | t.modifier_bits)
    }
}

/// Decodes `data` against `legend`. `None` gives no tokens; a trailing incomplete tuple is
/// ignored. `Δline > 0` moves to a new line and sets the character; otherwise (also for a
/// negative `Δline`) the character advances. `modBits` counts by its low 32 bits, as JS
/// `ToInt32` does. Fails with `ERR_SEMANTIC_TOKENS_TOO_LARGE` past the cap in the module
/// comment.
pub fn decode_semantic_tokens(
    data: Option<&[i64]>,
    legend: &Legend,
) -> Result<DecodedTokens, Error> {
    let data = data.unwrap_or_default();
    let modifier_count = legend.token_modifiers.len();
    let type_count = legend.token_types.len();
    let mut line: i64 = 0;
    let mut character: i64 = 0;
    let mut modifier_names: usize = 0;
    let mut tokens = Vec::with_capacity(data.len() / 5);
    for tuple in data.chunks_exact(5) {
        let (d_line, d_char, length, type_idx, mod_bits) =
            (tuple[0], tuple[1], tuple[2], tuple[3], tuple[4]);
        if d_line > 0 {
            line = line.saturating_add(d_line);
            character = d_char;
        } else {
            character = character.saturating_add(d_char);
        }
        let token_type = match usize::try_from(type_idx) {
            Ok(i) if i < type_count => TokenType::Legend(i),
            _ => TokenType::Unknown(type_idx),
        };
        let modifier_bits = mod_bits as u32;
        modifier_names =
            modifier_names.saturating_add(modifier_name_count(modifier_bits, modifier_count));
        tokens.push(TokenIndices {
            line,
            character,
            length,
            token_type,
            modifier_bits,
        });
    }
    check_cap(tokens.len(), modifier_names, modifier_count)?;
    Ok(DecodedTokens {
        tokens,
        modifier_count,
        modifier_names,
    })
}

/// The cap of the module comment.
fn check_cap(tokens: usize, names: usize, modifier_count: usize) -> Result<(), Error> {
    let limit = tokens
        .saturating_mul(NAMES_PER_TOKEN)
        .saturating_add(MODIFIER_NAME_ALLOWANCE);
    if names <= limit {
        return Ok(());
    }
    let message = format!(
        "the decoded semantic tokens would hold {names} modifier names, more than the {limit} \
         allowed for {tokens} tokens ({NAMES_PER_TOKEN} per token plus \
         {MODIFIER_NAME_ALLOWANCE}): the legend has {modifier_count} modifiers, and modifier \
         bit b names legend entries b, b + 32, b + 64, …"
    );
    Err(Error::coded(codes::SEMANTIC_TOKENS_TOO_LARGE, message)
        .with_detail("modifierNames", names)
        .with_detail("limit", limit))
}

/// How many legend modifiers (of `modifier_count`) the bits name, in O(1).
pub fn modifier_name_count(bits: u32, modifier_count: usize) -> usize {
    let full_blocks = modifier_count / 32;
    let rest_mask = ((1u64 << (modifier_count % 32)) - 1) as u32;
    full_blocks * bits.count_ones() as usize + (bits & rest_mask).count_ones() as usize
}

/// The legend indices (of `modifier_count`) the bits name, ascending. Each step costs O(1),
/// so listing them costs what the list holds, whatever the legend's length.
pub fn modifier_indices(bits: u32, modifier_count: usize) -> ModifierIndices {
    ModifierIndices {
        bits,
        count: modifier_count,
        base: 0,
        left: bits,
    }
}

/// Iterator of [`modifier_indices`]: the set bits of one 32-entry block of the legend at a
/// time.
#[derive(Debug, Clone)]
pub struct ModifierIndices {
    bits: u32,
    count: usize,
    base: usize,
    left: u32,
}

impl Iterator for ModifierIndices {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            self.base = self.base.checked_add(32)?;
            if self.bits == 0 || self.base >= self.count {
                return None;
            }
            self.left = self.bits;
        }
        let index = self.base + self.left.trailing_zeros() as usize;
        self.left &= self.left - 1;
        if index < self.count {
            Some(index)
        } else {
            // The higher bits of this last block lie past the legend too.
            self.left = 0;
            self.bits = 0;
            None
        }
    }
}
