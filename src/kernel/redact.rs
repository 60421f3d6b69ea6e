//! Secret redaction (docs/decisions.md#d6). Every password, bearer token, MCP token, reentrance
//! ticket and sensitive prompt answer the engine handles is registered here; log lines and
//! error messages pass through [`redact`] before they leave the engine, so a secret can
//! never reach a logger or a JS error even when it is embedded in a server's message.
//! Credentials embedded in a URL (`scheme://user:password@host`) are masked too, registered
//! or not (`connection.systemUrl` refuses them, but a relayed adt-ls line may still carry one).

use regex::Regex;
use std::ops::Deref;
use std::sync::{Mutex, OnceLock};

const MASK: &str = "***";
/// Very short strings would mask unrelated text; secrets shorter than this are not tracked.
const MIN_SECRET_LEN: usize = 3;

/// A secret held in a struct (a private key, a keystore password): its `Debug` is
/// `<redacted>`, so the struct can derive `Debug` and never print it; the value reads through
/// `Deref`.
#[derive(Clone)]
pub(crate) struct Hidden<T>(pub T);

impl<T> std::fmt::Debug for Hidden<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

impl<T> From<T> for Hidden<T> {
    fn from(value: T) -> Self {
        Hidden(value)
    }
}

impl<T> Deref for Hidden<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

fn registry() -> &'static Mutex<Vec<String>> {
    static SECRETS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    SECRETS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Remember a secret so that it is masked wherever it appears later.
pub(crate) fn register(secret: &str) {
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

/// `scheme://<userinfo>@`: the userinfo cannot hold `/`, `?`, `#`, `@` or whitespace.
fn url_userinfo() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#@\s]+@").ok())
        .as_ref()
}

/// Mask every registered secret and every URL userinfo in `text`.
pub(crate) fn redact(text: &str) -> String {
    let mut out = match url_userinfo() {
        Some(re) if text.contains("://") => re.replace_all(text, "${1}***@").into_owned(),
        _ => text.to_string(),
    };
    let Ok(list) = registry().lock() else {
        return out;
    };
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
    fn a_hidden_secret_never_shows_in_debug() {
        #[derive(Debug)]
        struct Key {
            name: &'static str,
            pem: Hidden<String>,
        }
        let key = Key {
            name: "proxy",
            pem: Hidden("-----BEGIN PRIVATE KEY----- s3cr3t".to_string()),
        };
        let shown = format!("{key:?}");
        assert_eq!(shown, r#"Key { name: "proxy", pem: <redacted> }"#);
        assert!(
            key.pem.contains("s3cr3t"),
            "the value still reads through Deref"
        );
    }

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
    fn url_userinfo_is_masked_without_registration() {
        assert_eq!(
            redact("connecting to https://DEVELOPER:Unregistered-pw1@sap.example.com:443/sap"),
            "connecting to https://***@sap.example.com:443/sap"
        );
        assert_eq!(
            redact("ftp://tok-abc@h and http://h/p?x=a@b"),
            "ftp://***@h and http://h/p?x=a@b"
        );
        assert_eq!(redact("mail me@example.com"), "mail me@example.com");
    }

    #[test]
    fn tiny_strings_are_not_tracked() {
        register("ab");
        assert_eq!(redact("abcabc"), "abcabc");
    }
}
