//! What a failed reentrance logon means for the user: the mechanism's text (`no redirect
//! Location (status 401) from <url>`, `invalid peer certificate: UnknownIssuer`, `dns error`,
//! `Connection refused`, `timed out after`, a ticket adt-ls did not take) turned into what happened and what to do, naming
//! the options that fix it (`connection.selfSigned`, `connection.extraCaCerts`,
//! `connection.systemUrl`). The URL shown has no userinfo and no query.

use reqwest::Url;

/// A diagnosis: the text replacing the mechanism and the URL it concerns.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Diagnosis {
    pub text: String,
    pub url: Option<String>,
}

/// The diagnosis of a reentrance failure's `mechanism` text, if it is a known one.
pub(crate) fn diagnose(mechanism: &str, status: Option<u16>) -> Option<Diagnosis> {
    let url = first_url(mechanism);
    let shown = url.as_ref().map(shown_url);
    let at = shown.as_deref().unwrap_or("the SAP system");
    let host = url
        .as_ref()
        .and_then(host_port)
        .unwrap_or_else(|| "the SAP system".to_string());
    let text = if let Some(at) = mechanism.find("ticket delivery to ") {
        // adt-ls's own redirect endpoint, not the SAP system: the ticket was not taken.
        let what = mechanism[at..].trim_end_matches('.');
        format!(
            "the logon ticket was not delivered to adt-ls: {what}. adt-ls may have stopped waiting for the logon or ended; see its log."
        )
    } else if let Some(why) = certificate_problem(mechanism) {
        format!(
            "the certificate of {host} was not trusted: {why} ({at}). {}",
            certificate_fix(why)
        )
    } else if let Some(s) = status.filter(|_| mechanism.contains("no redirect Location")) {
        match s {
            401 => format!(
                "wrong user or password, or an invalid or expired token: the SAP system refused the logon (HTTP 401 from {at}). Check the user and password given to basic(), or the token given to bearer()."
            ),
            403 => format!(
                "the user is not authorised: the SAP system refused access (HTTP 403 from {at}). Ask the SAP administrator for the user's ADT authorisations."
            ),
            502 => format!(
                "the SAP system could not be reached through the localhost TLS proxy (HTTP 502 from {at}). Check connection.systemUrl, connection.forwardProxy and the network; the proxy's warning in the log names the cause."
            ),
            other => format!(
                "the SAP system did not issue a logon ticket (HTTP {other} from {at}). Check that connection.systemUrl points at the ABAP system."
            ),
        }
    } else if is_dns_failure(mechanism) {
        format!(
            "the SAP system is unreachable: the host name of {host} could not be resolved (DNS) ({at}). Check connection.systemUrl and connection.forwardProxy."
        )
    } else if mechanism.contains("Connection refused") || mechanism.contains("connection refused") {
        format!(
            "the SAP system is unreachable: {host} refused the connection ({at}). Check the host and port in connection.systemUrl and that the system is running."
        )
    } else if let Some(after) = mechanism.split("timed out after ").nth(1) {
        let ms = after.split_whitespace().next().unwrap_or("the time limit");
        format!(
            "the logon timed out: the SAP system did not answer within {ms} ({at}). Check the network and connection.forwardProxy."
        )
    } else {
        return None;
    };
    Some(Diagnosis { text, url: shown })
}

/// A hint for a Java (adt-ls) trust failure (`PKIX path building failed`), else `None`.
pub(crate) fn java_trust_hint(message: &str) -> Option<&'static str> {
    message.contains("PKIX").then_some(
        "The SAP system's certificate is not trusted by adt-ls's Java runtime: set connection.selfSigned: true for a self-signed development system, or add the issuing CA's PEM file to connection.extraCaCerts.",
    )
}

/// Why rustls refused the certificate, in words, if the text is a certificate failure.
fn certificate_problem(mechanism: &str) -> Option<&'static str> {
    let lower = mechanism.to_lowercase();
    if !lower.contains("certificate") {
        return None;
    }
    Some(
        if lower.contains("unknownissuer") || lower.contains("unknown issuer") {
            "it is issued by an unknown certificate authority (self-signed or a private CA)"
        } else if lower.contains("expired") {
            "it has expired"
        } else if lower.contains("notvalidforname") || lower.contains("not valid for name") {
            "it is not valid for this host name"
        } else {
            "it failed verification"
        },
    )
}

