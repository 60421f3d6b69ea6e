//! Secret redaction (decisions D6). Every password, bearer token, MCP token, reentrance
//! ticket and sensitive prompt answer the engine handles is registered here; log lines and
//! error messages pass through [`redact`] before they leave the engine, so a secret can
//! never reach a logger or a JS error even when it is embedded in a server's message.

use std::sync::{Mutex, OnceLock};

const MASK: &str = "***";
/// Very short strings would mask unrelated text; secrets shorter than this are not tracked.
const MIN_SECRET_LEN: usize = 3;

fn registry() -> &'static Mutex<Vec<String>> {
    static SECRETS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    SECRETS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Remember a secret so that it is masked wherever it appears later.
pub fn register(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    if let Ok(mut list) = registry().lock() {
        if !list.iter().any(|s| s == secret) {
            list.push(secret.to_string());
            // Longest first, so a secret that contains another is masked whole.
            list.sort_by_key(|s| std::cmp::Reverse(s.len()));
        }
    }
}

/// Mask every registered secret in `text`.
pub fn redact(text: &str) -> String {
    let Ok(list) = registry().lock() else {
        return text.to_string();
    };
    let mut out = text.to_string();
    for secret in list.iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), MASK);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_are_masked() {
        register("s3cr3t-password");
        assert_eq!(
            redact("login with s3cr3t-password failed"),
            "login with *** failed"
        );
        assert_eq!(redact("nothing here"), "nothing here");
    }

    #[test]
    fn tiny_strings_are_not_tracked() {
        register("ab");
        assert_eq!(redact("abcabc"), "abcabc");
    }
}
