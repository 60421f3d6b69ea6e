//! Killing a process tree by its leader's pid: the process group on Unix, the Job Object
//! (or `taskkill /T /F` without one) on Windows. Used by a running child and by the
//! exit-time reaper alike.

#[cfg(windows)]
use std::process::Stdio;

/// Kill a process tree by its leader's pid. Safe to call for a pid that has exited.
pub(crate) fn kill_tree(pid: u32) {
    if pid == 0 {
        return;
    }
    #[cfg(unix)]
    {
        let Ok(pgid) = libc::pid_t::try_from(pid) else {
            return;
        };
        // SAFETY: plain syscalls on a pid we spawned; errors (ESRCH) are ignored.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
            libc::kill(pgid, libc::SIGKILL);
        }
    }
    #[cfg(windows)]
    {
        if super::win_job::terminate(pid) {
            return;
        }
        // No job (assignment failed): taskkill. Wine's taskkill rejects /T, so the leader
        // alone is killed when the tree kill is refused.
        if !taskkill(&["/T", "/F", "/PID", &pid.to_string()]) {
            taskkill(&["/F", "/PID", &pid.to_string()]);
        }
    }
}

#[cfg(windows)]
fn taskkill(args: &[&str]) -> bool {
    use std::os::windows::process::CommandExt;
    const CREATE_NO_WINDOW: u32 = 0x0800_0000;
    std::process::Command::new("taskkill")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .creation_flags(CREATE_NO_WINDOW)
        .status()
        .is_ok_and(|s| s.success())
}
