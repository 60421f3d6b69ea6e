//! The localhost TLS reverse proxy (docs/wire.md#tls-proxy) that lets adt-ls reach an SAP
//! system whose certificate it would reject: HTTPS (HTTP/1.1) on `bind_host` (127.0.0.1 by
//! default) at an ephemeral port, advertised as `https://localhost:<port>`, forwarding every
//! request to the target directly or through a plain-HTTP forward proxy.
//!
//! Only adt-ls may use it (docs/decisions.md#d6): with `client_auth` set, the TLS handshake requires
//! that one pinned client certificate (`proxy_client_auth.rs`), so another local user's
//! `curl -k` is refused before any request reaches the SAP system. Unauthenticated
//! connections are bounded: at most [`MAX_PENDING_HANDSHAKES`] handshakes at a time (a new
//! connection evicts the oldest pending one, so idle connections cannot lock adt-ls out),
//! each for at most `HANDSHAKE_TIMEOUT`; authenticated connections are capped at
//! [`MAX_CONNECTIONS`].
//!
//! Lifecycle: [`start_tls_reverse_proxy`] binds and spawns the accept loop on the current
//! tokio runtime. [`ProxyHandle::close`] stops accepting (the port is free at once), lets
//! in-flight exchanges finish for up to [`CLOSE_GRACE`], then cuts what remains. Dropping the
//! handle stops everything immediately.

use super::proxy_client::{register_running_proxy, unregister_running_proxy, ProxyClientIdentity};
use super::proxy_client_auth::PinnedClientCert;
use super::proxy_conn::{serve_connection, stop_signal, ConnLimits};
use super::proxy_target::{authority, ProxyTarget, Scheme};
use super::proxy_upstream::UpstreamRoute;
use super::upstream_tls::upstream_client_config;
use super::upstream_tls::ClientCertPem;
use super::{crypto_provider, pem};
use crate::kernel::error::{Error, Result};
use crate::kernel::log;
use crate::kernel::redact::Hidden;
use rustls::ServerConfig;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::{AbortHandle, JoinHandle, JoinSet};
use tokio_rustls::{TlsAcceptor, TlsConnector};

/// How long `close()` lets in-flight exchanges finish before cutting them.
pub(crate) const CLOSE_GRACE: Duration = Duration::from_secs(2);
/// Pause after a failed `accept()` (e.g. out of file descriptors) before the next one.
const ACCEPT_RETRY_PAUSE: Duration = Duration::from_millis(50);
/// Connections still in their TLS handshake at one time; more evict the oldest.
pub(crate) const MAX_PENDING_HANDSHAKES: usize = 32;
/// Authenticated (handshake done) connections at one time; more are closed.
pub(crate) const MAX_CONNECTIONS: usize = 128;

/// Options of [`start_tls_reverse_proxy`] (the reference's `startTlsReverseProxy`).
#[derive(Clone)]
pub(crate) struct ProxyOptions {
    /// The listener's certificate (PEM, e.g. the `CN=localhost` one) and its key.
    pub cert_pem: String,
    pub key_pem: Hidden<String>,
    pub target: ProxyTarget,
    /// Skip upstream certificate verification (default true, as the reference).
    pub insecure_upstream: bool,
    /// Extra CAs trusted upstream when `insecure_upstream` is false (docs/decisions.md#d5-8).
    pub extra_ca_pems: Vec<Vec<u8>>,
    /// Listener address (default `127.0.0.1`).
    pub bind_host: String,
    /// `(host, port)` of a plain-HTTP forward proxy; requests then go there in absolute
    /// form, with no client certificate and no upstream TLS of ours.
    pub forward_proxy: Option<(String, u16)>,
    /// Client certificate presented upstream in direct mode (mutual TLS).
    pub client_cert: Option<ClientCertPem>,
    /// The only client identity the listener accepts (adt-ls's per-run one); `None` serves
    /// any client (no client authentication).
    pub client_auth: Option<ProxyClientIdentity>,
}

impl ProxyOptions {
    /// Defaults: insecure upstream, bind 127.0.0.1, direct mode, no client certificate.
    pub(crate) fn new(
        cert_pem: impl Into<String>,
        key_pem: impl Into<Hidden<String>>,
        target: ProxyTarget,
    ) -> Self {
        ProxyOptions {
            cert_pem: cert_pem.into(),
            key_pem: key_pem.into(),
            target,
            insecure_upstream: true,
            extra_ca_pems: Vec::new(),
            bind_host: "127.0.0.1".to_string(),
            forward_proxy: None,
            client_cert: None,
            client_auth: None,
        }
    }
}

impl std::fmt::Debug for ProxyOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProxyOptions")
            .field("cert_pem", &self.cert_pem)
            .field("key_pem", &self.key_pem)
            .field("target", &self.target)
            .field("insecure_upstream", &self.insecure_upstream)
            .field("extra_ca_pems", &self.extra_ca_pems.len())
            .field("bind_host", &self.bind_host)
            .field("forward_proxy", &self.forward_proxy)
            .field("client_cert", &self.client_cert)
            .field("client_auth", &self.client_auth.is_some())
            .finish()
    }
}

/// A running proxy.
#[derive(Debug)]
pub(crate) struct ProxyHandle {
    /// The bound port.
    pub port: u16,
    /// `https://localhost:<port>`.
    pub url: String,
    shutdown: watch::Sender<bool>,
    accept_loop: Option<JoinHandle<()>>,
}

