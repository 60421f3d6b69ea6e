//! Who may be adt-ls on our socket: a peer running as our uid whose pid is the child we
//! spawned or one of its descendants (adt-lsc is a native launcher that may fork or exec the
//! JVM; the simulator's launcher is a shell script that execs Node). Credentials come from
//! tokio's `peer_cred` (Linux `SO_PEERCRED`; macOS `getpeereid` plus `LOCAL_PEEREPID`).
//! Descendants are recognised by process group (the child leads its own group, which its
//! tree inherits) or, on Linux, by walking the parent chain in `/proc`.

/// What the kernel told us about a connected peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PeerCred {
    pub uid: u32,
    /// `None` where the platform cannot tell.
    pub pid: Option<i32>,
}

/// How far up the parent chain we look for the child.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // the parent chain is read from /proc (Linux)
const MAX_ANCESTRY: usize = 64;

/// Accept `peer` as the child `child_pid` (running as `our_uid`)? `Err` says why not.
/// `in_tree(pid)` answers whether a pid belongs to the child's process tree.
pub(crate) fn judge(
    peer: PeerCred,
    our_uid: u32,
    child_pid: u32,
    in_tree: impl Fn(u32) -> bool,
) -> Result<(), String> {
    if peer.uid != our_uid {
        return Err(format!("uid {} is not ours ({our_uid})", peer.uid));
    }
    let Some(pid) = peer.pid else {
        // uid is all the platform tells (older macOS): same uid is outside the threat model.
        return Ok(());
    };
    let Ok(pid) = u32::try_from(pid) else {
        return Err(format!("pid {pid} is not adt-ls (pid {child_pid})"));
    };
    if pid != 0 && (pid == child_pid || in_tree(pid)) {
        Ok(())
    } else {
        Err(format!(
            "pid {pid} is not adt-ls (pid {child_pid}) or one of its processes"
        ))
    }
}

/// Whether `target` is on `pid`'s parent chain, given a parent lookup. Bounded.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // the parent chain is read from /proc (Linux)
pub(crate) fn has_ancestor(pid: u32, target: u32, parent_of: impl Fn(u32) -> Option<u32>) -> bool {
    let mut current = pid;
    for _ in 0..MAX_ANCESTRY {
        match parent_of(current) {
            Some(parent) if parent == target => return true,
            Some(parent) if parent > 1 && parent != current => current = parent,
            _ => return false,
        }
    }
    false
}

/// Whether `pid` is in the process tree of `child_pid` (its group, or below it).
pub(crate) fn in_child_tree(pid: u32, child_pid: u32) -> bool {
    in_child_group(pid, child_pid) || in_child_ancestry(pid, child_pid)
}

#[cfg(unix)]
fn in_child_group(pid: u32, child_pid: u32) -> bool {
    let (Ok(pid), Ok(child)) = (libc::pid_t::try_from(pid), libc::pid_t::try_from(child_pid))
    else {
        return false;
    };
    // SAFETY: getpgid only reads the kernel's process table; -1 on error.
    let pgid = unsafe { libc::getpgid(pid) };
    pgid > 0 && pgid == child
}

#[cfg(not(unix))]
fn in_child_group(_pid: u32, _child_pid: u32) -> bool {
    false
}

#[cfg(target_os = "linux")]
fn in_child_ancestry(pid: u32, child_pid: u32) -> bool {
    has_ancestor(pid, child_pid, |p| {
        std::fs::read_to_string(format!("/proc/{p}/stat"))
            .ok()
            .and_then(|stat| super::owner::parse_proc_ppid(&stat))
    })
}

#[cfg(not(target_os = "linux"))]
fn in_child_ancestry(_pid: u32, _child_pid: u32) -> bool {
    false
}

/// Our effective uid.
#[cfg(unix)]
pub(crate) fn our_uid() -> u32 {
    // SAFETY: geteuid has no failure mode.
    unsafe { libc::geteuid() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_uid_and_the_childs_tree_are_accepted() {
        let never = |_| false;
        let me = 1000;
        let child = 500;
        let cred = |uid, pid| PeerCred { uid, pid };
        assert!(judge(cred(me, Some(500)), me, child, never).is_ok());
        assert!(judge(cred(me, Some(501)), me, child, |p| p == 501).is_ok());
        assert!(judge(cred(me, None), me, child, never).is_ok());
        let err = judge(cred(65534, Some(500)), me, child, never).unwrap_err();
        assert!(err.contains("uid 65534"), "{err}");
        let err = judge(cred(me, Some(777)), me, child, never).unwrap_err();
        assert!(err.contains("pid 777"), "{err}");
        assert!(judge(cred(me, Some(-1)), me, child, |_| true).is_err());
        assert!(judge(cred(me, Some(0)), me, child, |_| true).is_err());
    }

    #[test]
    fn ancestry_walk_is_bounded_and_stops_at_init() {
        // 30 -> 20 -> 10 -> 1
        let parent = |p| match p {
            30 => Some(20),
            20 => Some(10),
            10 => Some(1),
            _ => None,
        };
        assert!(has_ancestor(30, 10, parent));
        assert!(has_ancestor(30, 20, parent));
        assert!(!has_ancestor(30, 99, parent));
        assert!(!has_ancestor(10, 30, parent));
        // A cycle cannot loop forever.
        assert!(!has_ancestor(5, 99, |p| Some(if p == 5 { 6 } else { 5 })));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_grandchild_is_in_the_tree_and_we_are_not() {
        let mut sh = std::process::Command::new("/bin/sh")
            .args(["-c", "sleep 30; exit 0"])
            .spawn()
            .unwrap();
        let sh_pid = sh.id();
        let mut sleeper = None;
        for _ in 0..100 {
            sleeper = std::fs::read_dir("/proc").unwrap().flatten().find_map(|e| {
                let pid: u32 = e.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
                (crate::process::owner::parse_proc_ppid(&stat) == Some(sh_pid)).then_some(pid)
            });
            if sleeper.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let sleeper = sleeper.expect("sleep started");
        assert!(in_child_ancestry(sleeper, sh_pid));
        assert!(!in_child_tree(std::process::id(), sh_pid));
        // SAFETY: killing the sleep we started.
        unsafe { libc::kill(sleeper as libc::pid_t, libc::SIGKILL) };
        let _ = sh.kill();
        let _ = sh.wait();
    }
}
