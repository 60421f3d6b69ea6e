//! One downstream connection of the reverse proxy: TLS accept, HTTP/1.1 serving, and the
//! forwarding of each request over this connection's own upstream connection. HTTP/1.1
//! requests on one connection are sequential, so pairing one upstream connection with each
//! downstream connection gives keep-alive reuse without a shared pool.

use super::proxy_headers::{strip_hop_by_hop, upstream_request_headers};
use super::proxy_upstream::{UpstreamConn, UpstreamRoute};
use crate::kernel::log;
use bytes::Bytes;
use http_body_util::{Either, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode, Version};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::{watch, Mutex, Semaphore};
use tokio_rustls::TlsAcceptor;

/// Bound for the client's TLS handshake: a connection that has not authenticated by then is
/// closed (docs/decisions.md#d6; adt-ls completes it in milliseconds).
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long to wait for a kept-alive upstream connection to become reusable.
const REUSE_WAIT: Duration = Duration::from_secs(5);

pub(crate) type ProxyBody = Either<Incoming, Full<Bytes>>;

/// The accept loop's bookkeeping for one connection: cleared once the handshake is over,
/// and the pool of authenticated-connection permits.
pub(crate) struct ConnLimits {
    pub handshaking: Arc<AtomicBool>,
    pub authenticated: Arc<Semaphore>,
}

/// Serve one accepted TCP connection until it ends or shutdown is signalled; on shutdown,
/// in-flight responses may finish (the caller bounds that) and idle connections close.
pub(crate) async fn serve_connection(
    tcp: TcpStream,
    acceptor: TlsAcceptor,
    route: Arc<UpstreamRoute>,
    mut shutdown: watch::Receiver<bool>,
    limits: ConnLimits,
) {
    let _ = tcp.set_nodelay(true);
    let tls = tokio::select! {
        accepted = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)) => match accepted {
            Ok(Ok(tls)) => tls,
            Ok(Err(e)) => {
                log::debug(format!("tls-proxy: client TLS handshake failed: {e}"));
                return;
            }
            Err(_) => {
                log::debug("tls-proxy: client TLS handshake timed out");
                return;
            }
        },
        _ = stop_signal(&mut shutdown) => return,
    };
    limits.handshaking.store(false, Ordering::Release);
    let Ok(_permit) = limits.authenticated.try_acquire_owned() else {
        log::warn("tls-proxy: too many connections; closing a new one");
        return;
    };
    let forwarder = Arc::new(Forwarder {
        route,
        upstream: Mutex::new(None),
    });
    let service = hyper::service::service_fn(move |req| {
        let forwarder = forwarder.clone();
        async move { Ok::<_, Infallible>(forwarder.forward(req).await) }
    });
    let connection =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(tls), service);
    tokio::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        _ = stop_signal(&mut shutdown) => {
            connection.as_mut().graceful_shutdown();
            connection.as_mut().await
        }
    };
    if let Err(e) = result {
        log::debug(format!("tls-proxy: client connection ended: {e}"));
    }
}

/// Resolves once shutdown is signalled (or the signalling side is gone).
pub(crate) async fn stop_signal(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// Forwards the requests of one downstream connection.
struct Forwarder {
    route: Arc<UpstreamRoute>,
    upstream: Mutex<Option<UpstreamConn>>,
}

impl Forwarder {
    async fn forward(&self, req: Request<Incoming>) -> Response<ProxyBody> {
        match self.try_forward(req).await {
            Ok(response) => response,
            Err(message) => {
                log::warn(format!("tls-proxy: upstream error: {message}"));
                upstream_error_response(&message)
            }
        }
    }

    async fn try_forward(&self, req: Request<Incoming>) -> Result<Response<ProxyBody>, String> {
        let (mut parts, body) = req.into_parts();
        let path_and_query = parts
            .uri
            .path_and_query()
            .map_or("/", |pq| pq.as_str())
            .to_string();
        parts.uri = self.route.request_uri(&path_and_query)?;
        parts.version = Version::HTTP_11;
        upstream_request_headers(&mut parts.headers, self.route.forced_host().as_deref());
        let request = Request::from_parts(parts, body);

        let mut slot = self.upstream.lock().await;
        let kept = match slot.take() {
            Some(mut conn) if !conn.sender.is_closed() => {
                reusable(&mut conn.sender).await.then_some(conn)
            }
            _ => None,
        };
        let mut conn = match kept {
            Some(conn) => conn,
            None => self.route.connect().await?,
        };
        let response = match conn.sender.try_send_request(request).await {
            Ok(response) => response,
            Err(mut failure) => match failure.take_message() {
                // Never written (a kept-alive connection closed under us): one fresh try.
                Some(request) => {
                    conn = self.route.connect().await?;
                    conn.sender
                        .send_request(request)
                        .await
                        .map_err(|e| describe(&e))?
                }
                None => return Err(describe(failure.error())),
            },
        };
        *slot = Some(conn);
        drop(slot);

        let (mut parts, body) = response.into_parts();
        strip_hop_by_hop(&mut parts.headers);
        Ok(Response::from_parts(parts, Either::Left(body)))
    }
}

/// Wait (briefly) until a kept-alive connection can take the next request.
async fn reusable(sender: &mut hyper::client::conn::http1::SendRequest<Incoming>) -> bool {
    matches!(
        tokio::time::timeout(REUSE_WAIT, sender.ready()).await,
        Ok(Ok(()))
    )
}

/// The reference's 502: `content-type: text/plain`, body `reverse-proxy upstream error: <msg>`.
fn upstream_error_response(message: &str) -> Response<ProxyBody> {
    let body = format!("reverse-proxy upstream error: {message}");
    let mut response = Response::new(Either::Right(Full::new(Bytes::from(body))));
    *response.status_mut() = StatusCode::BAD_GATEWAY;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    response
}

/// A hyper error with its causes, e.g. `connection closed before message completed`.
fn describe(error: &hyper::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