impl ProxyHandle {
    /// Stop accepting, let in-flight exchanges finish (bounded by [`CLOSE_GRACE`]), close
    /// every connection, and return when all of that is done.
    pub(crate) async fn close(mut self) {
        unregister_running_proxy(self.port);
        let _ = self.shutdown.send(true);
        if let Some(accept_loop) = self.accept_loop.take() {
            let _ = accept_loop.await;
        }
    }
}

impl Drop for ProxyHandle {
    fn drop(&mut self) {
        unregister_running_proxy(self.port);
        let _ = self.shutdown.send(true);
        if let Some(accept_loop) = self.accept_loop.take() {
            // Aborting the loop drops its listener and its JoinSet, which aborts every
            // connection task (and with them their upstream connections).
            accept_loop.abort();
        }
    }
}

/// Bind the listener and start serving. Must be called inside a tokio runtime.
pub(crate) async fn start_tls_reverse_proxy(opts: ProxyOptions) -> Result<ProxyHandle> {
    let acceptor = TlsAcceptor::from(Arc::new(server_config(&opts)?));
    let route = Arc::new(upstream_route(&opts)?);
    let listener = TcpListener::bind((opts.bind_host.as_str(), 0))
        .await
        .map_err(|e| {
            let mut err = Error::from(e);
            err.message = format!(
                "tls-proxy: cannot listen on {}: {}",
                opts.bind_host, err.message
            );
            err
        })?;
    let port = listener.local_addr()?.port();
    let url = format!("https://localhost:{port}");
    let via = match &opts.forward_proxy {
        Some((host, proxy_port)) => format!(" via forward-proxy {}", authority(host, *proxy_port)),
        None => String::new(),
    };
    log::info(format!("tls-proxy: {url} → {}{via}", opts.target.origin()));
    if let Some(identity) = &opts.client_auth {
        register_running_proxy(port, identity.pem.clone(), opts.target.origin());
    }
    let (shutdown, shutdown_rx) = watch::channel(false);
    let accept_loop = tokio::spawn(accept_loop(listener, acceptor, route, shutdown_rx));
    Ok(ProxyHandle {
        port,
        url,
        shutdown,
        accept_loop: Some(accept_loop),
    })
}

fn server_config(opts: &ProxyOptions) -> Result<ServerConfig> {
    let chain = pem::parse_certificates(opts.cert_pem.as_bytes(), "proxy certificate")?;
    let key = pem::parse_private_key(opts.key_pem.as_bytes(), "proxy key")?;
    let provider = crypto_provider();
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::new(format!("tls-proxy: invalid listener certificate: {e}")))?;
    let builder = match &opts.client_auth {
        Some(identity) => builder.with_client_cert_verifier(Arc::new(PinnedClientCert::new(
            identity.cert_der.clone(),
            provider,
        ))),
        None => builder.with_no_client_auth(),
    };
    let mut config = builder
        .with_single_cert(chain, key)
        .map_err(|e| Error::new(format!("tls-proxy: invalid listener certificate: {e}")))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

fn upstream_route(opts: &ProxyOptions) -> Result<UpstreamRoute> {
    if let Some((proxy_host, proxy_port)) = &opts.forward_proxy {
        return Ok(UpstreamRoute::Forward {
            proxy_host: proxy_host.clone(),
            proxy_port: *proxy_port,
            target: opts.target.clone(),
        });
    }
    let tls = match opts.target.scheme {
        Scheme::Https => {
            let config = upstream_client_config(
                opts.insecure_upstream,
                &opts.extra_ca_pems,
                opts.client_cert.as_ref(),
            )?;
            Some(TlsConnector::from(Arc::new(config)))
        }
        Scheme::Http => None,
    };
    Ok(UpstreamRoute::Direct {
        target: opts.target.clone(),
        tls,
    })
}

/// A connection still in its TLS handshake.
struct Pending {
    handshaking: Arc<AtomicBool>,
    task: AbortHandle,
}

async fn accept_loop(
    listener: TcpListener,
    acceptor: TlsAcceptor,
    route: Arc<UpstreamRoute>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut connections = JoinSet::new();
    let mut pending: VecDeque<Pending> = VecDeque::new();
    let authenticated = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        tokio::select! {
            _ = stop_signal(&mut shutdown) => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, _peer)) => {
                    pending.retain(|p| p.handshaking.load(Ordering::Acquire) && !p.task.is_finished());
                    if pending.len() >= MAX_PENDING_HANDSHAKES {
                        if let Some(oldest) = pending.pop_front() {
                            log::debug("tls-proxy: too many pending handshakes; closing the oldest");
                            oldest.task.abort();
                        }
                    }
                    let handshaking = Arc::new(AtomicBool::new(true));
                    let task = connections.spawn(serve_connection(
                        tcp,
                        acceptor.clone(),
                        route.clone(),
                        shutdown.clone(),
                        ConnLimits {
                            handshaking: handshaking.clone(),
                            authenticated: authenticated.clone(),
                        },
                    ));
                    pending.push_back(Pending { handshaking, task });
                }
                Err(e) => {
                    log::warn(format!("tls-proxy: accept failed: {e}"));
                    tokio::time::sleep(ACCEPT_RETRY_PAUSE).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let drained = tokio::time::timeout(CLOSE_GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        connections.shutdown().await;
    }
}
