//! Random identifiers: 6 random bytes as 12 lowercase hex characters for pipe names and data
//! dirs, and longer hex tokens (the MCP token has at least 192 random bits, docs/decisions.md#d6).

use crate::kernel::error::{Error, Result};

/// `n` random bytes as lowercase hex.
pub(crate) fn random_hex(bytes: usize) -> Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| Error::new(format!("no randomness available: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// The 12-hex id used in pipe and data-dir names.
pub(crate) fn short_id() -> Result<String> {
    random_hex(6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lowercase_hex_of_the_right_length() {
        let id = short_id().unwrap();
        assert_eq!(id.len(), 12);
        assert!(id
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(short_id().unwrap(), id);
        assert_eq!(random_hex(24).unwrap().len(), 48);
    }
}
