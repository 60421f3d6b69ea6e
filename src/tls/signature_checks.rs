//! The three signature checks every rustls certificate verifier of ours has in common (the
//! accept-any server verifier of the upstream hop and the doctor's probe, the proxy's
//! client-certificate verifier): they delegate to the crypto provider's algorithms. One macro, expanded inside each
//! `ServerCertVerifier` / `ClientCertVerifier` impl whose type has a `provider:
//! Arc<CryptoProvider>` field, so the delegation is written once.

/// `verify_tls12_signature`, `verify_tls13_signature` and `supported_verify_schemes` through
/// `self.provider`.
macro_rules! provider_signature_checks {
    () => {
        $crate::tls::signature_checks::provider_signature_checks!(@verify verify_tls12_signature);
        $crate::tls::signature_checks::provider_signature_checks!(@verify verify_tls13_signature);

        fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
            self.provider
                .signature_verification_algorithms
                .supported_schemes()
        }
    };
    // One handshake-signature check: the trait method of that name delegating to
    // `rustls::crypto`'s function of the same name.
    (@verify $check:ident) => {
        fn $check(
            &self,
            message: &[u8],
            cert: &rustls::pki_types::CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> std::result::Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::$check(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }
    };
}

pub(crate) use provider_signature_checks;
