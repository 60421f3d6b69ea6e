//! Background tasks of Rust tests (the loopback servers they script): aborted when the test
//! drops them, so a failing test leaves nothing running.

use std::future::Future;
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
