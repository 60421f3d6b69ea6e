//! Ctrl-C while a command runs. On Unix the run swaps in its own SIGINT handler (a write
//! of one byte to a socket pair, which is async-signal-safe) and puts the previous one back
//! when the last run ends, so outside a run SIGINT does what it did before. This is written
//! with `sigaction` directly rather than with signal-hook or tokio's signal support because
//! those chain to the handler that was there first, and Node's own SIGINT handler re-raises
//! the signal and ends the process, which is exactly what a run must not let happen before
//! it has cancelled its calls and disposed adt-ls. On Windows tokio's console Ctrl+C handler
//! is used for the run's duration (docs/cli.md#ctrl-c).

use std::sync::Mutex;
use tokio::sync::watch;

/// What the runs share: the signal count the handler's reader publishes, and how many runs
/// listen.
struct Shared {
    tx: watch::Sender<u64>,
    runs: usize,
    #[cfg(unix)]
    unix: Option<unix::Installed>,
    #[cfg(windows)]
    task: Option<tokio::task::JoinHandle<()>>,
}

static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

/// One run's subscription; dropping it ends the run's interest (the last one uninstalls).
pub(crate) struct Interrupts {
    rx: watch::Receiver<u64>,
    /// The count when the run began listening: any Ctrl-C after it counts.
    since: u64,
}

impl Interrupts {
    /// Listen for Ctrl-C for the length of a run. `None` when the handler cannot be set up
    /// (the run then works as before, without its own Ctrl-C handling).
    pub(crate) fn listen() -> Option<Interrupts> {
        let mut guard = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(shared) = guard.as_mut() {
            shared.runs += 1;
            let rx = shared.tx.subscribe();
            let since = *rx.borrow();
            return Some(Interrupts { rx, since });
        }
        let (tx, rx) = watch::channel(0u64);
        let shared = install(tx)?;
        *guard = Some(shared);
        Some(Interrupts { rx, since: 0 })
    }

    /// Resolves once a Ctrl-C came since [`Interrupts::listen`] (at once if one already did).
    pub(crate) async fn wait(&mut self) {
        let since = self.since;
        let _ = self.rx.wait_for(|n| *n != since).await;
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        let mut guard = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        let last = guard.as_mut().is_some_and(|s| {
            s.runs -= 1;
            s.runs == 0
        });
        if last {
            if let Some(shared) = guard.take() {
                uninstall(shared);
            }
        }
    }
}

#[cfg(unix)]
fn install(tx: watch::Sender<u64>) -> Option<Shared> {
    let unix = unix::Installed::new(tx.clone()).ok()?;
    Some(Shared {
        tx,
        runs: 1,
        unix: Some(unix),
    })
}

#[cfg(unix)]
fn uninstall(mut shared: Shared) {
    if let Some(installed) = shared.unix.take() {
        installed.restore();
    }
}

#[cfg(windows)]
fn install(tx: watch::Sender<u64>) -> Option<Shared> {
    let mut ctrl_c = tokio::signal::windows::ctrl_c().ok()?;
    let publish = tx.clone();
    let task = tokio::spawn(async move {
        while ctrl_c.recv().await.is_some() {
            publish.send_modify(|n| *n += 1);
        }
    });
    Some(Shared {
        tx,
        runs: 1,
        task: Some(task),
    })
}

#[cfg(windows)]
fn uninstall(mut shared: Shared) {
    if let Some(task) = shared.task.take() {
        task.abort();
    }
}

#[cfg(not(any(unix, windows)))]
fn install(_tx: watch::Sender<u64>) -> Option<Shared> {
    None
}

#[cfg(not(any(unix, windows)))]
fn uninstall(_shared: Shared) {}

#[cfg(unix)]
mod unix {
    use std::io;
    use std::os::fd::{AsRawFd, OwnedFd};
    use std::sync::atomic::{AtomicI32, Ordering};
    use tokio::io::AsyncReadExt;
    use tokio::sync::watch;

    /// The write end of the socket pair, for the handler (-1 when none is installed).
    static WRITE_FD: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_sigint(_signal: libc::c_int) {
        let fd = WRITE_FD.load(Ordering::Relaxed);
        if fd >= 0 {
            // SAFETY: write(2) is async-signal-safe; the buffer is a static byte.
            unsafe {
                libc::write(fd, b"i".as_ptr().cast(), 1);
            }
        }
    }

    pub(super) struct Installed {
        previous: libc::sigaction,
        _write: OwnedFd,
        reader: tokio::task::JoinHandle<()>,
    }

    impl Installed {
        pub(super) fn new(tx: watch::Sender<u64>) -> io::Result<Installed> {
            let (read, write) = std::os::unix::net::UnixStream::pair()?;
            read.set_nonblocking(true)?;
            write.set_nonblocking(true)?;
            let mut read = tokio::net::UnixStream::from_std(read)?;
            let write = OwnedFd::from(write);
            WRITE_FD.store(write.as_raw_fd(), Ordering::Relaxed);
            let previous = match swap_handler() {
                Ok(p) => p,
                Err(e) => {
                    WRITE_FD.store(-1, Ordering::Relaxed);
                    return Err(e);
                }
            };
            let reader = tokio::spawn(async move {
                let mut buf = [0u8; 64];
                while matches!(read.read(&mut buf).await, Ok(n) if n > 0) {
                    tx.send_modify(|n| *n += 1);
                }
            });
            Ok(Installed {
                previous,
                _write: write,
                reader,
            })
        }

        /// Put the previous handler back and stop listening.
        pub(super) fn restore(self) {
            // SAFETY: `previous` is what sigaction(2) handed back for SIGINT.
            unsafe {
                libc::sigaction(libc::SIGINT, &self.previous, std::ptr::null_mut());
            }
            WRITE_FD.store(-1, Ordering::Relaxed);
            self.reader.abort();
        }
    }

    /// Install [`on_sigint`] for SIGINT; the previous action.
    fn swap_handler() -> io::Result<libc::sigaction> {
        // SAFETY: zeroed sigaction structs are valid; the handler only calls write(2).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, &action, &mut previous) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(previous)
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sigint_handler() -> libc::sighandler_t {
        // SAFETY: querying the current action only.
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, std::ptr::null(), &mut current);
            current.sa_sigaction
        }
    }

    #[tokio::test]
    async fn a_sigint_during_a_run_is_seen_and_the_previous_handler_comes_back() {
        let before = sigint_handler();
        let mut run = Interrupts::listen().expect("installed");
        assert_ne!(
            sigint_handler(),
            before,
            "the run's own handler is in place"
        );
        // SAFETY: raise(3) sends SIGINT to this process, which the run's handler takes.
        unsafe {
            libc::raise(libc::SIGINT);
        }
        tokio::time::timeout(Duration::from_secs(30), run.wait())
            .await
            .expect("the run saw the SIGINT");
        let mut second = Interrupts::listen().expect("a second run shares the handler");
        drop(run);
        assert_ne!(
            sigint_handler(),
            before,
            "still installed while a run listens"
        );
        tokio::time::timeout(Duration::from_millis(50), second.wait())
            .await
            .expect_err("a Ctrl-C before the second run began is not its own");
        drop(second);
        assert_eq!(sigint_handler(), before, "the previous handler is back");
    }
}
