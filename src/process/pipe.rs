//! The local stream adt-ls connects to. We listen, adt-ls connects (`--pipe=<address>`).
//! Only the child we spawned may be adt-ls: on Unix each connection's peer credentials
//! must match it (our uid; its pid or a descendant, see [`peer`](super::peer)); anyone
//! else is closed, logged and we keep waiting (the caller bounds the wait). After the
//! match, later connections are accepted and dropped until close.
//! Unix: the socket `lsp.sock` in a fresh private dir `<tmp>/adt-ls-pipe-<12hex>` (0700
//! from creation, so under any umask no other uid can even reach it). The path is kept
//! short because macOS limits `sun_path` to 104 bytes (Linux 108; a longer path makes
//! adt-lsc never connect): when `<tmp>` is too long the dir goes to `/tmp` (or
//! `$XDG_RUNTIME_DIR`), whichever can be trusted. Windows: the
//! named pipe `\\.\pipe\adt-ls-<12hex>`, created as the first instance of its name, refusing
//! remote clients, with a DACL for the current user only
//! ([`win_pipe_security`](super::win_pipe_security)).

use crate::kernel::error::{Error, Result};
use crate::kernel::host::HostEnv;
use crate::kernel::ids;
use crate::lsp::DirectWriter;
use crate::safe_fs::Dir;
use std::path::{Path, PathBuf};
use tokio::io::{AsyncRead, AsyncWrite};

/// A connected byte stream, whatever the platform's pipe type.
pub(crate) trait PipeStream: AsyncRead + AsyncWrite + Send + Unpin + 'static {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin + 'static> PipeStream for T {}

/// The accepted connection: a stream for the connection's reader and writer tasks, or
/// (Unix, when the caller reads the socket itself) the writing side and a dup to read.
pub(crate) enum Transport {
    Stream(Box<dyn PipeStream>),
    #[cfg(unix)]
    Fed {
        writer: crate::lsp::unix_socket::UnixWriter,
        read_side: std::os::unix::net::UnixStream,
    },
}

/// Longest socket path we accept (macOS `sun_path` is 104 bytes including the NUL).
#[cfg(unix)]
const MAX_SOCKET_PATH: usize = 103;
/// The socket's name inside its private dir.
#[cfg(unix)]
const SOCKET_NAME: &str = "lsp.sock";

pub(crate) struct PipeListener {
    address: String,
    /// The private dir holding the socket (Unix), removed by the owner on teardown.
    dir: Option<PathBuf>,
    #[cfg(unix)]
    listener: Option<tokio::net::UnixListener>,
    #[cfg(windows)]
    server: Option<tokio::net::windows::named_pipe::NamedPipeServer>,
}

/// Whether a socket dir in `base` keeps the socket path within `sun_path`.
pub(crate) fn socket_fits(base: &Path) -> bool {
    #[cfg(unix)]
    {
        // `<base>/adt-ls-pipe-<12hex>/lsp.sock`
        let suffix = 1 + super::owner::PIPE_PREFIX.len() + 12 + 1 + SOCKET_NAME.len();
        base.as_os_str().len() + suffix <= MAX_SOCKET_PATH
    }
    #[cfg(not(unix))]
    {
        let _ = base;
        true
    }
}

/// Where the socket dir goes: the trusted temp dir, or when a socket path under it would
/// be too long, `/tmp` or `$XDG_RUNTIME_DIR` (whichever fits and can be trusted).
pub(crate) fn socket_base(temp: &Dir, host: &HostEnv) -> Result<Dir> {
    crate::safe_fs::temp::socket_container(temp, host, socket_fits)
}

impl PipeListener {
    /// Choose a fresh address (a socket in a private dir created in `base`, see
    /// [`socket_base`], on Unix) and listen on it. The dir is recorded for the exit-time
    /// cleanup.
    pub(crate) fn bind(base: &Dir) -> Result<PipeListener> {
        let id = ids::short_id()?;
        Self::bind_id(base, &id)
    }

