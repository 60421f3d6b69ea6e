//! The local stream adt-ls connects to. We listen, adt-ls connects (`--pipe=<address>`);
//! the first connection is used and later ones are accepted and dropped until close.
//! Unix: a socket file `<tmp>/adt-ls-<12hex>.sock`, kept short because macOS limits
//! `sun_path` to 104 bytes (a longer path makes adt-lsc never connect). Windows: the named
//! pipe `\\.\pipe\adt-ls-<12hex>`, created as the first instance of its name, refusing remote
//! clients, with a DACL for the current user only ([`win_pipe_security`](super::win_pipe_security)).

use super::ids;
use crate::error::{Error, Result};
use tokio::io::{AsyncRead, AsyncWrite};

/// A connected byte stream, whatever the platform's pipe type.
pub trait PipeStream: AsyncRead + AsyncWrite + Send + Unpin + 'static {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin + 'static> PipeStream for T {}

/// Longest socket path we accept (macOS `sun_path` is 104 bytes including the NUL).
#[cfg(unix)]
const MAX_SOCKET_PATH: usize = 103;

pub struct PipeListener {
    address: String,
    #[cfg(unix)]
    listener: Option<tokio::net::UnixListener>,
    #[cfg(windows)]
    server: Option<tokio::net::windows::named_pipe::NamedPipeServer>,
}

impl PipeListener {
    /// Choose a fresh address (a socket file in `temp_dir` on Unix) and listen on it.
    pub fn bind(temp_dir: &std::path::Path) -> Result<PipeListener> {
        let id = ids::short_id()?;
        Self::bind_id(temp_dir, &id)
    }

    #[cfg(unix)]
    fn bind_id(temp_dir: &std::path::Path, id: &str) -> Result<PipeListener> {
        let name = format!("adt-ls-{id}.sock");
        let mut path = temp_dir.join(&name);
        if path.as_os_str().len() > MAX_SOCKET_PATH {
            path = std::path::PathBuf::from("/tmp").join(&name);
        }
        let _ = std::fs::remove_file(&path);
        let listener = tokio::net::UnixListener::bind(&path)
            .map_err(|e| Error::from(e).prefixed(&format!("listen {}: ", path.display())))?;
        Ok(PipeListener {
            address: path.to_string_lossy().into_owned(),
            listener: Some(listener),
        })
    }

    #[cfg(windows)]
    fn bind_id(_temp_dir: &std::path::Path, id: &str) -> Result<PipeListener> {
        let address = format!(r"\\.\pipe\adt-ls-{id}");
        let server = create_instance(&address, true)
            .map_err(|e| e.prefixed(&format!("listen {address}: ")))?;
        Ok(PipeListener {
            address,
            server: Some(server),
        })
    }

    /// The `--pipe=` address.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// Wait for the first connection. Later connections are accepted and dropped by a
    /// background task that ends when the returned [`PipeGuard`] is dropped.
    #[cfg(unix)]
    pub async fn accept_first(&mut self) -> Result<(Box<dyn PipeStream>, PipeGuard)> {
        let listener = self
            .listener
            .take()
            .ok_or_else(|| Error::new("pipe listener already used"))?;
        let (stream, _) = listener.accept().await.map_err(Error::from)?;
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    accepted = listener.accept() => if accepted.is_err() { break },
                    _ = &mut stopped => break,
                }
            }
        });
        Ok((Box::new(stream), PipeGuard { _stop: Some(stop) }))
    }

    #[cfg(windows)]
    pub async fn accept_first(&mut self) -> Result<(Box<dyn PipeStream>, PipeGuard)> {
        let server = self
            .server
            .take()
            .ok_or_else(|| Error::new("pipe listener already used"))?;
        server.connect().await.map_err(Error::from)?;
        let address = self.address.clone();
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            loop {
                let Ok(next) = create_instance(&address, false) else {
                    break;
                };
                tokio::select! {
                    connected = next.connect() => if connected.is_err() { break },
                    _ = &mut stopped => break,
                }
            }
        });
        Ok((Box::new(server), PipeGuard { _stop: Some(stop) }))
    }

    /// Remove the socket file (Unix); a no-op for named pipes.
    pub fn remove_file(address: &str) {
        #[cfg(unix)]
        {
            let _ = std::fs::remove_file(address);
        }
        #[cfg(not(unix))]
        {
            let _ = address;
        }
    }
}

/// One server instance of the named pipe: current user only, no remote clients.
#[cfg(windows)]
fn create_instance(
    address: &str,
    first: bool,
) -> Result<tokio::net::windows::named_pipe::NamedPipeServer> {
    use tokio::net::windows::named_pipe::ServerOptions;
    let mut security = super::win_pipe_security::PipeSecurity::current_user_only()?;
    let mut options = ServerOptions::new();
    options
        .first_pipe_instance(first)
        .reject_remote_clients(true);
    // SAFETY: the attributes point at a descriptor owned by `security`, alive for the call.
    unsafe { options.create_with_security_attributes_raw(address, security.as_raw()) }
        .map_err(Error::from)
}

/// Keeps the "accept and drop later connections" task alive; dropping it stops the task
/// and closes the listener.
pub struct PipeGuard {
    _stop: Option<tokio::sync::oneshot::Sender<()>>,
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn short_path_first_connection_wins_and_later_ones_are_dropped() {
        let mut listener = PipeListener::bind(&std::env::temp_dir()).unwrap();
        let address = listener.address().to_string();
        assert!(address.len() <= MAX_SOCKET_PATH);
        assert!(address.ends_with(".sock"));
        let client = tokio::spawn({
            let address = address.clone();
            async move { tokio::net::UnixStream::connect(&address).await.unwrap() }
        });
        let (mut server_side, guard) = listener.accept_first().await.unwrap();
        let mut client = client.await.unwrap();
        client.write_all(b"hi").await.unwrap();
        let mut buf = [0u8; 2];
        server_side.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"hi");
        // A second client is accepted (connect succeeds) but nobody talks to it.
        let mut second = tokio::net::UnixStream::connect(&address).await.unwrap();
        let mut b = [0u8; 1];
        let n = tokio::time::timeout(std::time::Duration::from_secs(2), second.read(&mut b))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(n, 0, "later connections are closed");
        drop(guard);
        PipeListener::remove_file(&address);
        assert!(!std::path::Path::new(&address).exists());
    }
}
