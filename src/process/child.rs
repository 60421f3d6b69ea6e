//! The adt-ls child process: spawned without a shell, stdin closed, stdout and stderr
//! drained for its whole life (a JVM blocks once a pipe buffer fills) into an
//! [`OutputTail`], stderr chunks logged at debug as `[adt-ls] <chunk>`. It runs in its own
//! process group so the whole tree (launcher plus JVM) can be killed, it dies with the host on
//! Linux (`PR_SET_PDEATHSIG`) and on Windows (a kill-on-close Job Object, [`win_job`](super::win_job);
//! macOS has no equivalent: the reaper's exit hooks cover a normal Node exit, not a crash),
//! and it is tracked by the [`reaper`](super::reaper).

use super::kill::kill_tree;
use super::reaper;
use super::tail::OutputTail;
use crate::kernel::error::{Error, Result};
use crate::kernel::log;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::watch;

/// How the child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExitInfo {
    pub code: Option<i32>,
    pub signal: Option<i32>,
}

impl ExitInfo {
    /// `code <n>` or `code null` (killed by a signal), as Node reports exits.
    pub(crate) fn code_text(&self) -> String {
        match self.code {
            Some(c) => c.to_string(),
            None => "null".to_string(),
        }
    }

    /// `code 13` or `signal SIGKILL`.
    pub(crate) fn describe(&self) -> String {
        match (self.code, self.signal) {
            (Some(c), _) => format!("code {c}"),
            (None, Some(s)) => format!("signal {}", signal_name(s)),
            (None, None) => "code null".to_string(),
        }
    }

    /// The terminating signal's name (`SIGKILL`), when a signal ended the process.
    pub(crate) fn signal_text(&self) -> Option<String> {
        self.signal.map(signal_name)
    }
}

fn signal_name(sig: i32) -> String {
    match sig {
        1 => "SIGHUP".into(),
        2 => "SIGINT".into(),
        6 => "SIGABRT".into(),
        9 => "SIGKILL".into(),
        11 => "SIGSEGV".into(),
        15 => "SIGTERM".into(),
        n => format!("signal {n}"),
    }
}

pub(crate) struct ChildProcess {
    pid: u32,
    exit: watch::Receiver<Option<ExitInfo>>,
    output: Arc<OutputTail>,
    /// Counts the output pipes that reached EOF (2 when both are drained).
    drained: watch::Receiver<usize>,
}

/// Spawn `program` with `args` and the base environment (`None`: the OS's) overlaid with
/// `env`.
pub(crate) fn spawn(
    program: &Path,
    args: &[String],
    base_env: Option<&[(String, String)]>,
    env: &[(String, String)],
) -> Result<ChildProcess> {
    let mut cmd = tokio::process::Command::new(program);
    if let Some(base) = base_env {
        cmd.env_clear()
            .envs(base.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    }
    cmd.args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    configure_process_tree(&mut cmd);
    if reaper::is_exiting() {
        return Err(exiting_spawn_error(program));
    }
    let mut child = cmd.spawn().map_err(|e| spawn_error(program, e))?;
    let pid = child.id().unwrap_or(0);
    log::debug(format!("adt-ls spawned: pid {pid}"));
    if !reaper::track_pid(pid) {
        // The host began exiting while we spawned: nothing may outlive the cleanup.
        kill_tree(pid);
        return Err(exiting_spawn_error(program));
    }
    #[cfg(windows)]
    if !super::win_job::adopt(pid) {
        log::debug(format!(
            "adt-ls pid {pid}: no Job Object, taskkill is the only tree kill"
        ));
    }
    let output = Arc::new(OutputTail::new());
    let (drained_tx, drained) = watch::channel(0usize);
    let drained_tx = Arc::new(drained_tx);
    if let Some(stdout) = child.stdout.take() {
        tokio::spawn(drain(stdout, output.clone(), false, drained_tx.clone()));
    }
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(drain(stderr, output.clone(), true, drained_tx));
    }
    let (tx, rx) = watch::channel(None);
    tokio::spawn(async move {
        let info = match child.wait().await {
            Ok(status) => exit_info(status),
            Err(_) => ExitInfo {
                code: None,
                signal: None,
            },
        };
        reaper::untrack_pid(pid);
        #[cfg(windows)]
        super::win_job::release(pid);
        let _ = tx.send(Some(info));
    });
    Ok(ChildProcess {
        pid,
        exit: rx,
        output,
        drained,
    })
}

impl ChildProcess {
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    pub(crate) fn output(&self) -> &Arc<OutputTail> {
        &self.output
    }

    /// The exit status if the child has ended.
    pub(crate) fn exit_info(&self) -> Option<ExitInfo> {
        *self.exit.borrow()
    }

    /// A receiver that turns `Some` when the child ends.
    pub(crate) fn exit_watch(&self) -> watch::Receiver<Option<ExitInfo>> {
        self.exit.clone()
    }

