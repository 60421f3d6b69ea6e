//! The three signature checks every rustls certificate verifier of ours has in common (the
//! upstream verifier, the proxy's client-certificate verifier, the doctor's probe): they
//! delegate to the crypto provider's algorithms. One macro, expanded inside each
//! `ServerCertVerifier` / `ClientCertVerifier` impl whose type has a `provider:
//! Arc<CryptoProvider>` field, so the delegation is written once.

/// `verify_tls12_signature`, `verify_tls13_signature` and `supported_verify_schemes` through
/// `self.provider`.
macro_rules! provider_signature_checks {
    () => {
        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &rustls::pki_types::CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> std::result::Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls12_signature(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }

        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &rustls::pki_types::CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> std::result::Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls13_signature(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }

        fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
            self.provider
                .signature_verification_algorithms
                .supported_schemes()
        }
    };
}

pub(crate) use provider_signature_checks;
