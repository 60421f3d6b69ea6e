//! The proxy serves adt-ls only (docs/decisions.md#d6): the TLS handshake requires the run's pinned
//! client identity; clients without it, or with another certificate, get no HTTP exchange
//! and the backend sees nothing; idle unauthenticated connections are evicted beyond the
//! pending-handshake cap and closed after the handshake timeout, while adt-ls gets through.

use super::support::*;
use crate::tls::proxy::MAX_PENDING_HANDSHAKES;
use crate::tls::proxy_client::write_proxy_client_identity;
use crate::tls::proxy_client::ProxyClientIdentity;
use crate::tls::proxy_conn::HANDSHAKE_TIMEOUT;
use crate::tls::{upstream_client_config, ClientCertPem, ProxyHandle};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn guarded_proxy(backend_port: u16, dir: &TempDir) -> (ProxyHandle, ProxyClientIdentity) {
    let identity = write_proxy_client_identity(dir.path()).unwrap();
    let (proxy, _cert) = start_proxy(local_https(backend_port), |o| {
        o.client_auth = Some(identity.clone());
    })
    .await;
    (proxy, identity)
}

/// GET /hello over TLS presenting `identity` (if any); the raw response text, or the error.
async fn get_hello(port: u16, identity: Option<&ClientCertPem>) -> Result<String, String> {
    let config = upstream_client_config(true, &[], identity).map_err(|e| e.message)?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let exchange = async {
        let mut tls = connector.connect(name, tcp).await?;
        tls.write_all(b"GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .await?;
        let mut text = Vec::new();
        tls.read_to_end(&mut text).await?;
        Ok::<_, std::io::Error>(String::from_utf8_lossy(&text).into_owned())
    };
    match tokio::time::timeout(Duration::from_secs(20), exchange).await {
        Ok(Ok(text)) if text.is_empty() => Err("closed without a response".into()),
        Ok(Ok(text)) => Ok(text),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("timed out".into()),
    }
}

#[test]
fn the_identity_debug_shows_neither_password_nor_key() {
    let dir = TempDir::new("identity-debug");
    let identity = write_proxy_client_identity(dir.path()).unwrap();
    let shown = format!("{identity:?}");
    assert!(!shown.contains(identity.password()));
    assert!(!shown.contains("PRIVATE KEY"));
    assert!(shown.contains("<redacted>"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_pinned_identity_gets_through() {
    bounded(async {
        let ca = TestCa::new("Backend Test CA");
        let backend = start_sap_backend(&ca, None).await;
        let dir = TempDir::new("mtls");
        let (proxy, identity) = guarded_proxy(backend.port, &dir).await;

        let ok = get_hello(proxy.port, Some(&identity.pem)).await.unwrap();
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
        assert!(ok.ends_with("ok:/hello"), "{ok}");
        assert_eq!(backend.state.connections.load(Ordering::SeqCst), 1);

        let other = TempDir::new("mtls-other");
        let foreign = write_proxy_client_identity(other.path()).unwrap();
        let leaf = ca.leaf("intruder", &["localhost"]);
        let ca_issued = ClientCertPem::new(leaf.cert_pem.clone(), leaf.key_pem.clone());
        for (name, presented) in [
            ("no certificate", None),
            ("another self-signed identity", Some(&foreign.pem)),
            ("a CA-issued certificate", Some(&ca_issued)),
        ] {
            let refused = get_hello(proxy.port, presented).await;
            assert!(refused.is_err(), "{name}: got {refused:?}");
        }
        assert_eq!(
            backend.state.connections.load(Ordering::SeqCst),
            1,
            "nothing reached the backend"
        );
        proxy.close().await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_unauthenticated_connections_are_capped_and_timed_out() {
    bounded(async {
        let backend = start_sap_backend(&TestCa::new("Backend Test CA"), None).await;
        let dir = TempDir::new("mtls-idle");
        let (proxy, identity) = guarded_proxy(backend.port, &dir).await;
        let started = Instant::now();
        let mut idle = Vec::new();
        for _ in 0..MAX_PENDING_HANDSHAKES * 3 {
            idle.push(TcpStream::connect(("127.0.0.1", proxy.port)).await.unwrap());
        }
        // adt-ls still gets through while the idle connections are held.
        let ok = get_hello(proxy.port, Some(&identity.pem)).await.unwrap();
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
        // The oldest ones were evicted (closed by the proxy) at once...
        let mut first = idle.remove(0);
        let mut byte = [0u8; 1];
        let evicted = tokio::time::timeout(Duration::from_secs(2), first.read(&mut byte)).await;
        assert!(
            matches!(evicted, Ok(Ok(0)) | Ok(Err(_))),
            "the oldest idle connection is still open: {evicted:?}"
        );
        // ...and every one is closed once the handshake timeout has passed.
        for mut conn in idle {
            let left = (HANDSHAKE_TIMEOUT * 3).saturating_sub(started.elapsed());
            let closed = tokio::time::timeout(left, conn.read(&mut byte)).await;
            assert!(
                matches!(closed, Ok(Ok(0)) | Ok(Err(_))),
                "an idle connection outlived the handshake timeout: {closed:?}"
            );
        }
        proxy.close().await;
    })
    .await
}
