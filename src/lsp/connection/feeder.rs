//! The reading side of a connection as a value: bytes in, frames decoded (with the
//! decoder's limits), traced and dispatched. The reader task drives one; a caller that reads
//! the socket itself (the JS thread, through a libuv poll handle) drives one from
//! [`Connection::start_fed`]. Each frame is charged to the connection's backlog while what it
//! produced waits ([`crate::bounds::backlog`]); whoever drives the feeder asks [`Feeder::has_room`]
//! before reading more and waits for room when there is none.

use super::{dispatch, CloseReason, Connection, Handlers};
use crate::kernel::log;
use crate::lsp::framing::Decoder;
use tokio::runtime::Handle;
use tokio::sync::watch;

/// Decodes and dispatches what is read from the peer.
pub(crate) struct Feeder {
    conn: Connection,
    handlers: Handlers,
    decoder: Decoder,
    shutdown: watch::Receiver<bool>,
    /// Entered while dispatching: request handlers are spawned on it.
    runtime: Handle,
}

impl Feeder {
    /// Must be called inside the tokio runtime.
    pub(super) fn new(
        conn: Connection,
        handlers: Handlers,
        shutdown: watch::Receiver<bool>,
    ) -> Feeder {
        Feeder {
            conn,
            handlers,
            decoder: Decoder::new(),
            shutdown,
            runtime: Handle::current(),
        }
    }

    /// Decode `bytes` and dispatch every complete message (from any thread). False once
    /// the connection has ended (disposed, closed, or a framing violation closed it now):
    /// stop reading.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> bool {
        if *self.shutdown.borrow() {
            return false;
        }
        let _runtime = self.runtime.enter();
        self.decoder.push(bytes);
        loop {
            match self.decoder.next_frame() {
                Ok(Some(body)) => {
                    let charge = self.conn.inner.backlog.charge(body.len());
                    dispatch(&self.conn, &self.handlers, &body, &self.shutdown, charge);
                }
                Ok(None) => break,
                Err(e) => {
                    // The stream cannot be trusted any further: end it now and fail
                    // everything pending instead of letting it run into its timeout.
                    log::warn(format!("lsp: {e}; closing the connection"));
                    self.conn.close(CloseReason::framing(&e));
                    return false;
                }
            }
        }
        !*self.shutdown.borrow()
    }

    /// The peer closed the stream: close the connection with the reason the close hook
    /// supplies (unless it ended already).
    pub(crate) async fn eof(self) {
        if self.conn.is_open() {
            let reason = self.handlers.close_hook.on_eof().await;
            self.conn.close(reason);
        }
    }

    #[cfg_attr(not(unix), allow(dead_code))] // only the JS-thread reader (Unix) feeds a connection
    /// [`Feeder::eof`] from a thread outside the runtime: the close runs as a task.
    pub(crate) fn feed_eof(self) {
        let runtime = self.runtime.clone();
        runtime.spawn(self.eof());
    }

    /// True while what was read and is not yet done with is under the backlog's limits:
    /// read on. Otherwise wait for [`Feeder::room`] or [`Feeder::when_room`].
    pub(crate) fn has_room(&self) -> bool {
        self.conn.inner.backlog.has_room() && self.conn.inner.requests.has_room()
    }

    /// Resolves once reading may go on.
    pub(crate) async fn room(&self) {
        let inner = &self.conn.inner;
        while !self.has_room() {
            inner.backlog.room().await;
            inner.requests.room().await;
        }
    }

    #[cfg_attr(not(unix), allow(dead_code))] // only the JS-thread reader (Unix) feeds a connection
    /// Call `wake` once the bound that stops reading now has room again (at once, on this
    /// thread, when it has); the caller checks [`Feeder::has_room`] again then.
    pub(crate) fn when_room(&self, wake: Box<dyn FnOnce() + Send>) {
        let inner = &self.conn.inner;
        if inner.backlog.has_room() {
            inner.requests.when_room(wake)
        } else {
            inner.backlog.when_room(wake)
        }
    }

    #[cfg_attr(not(unix), allow(dead_code))] // only the JS-thread reader (Unix) feeds a connection
    /// True until the connection ends.
    pub(crate) fn is_open(&self) -> bool {
        !*self.shutdown.borrow() && self.conn.is_open()
    }

    /// Read `socket` on the runtime instead (when the caller cannot read it after all).
    #[cfg(unix)]
    pub(crate) fn read_on_runtime(self, socket: std::os::unix::net::UnixStream) {
        let runtime = self.runtime.clone();
        let _entered = runtime.enter();
        match crate::lsp::unix_socket::reader(socket) {
            Ok(reader) => {
                let shutdown = self.shutdown.clone();
                runtime.spawn(super::read_loop(reader, self, shutdown));
            }
            Err(e) => {
                log::warn(format!("lsp: cannot watch the adt-ls socket ({e})"));
                self.feed_eof();
            }
        }
    }
}

/// Someone who reads a connection's socket instead of a reader task (the JS thread under
/// Node): given the socket to read and the feeder to hand the bytes to, once connected.
#[cfg(unix)]
pub(crate) trait ReadHost: Send + Sync + 'static {
    /// Take over reading `socket` (non-blocking); when that is impossible, hand both to
    /// [`Feeder::read_on_runtime`].
    fn attach(&self, socket: std::os::unix::net::UnixStream, feeder: Feeder);
}
