//! The proxy's client-certificate check (docs/decisions.md#d6): a rustls verifier that requires a
//! client certificate and accepts exactly one, the run's pinned `proxy_client` certificate
//! (byte-for-byte), with the handshake signature verified against it. rustls' webpki
//! verifier cannot be used: it does not accept a self-signed end-entity certificate as its
//! own trust anchor. The certificate's subject is sent as the only acceptable-CA hint, so a
//! JVM key manager that filters by issuer picks it.

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{CertificateError, DistinguishedName};
use std::sync::Arc;

#[derive(Debug)]
pub(super) struct PinnedClientCert {
    pinned: CertificateDer<'static>,
    hints: Vec<DistinguishedName>,
    provider: Arc<CryptoProvider>,
}

impl PinnedClientCert {
    pub(super) fn new(pinned: CertificateDer<'static>, provider: Arc<CryptoProvider>) -> Self {
        let mut roots = rustls::RootCertStore::empty();
        // A certificate webpki cannot parse as an anchor just gets no hint.
        let _ = roots.add(pinned.clone());
        PinnedClientCert {
            pinned,
            hints: roots.subjects(),
            provider,
        }
    }
}

impl ClientCertVerifier for PinnedClientCert {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &self.hints
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        if end_entity.as_ref() == self.pinned.as_ref() {
            Ok(ClientCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    crate::tls::signature_checks::provider_signature_checks!();
}
