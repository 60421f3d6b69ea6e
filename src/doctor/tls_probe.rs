//! The TLS handshake of the `--url` probe: completes the handshake whatever certificate the
//! server presents (the signature over the handshake is still checked) and records the
//! presented chain, so the trust and host-name questions are answered separately.

use crate::tls::accept_any::AcceptAnyServerCert;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::ClientConfig;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// A finished handshake.
pub(crate) struct Handshake<S> {
    pub stream: TlsStream<S>,
    /// Leaf first, as presented.
    pub chain: Vec<CertificateDer<'static>>,
    pub protocol: String,
    pub cipher_suite: String,
}

/// Run the handshake over `io` for `host` (SNI for names, none for IP addresses).
pub(crate) async fn handshake<S>(io: S, host: &str) -> Result<Handshake<S>, String>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let provider = crate::tls::crypto_provider();
    let recorder = Arc::new(AcceptAnyServerCert::recording(provider.clone()));
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(recorder.clone())
        .with_no_client_auth();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let name = ServerName::try_from(bare.to_string()).map_err(|e| e.to_string())?;
    let stream = TlsConnector::from(Arc::new(config))
        .connect(name, io)
        .await
        .map_err(|e| e.to_string())?;
    let (_, conn) = stream.get_ref();
    let protocol = conn
        .protocol_version()
        .map(|v| format!("{v:?}"))
        .unwrap_or_default();
    let cipher_suite = conn
        .negotiated_cipher_suite()
        .map(|s| format!("{:?}", s.suite()))
        .unwrap_or_default();
    let chain = recorder.seen_chain();
    Ok(Handshake {
        stream,
        chain,
        protocol,
        cipher_suite,
    })
}
