//! rustls client configuration for connections to the SAP system: either with verification
//! off (the reference's `rejectUnauthorized: false`, used while `insecure` is set) or
//! verified against the Mozilla roots (webpki-root-certs) plus the caller's extra CAs; with
//! an optional client certificate for mutual TLS.
//!
//! Limitation (docs/wire.md#tls-proxy): rustls speaks only TLS 1.2/1.3 with ECDHE suites, so an SAP
//! ICM that offers nothing but RSA key exchange or TLS 1.0/1.1 cannot be reached.

use super::accept_any::AcceptAnyServerCert;
use super::crypto_provider;
use super::pem::{parse_certificates, parse_private_key};
use crate::kernel::error::{codes, Error, Result};
use rustls::{ClientConfig, RootCertStore};
use std::sync::Arc;

/// A client certificate and its key (PEM; the key PKCS#1, PKCS#8 or SEC1).
#[derive(Clone)]
pub(crate) struct ClientCertPem {
    pub cert_pem: Vec<u8>,
    /// Never logged.
    pub key_pem: Vec<u8>,
}

impl ClientCertPem {
    pub(crate) fn new(cert_pem: impl Into<Vec<u8>>, key_pem: impl Into<Vec<u8>>) -> Self {
        ClientCertPem {
            cert_pem: cert_pem.into(),
            key_pem: key_pem.into(),
        }
    }
}

impl std::fmt::Debug for ClientCertPem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCertPem")
            .field("cert_pem", &String::from_utf8_lossy(&self.cert_pem))
            .field("key_pem", &"<redacted>")
            .finish()
    }
}

/// Build the client configuration for the upstream hop.
///
/// * `insecure`: accept any server certificate (handshake signatures are still checked).
/// * otherwise: Mozilla roots plus every certificate in `extra_ca_pems`.
/// * `client_cert`: presented when the server asks for one.
pub(crate) fn upstream_client_config(
    insecure: bool,
    extra_ca_pems: &[Vec<u8>],
    client_cert: Option<&ClientCertPem>,
) -> Result<ClientConfig> {
    let provider = crypto_provider();
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(tls_config_error)?;
    let builder = if insecure {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AcceptAnyServerCert::new(provider)))
    } else {
        builder.with_root_certificates(root_store(extra_ca_pems)?)
    };
    let config = match client_cert {
        Some(cc) => {
            let chain = parse_certificates(&cc.cert_pem, "clientCert.cert")?;
            let key = parse_private_key(&cc.key_pem, "clientCert.key")?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| Error::coded(codes::INVALID_ARG, format!("clientCert: {e}")))?
        }
        None => builder.with_no_client_auth(),
    };
    Ok(config)
}

/// Mozilla's roots plus the extra CAs.
fn root_store(extra_ca_pems: &[Vec<u8>]) -> Result<RootCertStore> {
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(webpki_root_certs::TLS_SERVER_ROOT_CERTS.iter().cloned());
    for (index, pem) in extra_ca_pems.iter().enumerate() {
        for cert in parse_certificates(pem, &format!("extraCaCerts[{index}]"))? {
            roots.add(cert).map_err(|e| {
                Error::coded(
                    codes::INVALID_ARG,
                    format!("extraCaCerts[{index}]: unusable CA certificate ({e})"),
                )
            })?;
        }
    }
    Ok(roots)
}

fn tls_config_error(e: rustls::Error) -> Error {
    Error::new(format!("TLS configuration failed: {e}"))
}
