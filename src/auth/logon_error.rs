//! Stable codes for logon failures. The messages stay byte-for-byte as they are (0.5.0 code
//! may match on their prefixes); this only gives each failure a `code` and, where the text
//! names one, the HTTP status as the `httpStatus` detail. Classification reads the engine's
//! own message words (`(status 401)`, rustls' `invalid peer certificate`), which this crate
//! writes itself, so no error-chain downcasting across reqwest/rustls versions is needed.

use crate::error::{codes, Error};

/// Give a failed logon its code: TLS trust (`ERR_TLS_CERT_UNTRUSTED`), other TLS (`ERR_TLS`),
/// refused by the system (`ERR_LOGON_FAILED`, with `httpStatus`), anything else
/// (`ERR_LOGON_ERROR`). An existing code (for example `ETIMEDOUT`) is kept.
pub fn classify(e: Error) -> Error {
    classify_or(e, codes::LOGON_ERROR)
}

/// As [`classify`], with `fallback` for a failure that is neither TLS nor an HTTP refusal.
pub fn classify_or(e: Error, fallback: &str) -> Error {
    let status = http_status(&e.message);
    let code = if is_untrusted_cert(&e.message) {
        codes::TLS_CERT
    } else if e.message.contains("tls handshake") || e.message.contains("TLS") {
        codes::TLS
    } else if status.is_some_and(|s| (400..500).contains(&s)) {
        codes::LOGON_FAILED
    } else {
        fallback
    };
    let e = e.or_code(code);
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

    #[test]
    fn wrong_password_is_a_refused_logon_with_its_status() {
        let e = classify(Error::new(
            "reentrance logon failed: reentrance: no redirect Location (status 401) from https://h/x",
        ));
        assert!(e.has_code(codes::LOGON_FAILED));
        assert_eq!(e.details(), vec![("httpStatus", json!(401))]);
        assert!(e.message.starts_with("reentrance logon failed: "));
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
