//! Where the headless reentrance flow may send credentials (docs/security.md, "Credentials
//! and origins"): only to the destination's own origin (the `systemUrl`, or the localhost TLS
//! proxy that fronts it), compared by host and effective port, and only over TLS unless the
//! matching allowed origin is itself `http://`. Anything else (a foreign host, another port,
//! `http://` for an `https://` system, another scheme) fails with `ERR_CREDENTIALS_ORIGIN`
//! before a request is made. An empty allow-list (a strategy registered by hand on a driver,
//! where no system URL is known) leaves the URL unchecked.

use crate::kernel::error::{codes, Error, Result};
use reqwest::Url;

/// Check `target` against `allowed`; see the module documentation.
pub(crate) fn check_credential_origin(target: &Url, allowed: &[Url]) -> Result<()> {
    if allowed.is_empty() {
        return Ok(());
    }
    let same_place = |a: &Url| {
        a.host_str().map(str::to_ascii_lowercase) == target.host_str().map(str::to_ascii_lowercase)
            && a.port_or_known_default() == target.port_or_known_default()
    };
    let permitted = match target.scheme() {
        "https" => allowed.iter().any(same_place),
        "http" => allowed
            .iter()
            .any(|a| a.scheme() == "http" && same_place(a)),
        _ => false,
    };
    if permitted {
        return Ok(());
    }
    let shown: Vec<String> = allowed.iter().map(origin_of).collect();
    Err(Error::coded(
        codes::CREDENTIALS_ORIGIN,
        format!(
            "reentrance: adt-ls named the logon URL {}, which is not the destination's origin \
             over TLS ({}); no credentials were sent",
            origin_of(target),
            shown.join(", ")
        ),
    ))
}

/// `scheme://host:port` (no path, query or userinfo: safe to show).
pub(crate) fn origin_of(url: &Url) -> String {
    let host = url.host_str().unwrap_or("");
    let host = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    match url.port_or_known_default() {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    /// The system and its local TLS proxy.
    fn allowed() -> [Url; 2] {
        [
            url("https://sap.example.com"),
            url("https://localhost:4711"),
        ]
    }

    #[test]
    fn the_system_and_its_proxy_are_allowed_over_tls() {
        let allowed = allowed();
        for ok in [
            "https://sap.example.com/sap/bc/adt/core/http/reentranceticket?x=1",
            "https://SAP.example.com:443/x",
            "https://localhost:4711/sap/bc/adt/core/http/reentranceticket",
        ] {
            assert!(check_credential_origin(&url(ok), &allowed).is_ok(), "{ok}");
        }
    }

    #[test]
    fn foreign_hosts_ports_plain_http_and_other_schemes_are_refused() {
        let allowed = allowed();
        for bad in [
            "https://evil.example.com/sap/bc/adt/core/http/reentranceticket",
            "https://sap.example.com:8443/x",
            "http://sap.example.com/x",
            "http://sap.example.com:443/x",
            "http://localhost:4711/x",
            "ftp://sap.example.com/x",
            "https://localhost:4712/x",
        ] {
            let e = check_credential_origin(&url(bad), &allowed).unwrap_err();
            assert!(e.has_code(codes::CREDENTIALS_ORIGIN), "{bad}");
            assert!(
                e.message.contains("no credentials were sent"),
                "{}",
                e.message
            );
        }
        let e = check_credential_origin(&url("https://evil.example.com/p?ticket=s3cret"), &allowed)
            .unwrap_err();
        assert!(
            e.message.contains("https://evil.example.com:443"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("s3cret"), "{}", e.message);
    }

    #[test]
    fn plain_http_only_when_the_system_itself_is_http() {
        let allowed = [url("http://sap.example.com:8000")];
        assert!(check_credential_origin(&url("http://sap.example.com:8000/x"), &allowed).is_ok());
        assert!(check_credential_origin(&url("https://sap.example.com:8000/x"), &allowed).is_ok());
        assert!(check_credential_origin(&url("http://sap.example.com/x"), &allowed).is_err());
    }

    #[test]
    fn without_known_origins_nothing_is_checked() {
        assert!(check_credential_origin(&url("http://anywhere.example/x"), &[]).is_ok());
    }
}
