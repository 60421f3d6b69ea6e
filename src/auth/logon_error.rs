//! Stable codes and diagnoses for logon failures. Each failure gets a `code`, the HTTP status
//! as the `httpStatus` detail and the URL (no userinfo, no query) as `url` where the text
//! names them; a failure of our own reentrance flow (message prefix `reentrance logon failed:
//! ` / `bearer reentrance logon failed: `, kept for code that matches on it) is reworded from
//! the mechanism (`no redirect Location (status 401)`, `invalid peer certificate:
//! UnknownIssuer`) into what happened and what to do ([`super::logon_diagnosis`]); the
//! mechanism is logged at debug. Classification reads the engine's own message words, which
//! this crate writes itself, so no error-chain downcasting across reqwest/rustls versions is
//! needed.

use super::logon_diagnosis::{diagnose, java_trust_hint};
use crate::kernel::error::{codes, Error};

/// Prefixes of the reentrance flow's failures (kept in the diagnosed message).
const REENTRANCE_PREFIXES: &[&str] = &[
    "bearer reentrance logon failed: ",
    "reentrance logon failed: ",
];

/// Give a failed logon its code: TLS trust (`ERR_TLS_CERT_UNTRUSTED`), other TLS (`ERR_TLS`),
/// refused by the system (`ERR_LOGON_FAILED`, with `httpStatus`), anything else
/// (`ERR_LOGON_ERROR`). An existing code (for example `ETIMEDOUT`) is kept.
pub(crate) fn classify(e: Error) -> Error {
    classify_or(e, codes::LOGON_ERROR)
}

/// As [`classify`], with `fallback` for a failure that is neither TLS nor an HTTP refusal.
pub(crate) fn classify_or(e: Error, fallback: &str) -> Error {
    let status = http_status(&e.message);
    let code = if is_untrusted_cert(&e.message) {
        codes::TLS_CERT
    } else if e.message.contains("tls handshake") || has_word(&e.message, "TLS") {
        codes::TLS
    } else if status.is_some_and(|s| (400..500).contains(&s)) {
        codes::LOGON_FAILED
    } else {
        fallback
    };
    let mut e = e.or_code(code);
    if let Some(prefix) = REENTRANCE_PREFIXES
        .iter()
        .find(|p| e.message.starts_with(**p))
    {
        if let Some(d) = diagnose(&e.message[prefix.len()..], status) {
            crate::kernel::log::debug(format!("logon failure mechanism: {}", e.message));
            e.message = format!("{prefix}{}", d.text);
            if let Some(url) = d.url {
                e = e.with_detail("url", url);
            }
        }
    } else if let Some(hint) = java_trust_hint(&e.message) {
        e.message = format!("{} {hint}", e.message);
    }
    match status {
        Some(s) => e.with_detail("httpStatus", s),
        None => e,
    }
}

fn is_untrusted_cert(message: &str) -> bool {
    [
        "invalid peer certificate",
        "UnknownIssuer",
        "NotValidForName",
        "certificate",
        "PKIX",
    ]
    .iter()
    .any(|w| message.contains(w))
}

/// `word` stands alone in `message` (not inside another word: the destination `ADTLS` is no
/// TLS failure).
fn has_word(message: &str, word: &str) -> bool {
    message.match_indices(word).any(|(at, _)| {
        let before = message[..at].chars().next_back();
        let after = message[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The number in the first `status NNN` of a message.
fn http_status(message: &str) -> Option<u16> {
    let at = message.find("status ")? + "status ".len();
    let digits: String = message[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok().filter(|s| (100..600).contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The message of `e` starts with `start` and says `part` somewhere.
    fn assert_message(e: &Error, start: &str, part: &str) {
        assert!(e.message.starts_with(start), "{}", e.message);
        assert!(e.message.contains(part), "{}", e.message);
    }

    #[test]
    fn the_destination_adtls_is_no_tls_failure() {
        let e = Error::new(
            "Logon to ADTLS did not reach 'connected' (disconnected: No reentrance ticket received within 1500 ms).",
        );
        assert!(classify_or(e, codes::LOGON_FAILED).has_code(codes::LOGON_FAILED));
        let e =
            Error::new("Logon to ADTLS did not reach 'connected' (TLS alert: handshake failure).");
        assert!(classify(e).has_code(codes::TLS));
    }

    #[test]
    fn wrong_password_is_a_refused_logon_with_its_status_and_url() {
        let e = classify(Error::new(
            "reentrance logon failed: reentrance: no redirect Location (status 401) from https://h/x?redirect-url=y",
        ));
        assert!(e.has_code(codes::LOGON_FAILED));
        assert_eq!(
            e.details(),
            vec![("url", json!("https://h/x")), ("httpStatus", json!(401))]
        );
        assert_message(
            &e,
            "reentrance logon failed: wrong user or password",
            "HTTP 401 from https://h/x",
        );
    }

    #[test]
    fn java_trust_failures_get_a_hint_and_keep_the_reference_text() {
        let text = "Logon to ADTLS did not reach 'connected' (disconnected: PKIX path building failed: x).";
        let e = classify_or(Error::new(text), codes::LOGON_FAILED);
        assert!(e.has_code(codes::TLS_CERT));
        assert_message(&e, text, "connection.extraCaCerts");
    }

    #[test]
    fn untrusted_certificate_is_a_tls_code() {
        let e = classify(Error::new(
            "reentrance logon failed: x failed: invalid peer certificate: UnknownIssuer",
        ));
        assert!(e.has_code(codes::TLS_CERT));
    }

    #[test]
    fn existing_codes_are_kept_and_the_rest_is_a_logon_error() {
        let e = classify(Error::coded(codes::TIMEOUT, "x timed out after 5ms"));
        assert!(e.has_code(codes::TIMEOUT));
        let e = classify(Error::new("reentrance logon failed: connection refused"));
        assert!(e.has_code(codes::LOGON_ERROR));
        assert!(e.details().is_empty());
    }
}
