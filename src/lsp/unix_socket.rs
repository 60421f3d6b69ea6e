//! The adt-ls socket on Unix, registered with the reactor for exactly what is awaited: the
//! reading side for read readiness only, the writing side for write readiness only while a
//! write is blocked. A socket registered for both (as `tokio::net::UnixStream` is, edge-
//! triggered) wakes a runtime thread with "writable" every time the peer drains a request we
//! wrote, though nobody waits to write: one wasted wake-up per request (docs/performance.md).
//! Also hands out a non-blocking dup of the socket for the connection's direct writes from
//! the calling thread, and for a connection read elsewhere ([`fed_transport`]) the writing
//! side alone plus a dup to read.

use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};

/// One connected socket as a tokio byte stream, plus the direct-write handle (a dup).
pub(crate) fn transport(socket: UnixStream) -> io::Result<(UnixTransport, UnixStream)> {
    socket.set_nonblocking(true)?;
    let direct = socket.try_clone()?;
    let writer = socket.try_clone()?;
    let reader = watch(socket, Interest::READABLE)?;
    let transport = UnixTransport {
        reader: UnixReader(reader),
        writer: UnixWriter {
            writer,
            blocked: None,
        },
    };
    Ok((transport, direct))
}

/// For a connection whose reading is done by the caller: the writing side (never
/// registered for read readiness, so replies wake no runtime thread), the direct-write
/// handle, and a dup of the socket to read from.
pub(crate) fn fed_transport(
    socket: UnixStream,
) -> io::Result<(UnixWriter, UnixStream, UnixStream)> {
    socket.set_nonblocking(true)?;
    let direct = socket.try_clone()?;
    let read_side = socket.try_clone()?;
    let writer = UnixWriter {
        writer: socket,
        blocked: None,
    };
    Ok((writer, direct, read_side))
}

/// The reading side alone, registered for read readiness (non-blocking `socket`).
pub(crate) fn reader(socket: UnixStream) -> io::Result<UnixReader> {
    socket.set_nonblocking(true)?;
    Ok(UnixReader(watch(socket, Interest::READABLE)?))
}

/// Register `socket` with the current runtime's reactor for `interest` only.
fn watch(socket: UnixStream, interest: Interest) -> io::Result<AsyncFd<UnixStream>> {
    // SAFETY: the UnixStream owns its descriptor; the AsyncFd owns the UnixStream, so the
    // descriptor stays open and the same until the registration is dropped.
    unsafe { AsyncFd::register_with_interest(socket, interest) }.map_err(io::Error::from)
}

/// The socket as an `AsyncRead + AsyncWrite` for the connection's reader and writer tasks.
pub(crate) struct UnixTransport {
    reader: UnixReader,
    writer: UnixWriter,
}

/// The reading side: registered for read readiness only.
pub(crate) struct UnixReader(AsyncFd<UnixStream>);

/// The writing side: registered for write readiness only while a write is blocked.
pub(crate) struct UnixWriter {
    writer: UnixStream,
    /// A registration for write readiness, made when a write would block and dropped after
    /// the next write goes through.
    blocked: Option<AsyncFd<UnixStream>>,
}

impl AsyncRead for UnixTransport {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.reader).poll_read(cx, buf)
    }
}

impl AsyncWrite for UnixTransport {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.writer).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.writer).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.writer).poll_shutdown(cx)
    }
}

impl AsyncRead for UnixReader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.0.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|socket| socket.get_ref().read(unfilled)) {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for UnixWriter {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            if let Some(blocked) = &self.blocked {
                let mut guard = ready!(blocked.poll_write_ready(cx))?;
                match guard.try_io(|socket| socket.get_ref().write(buf)) {
                    Ok(written) => {
                        self.blocked = None;
                        return Poll::Ready(written);
                    }
                    Err(_would_block) => continue,
                }
            }
            match (&self.writer).write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let watched = self.writer.try_clone()?;
                    self.blocked = Some(watch(watched, Interest::WRITABLE)?);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return Poll::Ready(other),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(match self.writer.shutdown(Shutdown::Write) {
            Err(e) if e.kind() != io::ErrorKind::NotConnected => Err(e),
            _ => Ok(()),
        })
    }
}
