//! Background tasks of Rust tests (the loopback servers they script): aborted when the test
//! drops them, so a failing test leaves nothing running; and serving one HTTP/1.1
//! connection of such a server.

use hyper::body::{Body, Incoming};
use hyper::service::HttpService;
use hyper_util::rt::TokioIo;
use std::error::Error as StdError;
use std::future::Future;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A spawned task that is aborted when this handle is dropped.
pub(crate) struct AbortOnDrop(JoinHandle<()>);

impl AbortOnDrop {
    /// Spawns `task` on the current runtime.
    pub(crate) fn spawn(task: impl Future<Output = ()> + Send + 'static) -> Self {
        AbortOnDrop(tokio::spawn(task))
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Accepts connections on `listener` until the returned task is dropped, each served by
/// `serve` in a task of its own (those end with the loop); a failed accept is skipped.
pub(crate) fn accept_loop<Fut>(
    listener: TcpListener,
    serve: impl Fn(TcpStream) -> Fut + Send + 'static,
) -> AbortOnDrop
where
    Fut: Future<Output = ()> + Send + 'static,
{
    AbortOnDrop::spawn(async move {
        let mut conns = tokio::task::JoinSet::new();
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                continue;
            };
            conns.spawn(serve(tcp));
        }
    })
}

/// Serves HTTP/1.1 on `io` with `service` until the connection ends (an error ends it too).
pub(crate) async fn serve_http1<I, S, B>(io: I, service: S)
where
    I: AsyncRead + AsyncWrite + Unpin + 'static,
    S: HttpService<Incoming, ResBody = B>,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(io), service)
        .await;
}