fn certificate_fix(why: &str) -> &'static str {
    if why.contains("host name") {
        "Use the host name the certificate was issued for in connection.systemUrl, or connection.selfSigned: true for a development system."
    } else if why.contains("expired") {
        "Have the system's certificate renewed; for a development system connection.selfSigned: true accepts it."
    } else {
        "For a self-signed development system set connection.selfSigned: true; for a corporate or private CA add its PEM file to connection.extraCaCerts."
    }
}

fn is_dns_failure(mechanism: &str) -> bool {
    let lower = mechanism.to_lowercase();
    [
        "dns error",
        "failed to lookup address",
        "name or service not known",
        "no such host",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// The first `http(s)://` URL in a text.
fn first_url(text: &str) -> Option<Url> {
    let start = text.find("https://").or_else(|| text.find("http://"))?;
    let token: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ')' && *c != ',')
        .collect();
    Url::parse(token.trim_end_matches([':', '.'])).ok()
}

/// `scheme://host:port/path` without userinfo, query and fragment.
fn shown_url(url: &Url) -> String {
    let mut shown = url.clone();
    shown.set_query(None);
    shown.set_fragment(None);
    let _ = shown.set_password(None);
    let _ = shown.set_username("");
    shown.to_string()
}

fn host_port(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    Some(match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_say_what_happened_and_what_to_do() {
        let m = "reentrance: no redirect Location (status 403) from https://u:pw@sap:443/t?redirect-url=x";
        let d = diagnose(m, Some(403)).unwrap();
        assert!(
            d.text.starts_with("the user is not authorised"),
            "{}",
            d.text
        );
        assert!(d.text.contains("HTTP 403 from https://sap/t"), "{}", d.text);
        assert!(!d.text.contains("pw"));
        assert_eq!(d.url.as_deref(), Some("https://sap/t"));
        for (status, says) in [
            (502, "through the localhost TLS proxy (HTTP 502"),
            (500, "did not issue a logon ticket (HTTP 500"),
        ] {
            let d = diagnose(&m.replace("403", &status.to_string()), Some(status)).unwrap();
            assert!(d.text.contains(says), "{}", d.text);
        }
    }

    #[test]
    fn certificates_say_which_and_why_and_point_at_the_options() {
        let base = "reentrance: GET https://127.0.0.1:4430/sap/bc?x=1 failed: error sending request: client error (Connect): invalid peer certificate: ";
        for (what, why, option) in [
            (
                "UnknownIssuer",
                "unknown certificate authority",
                "connection.extraCaCerts",
            ),
            ("Expired", "has expired", "connection.selfSigned"),
            (
                "NotValidForName",
                "not valid for this host name",
                "connection.systemUrl",
            ),
        ] {
            let d = diagnose(&format!("{base}{what}"), None).unwrap();
            assert!(
                d.text
                    .starts_with("the certificate of 127.0.0.1:4430 was not trusted: "),
                "{}",
                d.text
            );
            assert!(d.text.contains(why), "{}", d.text);
            assert!(d.text.contains(option), "{}", d.text);
        }
    }

    #[test]
    fn unreachable_systems_and_timeouts() {
        let dns = "reentrance: GET https://nope.invalid/x failed: error sending request: client error (Connect): dns error: failed to lookup address information";
        let refused = "reentrance: GET https://127.0.0.1:1/x failed: client error (Connect): tcp connect error: Connection refused (os error 111)";
        let slow = "reentrance: GET https://h/x timed out after 30000ms";
        for (message, says) in [
            (dns, "could not be resolved (DNS)"),
            (refused, "127.0.0.1:1 refused the connection"),
            (slow, "did not answer within 30000ms"),
        ] {
            let d = diagnose(message, None).unwrap();
            assert!(d.text.contains(says), "{}", d.text);
        }
        assert_eq!(diagnose("something else", None), None);
        let delivery = "reentrance: ticket delivery to http://127.0.0.1:5/adt/redirect failed: Connection refused";
        let d = diagnose(delivery, None).unwrap();
        assert!(
            d.text.starts_with("the logon ticket was not delivered to adt-ls: ticket delivery to http://127.0.0.1:5/adt/redirect failed"),
            "{}",
            d.text
        );
    }
}
