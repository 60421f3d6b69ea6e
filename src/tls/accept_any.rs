//! The verifier that accepts every server certificate, like Node's
//! `rejectUnauthorized: false`: the upstream hop while `insecure` is set, and the doctor's
//! handshake probe, which also wants the chain the server presented. The handshake
//! signature is still verified against the presented certificate's key.

use rustls::client::danger::{ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use std::sync::{Arc, Mutex};

/// Accepts every server certificate; a recording one remembers the last chain it was shown.
#[derive(Debug)]
pub(crate) struct AcceptAnyServerCert {
    provider: Arc<CryptoProvider>,
    /// The presented chain, leaf first, when recording.
    seen: Option<Mutex<Vec<CertificateDer<'static>>>>,
}

impl AcceptAnyServerCert {
    /// A verifier that only accepts.
    pub(crate) fn new(provider: Arc<CryptoProvider>) -> Self {
        AcceptAnyServerCert {
            provider,
            seen: None,
        }
    }

    /// A verifier that accepts and remembers the chain (read it with [`Self::seen_chain`]).
    pub(crate) fn recording(provider: Arc<CryptoProvider>) -> Self {
        AcceptAnyServerCert {
            provider,
            seen: Some(Mutex::new(Vec::new())),
        }
    }

    /// The chain last presented, leaf first (empty when not recording or never shown one).
    pub(crate) fn seen_chain(&self) -> Vec<CertificateDer<'static>> {
        self.seen
            .as_ref()
            .and_then(|seen| seen.lock().ok().map(|c| c.clone()))
            .unwrap_or_default()
    }
}

impl ServerCertVerifier for AcceptAnyServerCert {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Some(Ok(mut chain)) = self.seen.as_ref().map(Mutex::lock) {
            *chain = std::iter::once(end_entity)
                .chain(intermediates)
                .map(|c| c.clone().into_owned())
                .collect();
        }
        Ok(ServerCertVerified::assertion())
    }

    crate::tls::signature_checks::provider_signature_checks!();
}