    #[cfg(unix)]
    fn bind_id(base: &Dir, id: &str) -> Result<PipeListener> {
        let name = format!("{}{id}", super::owner::PIPE_PREFIX);
        let dir = super::dirs::create_owned_dir(base, &name)?;
        let path = dir.join(SOCKET_NAME);
        match tokio::net::UnixListener::bind(&path) {
            Ok(listener) => Ok(PipeListener {
                address: path.to_string_lossy().into_owned(),
                dir: Some(dir),
                listener: Some(listener),
            }),
            Err(e) => {
                Self::remove_dir(&dir);
                Err(Error::from(e).prefixed(&format!("listen {}: ", path.display())))
            }
        }
    }

    #[cfg(windows)]
    fn bind_id(_base: &Dir, id: &str) -> Result<PipeListener> {
        let address = format!(r"\\.\pipe\adt-ls-{id}");
        let server = create_instance(&address, true)
            .map_err(|e| e.prefixed(&format!("listen {address}: ")))?;
        Ok(PipeListener {
            address,
            dir: None,
            server: Some(server),
        })
    }

    /// The private dir holding the socket (Unix); `None` for named pipes.
    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The `--pipe=` address.
    pub(crate) fn address(&self) -> &str {
        &self.address
    }

    /// Wait for the child `child_pid` to connect: connections whose peer is not it are
    /// closed and logged. Later connections are accepted and dropped by a background task
    /// that ends when the returned [`PipeGuard`] is dropped.
    /// With `fed`, the reading side is handed out to be read by the caller.
    #[cfg(unix)]
    pub(crate) async fn accept_child(
        &mut self,
        child_pid: u32,
        fed: bool,
    ) -> Result<(Transport, Option<DirectWriter>, PipeGuard)> {
        let listener = self
            .listener
            .take()
            .ok_or_else(|| Error::new("pipe listener already used"))?;
        let stream = loop {
            let (stream, _) = listener.accept().await.map_err(Error::from)?;
            let verdict = match stream.peer_cred() {
                Ok(cred) => super::peer::judge(
                    super::peer::PeerCred {
                        uid: cred.uid(),
                        pid: cred.pid(),
                    },
                    super::peer::our_uid(),
                    child_pid,
                    |pid| super::peer::in_child_tree(pid, child_pid),
                ),
                Err(e) => Err(format!("peer credentials unavailable: {e}")),
            };
            match verdict {
                Ok(()) => break stream,
                Err(why) => {
                    crate::kernel::log::warn(format!(
                        "rejected a connection to the adt-ls socket {}: {why}",
                        self.address
                    ));
                    drop(stream);
                }
            }
        };
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    accepted = listener.accept() => if accepted.is_err() { break },
                    _ = &mut stopped => break,
                }
            }
        });
        // Registered for read readiness only, with a second handle (dup) for the
        // connection's direct writes (crate::lsp::unix_socket).
        let socket = stream.into_std().map_err(Error::from)?;
        let guard = PipeGuard { _stop: Some(stop) };
        if fed {
            let (writer, direct, read_side) =
                crate::lsp::unix_socket::fed_transport(socket).map_err(Error::from)?;
            let direct: DirectWriter = Box::new(direct);
            return Ok((Transport::Fed { writer, read_side }, Some(direct), guard));
        }
        let (transport, direct) =
            crate::lsp::unix_socket::transport(socket).map_err(Error::from)?;
        let direct: DirectWriter = Box::new(direct);
        Ok((Transport::Stream(Box::new(transport)), Some(direct), guard))
    }

    /// Windows: the first client of the named pipe (its ACL is set at creation).
    #[cfg(windows)]
    pub(crate) async fn accept_child(
        &mut self,
        child_pid: u32,
        fed: bool,
    ) -> Result<(Transport, Option<DirectWriter>, PipeGuard)> {
        let _ = (child_pid, fed);
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
        Ok((
            Transport::Stream(Box::new(server)),
            None,
            PipeGuard { _stop: Some(stop) },
        ))
    }

    /// Remove the socket's private dir (Unix); named pipes leave nothing behind.
    pub(crate) fn remove_dir(dir: &Path) {
        crate::safe_fs::remove_dir_all_quiet(dir);
        super::reaper::untrack_path(&dir.to_path_buf());
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
pub(crate) struct PipeGuard {
    _stop: Option<tokio::sync::oneshot::Sender<()>>,
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn temp() -> Dir {
        crate::safe_fs::open_container(
            &std::env::temp_dir(),
            "the temp dir",
            crate::safe_fs::Sharing::None,
        )
        .unwrap()
    }

    #[test]
    fn long_temp_dirs_fall_back_to_tmp() {
        assert!(socket_fits(Path::new("/var/tmp")));
        assert!(!socket_fits(&PathBuf::from(format!("/{}", "x".repeat(80)))));
        // The longest kept base still fits sun_path.
        let edge = PathBuf::from(format!("/{}", "y".repeat(103 - 34 - 1)));
        assert!(socket_fits(&edge));
        let listener_path = edge.join("adt-ls-pipe-0123456789ab").join(SOCKET_NAME);
        assert_eq!(listener_path.as_os_str().len(), MAX_SOCKET_PATH);
        let long = PathBuf::from(format!("/tmp/{}", "z".repeat(90)));
        std::fs::create_dir_all(&long).unwrap();
        let long_dir =
            crate::safe_fs::open_container(&long, "the temp dir", crate::safe_fs::Sharing::None)
                .unwrap();
        let base = socket_base(&long_dir, &HostEnv::default()).unwrap();
        assert_eq!(base.path(), std::fs::canonicalize("/tmp").unwrap());
        std::fs::remove_dir_all(&long).unwrap();
    }

    #[tokio::test]
    async fn socket_lives_in_a_private_dir_and_only_our_own_tree_gets_in() {
        let mut listener = PipeListener::bind(&temp()).unwrap();
        let address = listener.address().to_string();
        let dir = listener.dir().unwrap().to_path_buf();
        assert!(address.len() <= MAX_SOCKET_PATH);
        assert!(address.ends_with("/lsp.sock"));
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        // A peer that is not the child (we pretend the child is pid 1's tree, which this
        // test process is not part of) is closed without a byte.
        let foreign = tokio::spawn({
            let address = address.clone();
            async move {
                let mut s = tokio::net::UnixStream::connect(&address).await.unwrap();
                let mut buf = Vec::new();
                let n = s.read_to_end(&mut buf).await.unwrap_or(0);
                n
            }
        });
        let waited = tokio::time::timeout(
            std::time::Duration::from_millis(500),
            listener.accept_child(999_999_999, false),
        )
        .await;
        assert!(waited.is_err(), "a foreign peer must not be accepted");
        let n = tokio::time::timeout(std::time::Duration::from_secs(5), foreign)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(n, 0);
        PipeListener::remove_dir(&dir);
        assert!(!dir.exists());
    }

    #[tokio::test]
    async fn the_child_itself_wins_and_later_ones_are_dropped() {
        let mut listener = PipeListener::bind(&temp()).unwrap();
        let address = listener.address().to_string();
        let dir = listener.dir().unwrap().to_path_buf();
        let client = tokio::spawn({
            let address = address.clone();
            async move { tokio::net::UnixStream::connect(&address).await.unwrap() }
        });
        // We are the "child" here: our own pid passes.
        let (transport, direct, guard) = listener
            .accept_child(std::process::id(), false)
            .await
            .unwrap();
        let Transport::Stream(mut server_side) = transport else {
            panic!("a stream was asked for");
        };
        assert!(direct.is_some(), "Unix sockets get a direct-write handle");
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
        PipeListener::remove_dir(&dir);
        assert!(!dir.exists());
    }
}
