//! Certificates for the `--url` probe: a readable summary of each presented certificate
//! (subject, issuer, validity, SANs) and the two questions adt-ls's JVM answers — does the
//! chain end at a certificate in its truststore, and is the leaf valid for the host name.
//! Pure functions over DER, so they are unit-tested without a network.

use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::RootCertStore;
use serde_json::{json, Value};
use x509_parser::extensions::GeneralName;

/// Subject, issuer, validity (ISO 8601, UTC) and SANs of one certificate.
pub(crate) fn summarize(der: &[u8]) -> Value {
    let Ok((_, cert)) = x509_parser::parse_x509_certificate(der) else {
        return json!({ "error": "unparsable certificate" });
    };
    let validity = cert.validity();
    let sans: Vec<String> = match cert.subject_alternative_name() {
        Ok(Some(ext)) => ext.value.general_names.iter().map(general_name).collect(),
        _ => Vec::new(),
    };
    json!({
        "subject": cert.subject().to_string(),
        "issuer": cert.issuer().to_string(),
        "notBefore": iso_utc(validity.not_before.timestamp()),
        "notAfter": iso_utc(validity.not_after.timestamp()),
        "subjectAltNames": sans,
        // Issued by itself: same name and signed by its own key.
        "selfSigned": cert.subject() == cert.issuer() && cert.verify_signature(None).is_ok(),
    })
}

fn general_name(name: &GeneralName<'_>) -> String {
    match name {
        GeneralName::DNSName(d) => format!("DNS:{d}"),
        GeneralName::IPAddress(bytes) => match bytes.len() {
            4 => format!(
                "IP:{}",
                std::net::Ipv4Addr::new(bytes[0], bytes[1], bytes[2], bytes[3])
            ),
            16 => {
                let mut octets = [0u8; 16];
                octets.copy_from_slice(bytes);
                format!("IP:{}", std::net::Ipv6Addr::from(octets))
            }
            _ => "IP:?".to_string(),
        },
        other => other.to_string(),
    }
}

/// Does the presented chain end at one of `anchors` (DER)? Like the JVM, a leaf that is
/// itself in the truststore is trusted as is. `Err` says why not.
pub(crate) fn check_trust(
    chain: &[CertificateDer<'static>],
    anchors: &[Vec<u8>],
    now: UnixTime,
) -> Result<(), String> {
    let leaf = chain.first().ok_or("the server presented no certificate")?;
    if anchors.iter().any(|a| a.as_slice() == leaf.as_ref()) {
        return Ok(());
    }
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(anchors.iter().map(|a| CertificateDer::from(a.clone())));
    let parsed = ParsedCertificate::try_from(leaf).map_err(|e| e.to_string())?;
    let provider = crate::tls::crypto_provider();
    verify_server_cert_signed_by_trust_anchor(
        &parsed,
        &roots,
        &chain[1..],
        now,
        provider.signature_verification_algorithms.all,
    )
    .map_err(|e| e.to_string())
}

/// Is the leaf valid for `host` (a DNS name or an IP address)? `Err` says why not.
pub(crate) fn check_host_name(leaf: &CertificateDer<'static>, host: &str) -> Result<(), String> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let name = ServerName::try_from(host.to_string()).map_err(|e| e.to_string())?;
    let parsed = ParsedCertificate::try_from(leaf).map_err(|e| e.to_string())?;
    verify_server_name(&parsed, &name).map_err(|e| e.to_string())
}

/// `YYYY-MM-DDTHH:MM:SSZ` for seconds since the epoch (proleptic Gregorian calendar).
pub(crate) fn iso_utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair, SanType};

    struct Issued {
        ca: Vec<u8>,
        leaf: CertificateDer<'static>,
    }

    fn issue(sans: Vec<SanType>) -> Issued {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let leaf_key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.subject_alt_names = sans;
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let leaf = params.signed_by(&leaf_key, &issuer).unwrap();
        Issued {
            ca: ca.der().to_vec(),
            leaf: leaf.der().clone(),
        }
    }

    #[test]
    fn trusted_only_through_a_known_anchor_and_pinned_leaves() {
        let issued = issue(vec![SanType::DnsName("sap.example".try_into().unwrap())]);
        let now = UnixTime::now();
        let chain = vec![issued.leaf.clone()];
        assert!(check_trust(&chain, std::slice::from_ref(&issued.ca), now).is_ok());
        let err = check_trust(&chain, &[], now).unwrap_err();
        assert!(err.contains("UnknownIssuer"), "{err}");
        assert!(check_trust(&chain, &[issued.leaf.to_vec()], now).is_ok());
        assert!(check_trust(&[], &[], now).is_err());
    }

    #[test]
    fn host_names_match_dns_and_ip_sans() {
        let issued = issue(vec![
            SanType::DnsName("sap.example".try_into().unwrap()),
            SanType::IpAddress("127.0.0.1".parse().unwrap()),
        ]);
        assert!(check_host_name(&issued.leaf, "sap.example").is_ok());
        assert!(check_host_name(&issued.leaf, "127.0.0.1").is_ok());
        let err = check_host_name(&issued.leaf, "other.example").unwrap_err();
        assert!(
            err.contains("not valid for name \"other.example\""),
            "{err}"
        );
        let summary = summarize(&issued.leaf);
        assert_eq!(
            summary["subjectAltNames"],
            json!(["DNS:sap.example", "IP:127.0.0.1"])
        );
        assert_eq!(summary["selfSigned"], false);
        assert_eq!(summarize(&issued.ca)["selfSigned"], true);
        assert_eq!(summarize(b"junk")["error"], "unparsable certificate");
    }

    #[test]
    fn iso_dates() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_utc(1_798_761_599), "2026-12-31T23:59:59Z");
        assert_eq!(iso_utc(-1), "1969-12-31T23:59:59Z");
    }
}