    /// Wait (at most `limit`) until everything the child wrote has been read, so that error
    /// messages quote its last words.
    pub(crate) async fn wait_output_drained(&self, limit: Duration) {
        let mut rx = self.drained.clone();
        let _ = tokio::time::timeout(limit, async {
            let _ = rx.wait_for(|n| *n >= 2).await;
        })
        .await;
    }

    /// Wait for the exit, at most `limit`.
    pub(crate) async fn wait_exit(&self, limit: Duration) -> Option<ExitInfo> {
        let mut rx = self.exit.clone();
        let waited = tokio::time::timeout(limit, async {
            let _ = rx.wait_for(Option::is_some).await;
        })
        .await;
        let _ = waited;
        self.exit_info()
    }

    /// SIGKILL the process tree (Unix: the process group; Windows: its Job Object, else
    /// `taskkill /T /F`) and wait up to `limit` for the exit.
    pub(crate) async fn kill_and_wait(&self, limit: Duration) -> Option<ExitInfo> {
        if self.exit_info().is_none() {
            kill_tree(self.pid);
        }
        self.wait_exit(limit).await
    }
}

#[cfg(unix)]
fn configure_process_tree(cmd: &mut tokio::process::Command) {
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

#[cfg(windows)]
fn configure_process_tree(cmd: &mut tokio::process::Command) {
    const CREATE_NO_WINDOW: u32 = 0x0800_0000;
    cmd.creation_flags(CREATE_NO_WINDOW);
}

#[cfg(unix)]
fn exit_info(status: std::process::ExitStatus) -> ExitInfo {
    use std::os::unix::process::ExitStatusExt;
    ExitInfo {
        code: status.code(),
        signal: status.signal(),
    }
}

#[cfg(not(unix))]
fn exit_info(status: std::process::ExitStatus) -> ExitInfo {
    ExitInfo {
        code: status.code(),
        signal: None,
    }
}

fn exiting_spawn_error(program: &Path) -> Error {
    Error::coded(
        crate::kernel::error::codes::DISPOSED,
        format!(
            "the host process is exiting: not spawning {}",
            program.display()
        ),
    )
}

/// Node words spawn failures as `spawn <path> ENOENT`; keep that shape and the errno code.
fn spawn_error(program: &Path, e: std::io::Error) -> Error {
    let errno = crate::kernel::error::io_error_code(&e).unwrap_or("EIO");
    Error::coded(errno, format!("spawn {} {errno}", program.display()))
}

async fn drain<R: AsyncRead + Unpin>(
    mut pipe: R,
    tail: Arc<OutputTail>,
    is_stderr: bool,
    done: Arc<watch::Sender<usize>>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let chunk = String::from_utf8_lossy(&buf[..n]).into_owned();
                if is_stderr {
                    log::debug(format!("[adt-ls] {}", chunk.trim_end()));
                }
                tail.push(chunk);
            }
        }
    }
    done.send_modify(|n| *n += 1);
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn missing_binary_is_enoent_in_nodes_words() {
        let err = spawn(Path::new("/nonexistent/adt-ls"), &[], None, &[])
            .err()
            .unwrap();
        assert_eq!(err.message, "spawn /nonexistent/adt-ls ENOENT");
        assert!(err.has_code("ENOENT"));
    }

    #[tokio::test]
    async fn output_is_drained_and_exit_code_reported() {
        let child = spawn(
            Path::new("/bin/sh"),
            &["-c".into(), "echo out; echo err >&2; exit 3".into()],
            None,
            &[("X".into(), "1".into())],
        )
        .unwrap();
        let info = child.wait_exit(Duration::from_secs(5)).await.unwrap();
        assert_eq!(info.code, Some(3));
        tokio::time::sleep(Duration::from_millis(50)).await;
        let tail = child.output().last(12);
        assert!(tail.contains("out") && tail.contains("err"), "{tail}");
    }

    #[tokio::test]
    async fn kill_takes_the_whole_group() {
        if !Path::new("/proc").is_dir() {
            crate::kernel::test_skip::skip("no /proc to list the process group (Linux only)");
            return;
        }
        let child = spawn(
            Path::new("/bin/sh"),
            &["-c".into(), "sleep 30 & sleep 30".into()],
            None,
            &[],
        )
        .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let info = child.kill_and_wait(Duration::from_secs(5)).await.unwrap();
        assert_eq!(info.code, None);
        assert_eq!(info.describe(), "signal SIGKILL");
        // The background sleep was in the same group and is gone too (zombies waiting for
        // init to reap them do not count).
        let mut left = live_members(child.pid());
        for _ in 0..40 {
            if left.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            left = live_members(child.pid());
        }
        assert!(left.is_empty(), "still running: {left:?}");
    }

    /// Non-zombie processes in process group `pgid` (Linux /proc).
    fn live_members(pgid: u32) -> Vec<String> {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
                let fields: Vec<&str> = after.split_whitespace().collect();
                fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string()
            })
            .collect()
    }
}
