//! The reverse proxy's upstream hop: how to reach the SAP system (directly over TLS or plain
//! HTTP, or through a plain-HTTP forward proxy in absolute form — never CONNECT), and one
//! HTTP/1.1 client connection at a time per downstream connection.
//!
//! SNI: we send the target host name when it is a DNS name (none for IP addresses). Node
//! derives SNI from the forwarded Host header and so sends `localhost`; sending the real name
//! is what TLS intends and what a verifying client must do. Behaviour change, documented.

use super::proxy_target::{authority, ProxyTarget, Scheme};
use crate::kernel::error::io_error_code;
use crate::kernel::log;
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::Uri;
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_rustls::TlsConnector;

/// Bound for TCP connect plus TLS handshake.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How requests reach the target.
pub(crate) enum UpstreamRoute {
    /// Straight to the target; `tls` is set for `https` targets.
    Direct {
        target: ProxyTarget,
        tls: Option<TlsConnector>,
    },
    /// Plain HTTP to a forward proxy, request target in absolute form.
    Forward {
        proxy_host: String,
        proxy_port: u16,
        target: ProxyTarget,
    },
}

/// One open client connection; its driver task ends when this is dropped.
pub(crate) struct UpstreamConn {
    pub sender: SendRequest<Incoming>,
    driver: JoinHandle<()>,
}

impl Drop for UpstreamConn {
    fn drop(&mut self) {
        self.driver.abort();
    }
}

impl UpstreamRoute {
    /// The request target to send: origin form directly, absolute form via a forward proxy.
    pub(crate) fn request_uri(&self, path_and_query: &str) -> Result<Uri, String> {
        let text = match self {
            UpstreamRoute::Direct { .. } => path_and_query.to_string(),
            UpstreamRoute::Forward { target, .. } => format!("{}{path_and_query}", target.origin()),
        };
        text.parse()
            .map_err(|e| format!("invalid request target {text}: {e}"))
    }

    /// The Host value forced on upstream requests (forward-proxy mode only).
    pub(crate) fn forced_host(&self) -> Option<String> {
        match self {
            UpstreamRoute::Direct { .. } => None,
            UpstreamRoute::Forward { target, .. } => Some(target.authority()),
        }
    }

    /// Open a new upstream connection (bounded by [`CONNECT_TIMEOUT`]).
    pub(crate) async fn connect(&self) -> Result<UpstreamConn, String> {
        let (host, port) = match self {
            UpstreamRoute::Direct { target, .. } => (target.host.as_str(), target.port),
            UpstreamRoute::Forward {
                proxy_host,
                proxy_port,
                ..
            } => (proxy_host.as_str(), *proxy_port),
        };
        match tokio::time::timeout(CONNECT_TIMEOUT, self.connect_unbounded(host, port)).await {
            Ok(result) => result,
            Err(_) => Err(format!("connect ETIMEDOUT {}", authority(host, port))),
        }
    }

    async fn connect_unbounded(&self, host: &str, port: u16) -> Result<UpstreamConn, String> {
        let tcp = connect_tcp(host, port).await?;
        match self {
            UpstreamRoute::Direct {
                target,
                tls: Some(connector),
            } if target.scheme == Scheme::Https => {
                let name = ServerName::try_from(target.host.clone())
                    .map_err(|e| format!("invalid TLS server name {}: {e}", target.host))?;
                let stream = connector
                    .connect(name, tcp)
                    .await
                    .map_err(|e| e.to_string())?;
                handshake(stream).await
            }
            _ => handshake(tcp).await,
        }
    }
}

/// Resolve `host` and try each address in turn (so `localhost` works on ::1 and 127.0.0.1).
async fn connect_tcp(host: &str, port: u16) -> Result<TcpStream, String> {
    let addrs = tokio::net::lookup_host((host, port))
        .await
        .map_err(|_| format!("getaddrinfo ENOTFOUND {host}"))?;
    let mut last_error = format!("getaddrinfo ENOTFOUND {host}");
    for addr in addrs {
        match TcpStream::connect(addr).await {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                return Ok(stream);
            }
            Err(e) => {
                let code = io_error_code(&e).map_or_else(|| e.to_string(), str::to_string);
                last_error = format!("connect {code} {addr}");
            }
        }
    }
    Err(last_error)
}

async fn handshake<S>(io: S) -> Result<UpstreamConn, String>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (sender, connection) = hyper::client::conn::http1::Builder::new()
        .handshake(TokioIo::new(io))
        .await
        .map_err(|e| e.to_string())?;
    let driver = tokio::spawn(async move {
        if let Err(e) = connection.await {
            log::debug(format!("tls-proxy: upstream connection ended: {e}"));
        }
    });
    Ok(UpstreamConn { sender, driver })
}
