//! Reading user-supplied certificate and key material: certificates as PEM (any number of
//! `BEGIN CERTIFICATE` blocks) or as one raw DER certificate, like keytool's `-file`
//! accepts; private keys as PEM in PKCS#1 (`RSA PRIVATE KEY`), PKCS#8 (`PRIVATE KEY`) or
//! SEC1 (`EC PRIVATE KEY`). Error messages never include key material.

use crate::kernel::error::{codes, Error, Result};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Every certificate in `data` (PEM blocks, or the whole input as one DER certificate when
/// it contains no PEM block). `what` names the input in error messages.
pub fn parse_certificates(data: &[u8], what: &str) -> Result<Vec<CertificateDer<'static>>> {
    let mut certs = Vec::new();
    for item in CertificateDer::pem_slice_iter(data) {
        let cert = item.map_err(|e| invalid(format!("{what}: invalid PEM certificate ({e})")))?;
        certs.push(cert);
    }
    if certs.is_empty() {
        if looks_like_der_sequence(data) {
            certs.push(CertificateDer::from(data.to_vec()));
        } else {
            return Err(invalid(format!("{what}: no certificate found")));
        }
    }
    Ok(certs)
}

/// The first private key in `pem` (PKCS#1, PKCS#8 or SEC1).
pub fn parse_private_key(pem: &[u8], what: &str) -> Result<PrivateKeyDer<'static>> {
    PrivateKeyDer::from_pem_slice(pem).map_err(|e| {
        let reason = match e {
            rustls::pki_types::pem::Error::NoItemsFound => "no private key found".to_string(),
            other => format!("invalid PEM private key ({other})"),
        };
        invalid(format!("{what}: {reason}"))
    })
}

/// A DER certificate starts with a SEQUENCE tag and a long-form length.
fn looks_like_der_sequence(data: &[u8]) -> bool {
    data.len() > 4 && data[0] == 0x30 && (data[1] & 0x80) != 0
}

fn invalid(message: String) -> Error {
    Error::coded(codes::INVALID_ARG, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pem_chains_and_der() {
        let a = crate::tls::cert::generate_localhost_cert().unwrap();
        let b = crate::tls::cert::generate_localhost_cert().unwrap();
        let both = format!("{}\n{}", a.cert_pem, b.cert_pem);
        let certs = parse_certificates(both.as_bytes(), "test").unwrap();
        assert_eq!(certs.len(), 2);
        let der = certs[0].as_ref().to_vec();
        assert_eq!(
            parse_certificates(&der, "test").unwrap()[0].as_ref(),
            &der[..]
        );
        let err = parse_certificates(b"hello", "ca.pem").unwrap_err();
        assert_eq!(err.message, "ca.pem: no certificate found");
    }

    #[test]
    fn reads_pkcs8_keys_and_reports_missing_ones_without_content() {
        let a = crate::tls::cert::generate_localhost_cert().unwrap();
        assert!(matches!(
            parse_private_key(a.key_pem.as_bytes(), "key").unwrap(),
            PrivateKeyDer::Pkcs8(_)
        ));
        let err = parse_private_key(a.cert_pem.as_bytes(), "clientCert.key").unwrap_err();
        assert_eq!(err.message, "clientCert.key: no private key found");
    }
}
