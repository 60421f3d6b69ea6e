//! Owner marks and the stale-dir sweep. Every temp dir the engine creates (client work base,
//! driver data dir, LSP socket dir) holds a small marker file naming the process that made
//! it: pid, that process's start time (so a reused pid is told apart) and, on Linux, its pid
//! namespace (a dir shared with a container is never judged by a pid from another
//! namespace). A host killed by a signal cannot clean up, so the next start sweeps the temp
//! dir: a dir of ours (name pattern, a real dir owned by our uid, a valid marker) whose
//! owner process is gone is removed; anything else is left alone. A sweep has a budget
//! (names read, dirs judged, time), so a directory flooded with look-alike names cannot
//! slow a start down; successive sweeps go on where the last one stopped.
//!
//! Hand-written: the probe is a few lines of `/proc` parsing (Linux) or `kill(pid, 0)`
//! (elsewhere); no well-kept crate offers exactly "is this pid the same process as then".

use crate::kernel::ids;
use crate::safe_fs::Dir;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The marker file inside each owned dir.
pub(crate) const MARKER: &str = ".adt-ls-owner";
/// A marker longer than this is not ours.
const MAX_MARKER_BYTES: u64 = 512;
/// Name prefixes of the dirs the engine creates in the temp dir.
pub(crate) const CLIENT_PREFIX: &str = "adt-ls-client-";
pub(crate) const PIPE_PREFIX: &str = "adt-ls-pipe-";
pub(crate) const DATA_PREFIX: &str = "adt-ls-";

/// Who made a dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OwnerMark {
    pub pid: u32,
    /// Process start time (Linux: clock ticks since boot, `/proc/<pid>/stat` field 22).
    pub start: Option<u64>,
    /// Pid namespace (Linux: the `/proc/self/ns/pid` link text).
    pub ns: Option<String>,
}

/// What we know about a pid now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProcessState {
    /// No such process (or only a zombie).
    #[cfg_attr(not(unix), allow(dead_code))] // only the Unix process checks see a pid gone
    Gone,
    /// Running; its start time when the platform tells.
    Running { start: Option<u64> },
}

impl OwnerMark {
    /// The mark of this process.
    pub(crate) fn current() -> OwnerMark {
        let pid = std::process::id();
        OwnerMark {
            pid,
            start: match probe(pid) {
                ProcessState::Running { start } => start,
                ProcessState::Gone => None,
            },
            ns: pid_namespace(),
        }
    }

    /// `pid=<n>\nstart=<n>\nns=<text>\n` (absent fields omitted).
    pub(crate) fn render(&self) -> String {
        let mut out = format!("pid={}\n", self.pid);
        if let Some(start) = self.start {
            out.push_str(&format!("start={start}\n"));
        }
        if let Some(ns) = &self.ns {
            out.push_str(&format!("ns={ns}\n"));
        }
        out
    }

    /// Parse [`render`](Self::render)'s output; `None` for anything else.
    pub(crate) fn parse(text: &str) -> Option<OwnerMark> {
        let (mut pid, mut start, mut ns) = (None, None, None);
        for line in text.lines() {
            let (key, value) = line.split_once('=')?;
            match key {
                "pid" if pid.is_none() => pid = Some(value.parse::<u32>().ok()?),
                "start" if start.is_none() => start = Some(value.parse::<u64>().ok()?),
                "ns" if ns.is_none() && !value.is_empty() => ns = Some(value.to_string()),
                _ => return None,
            }
        }
        let pid = pid.filter(|p| *p > 0)?;
        Some(OwnerMark { pid, start, ns })
    }
}

/// Whether a dir marked `mark` was left by a process that is gone. `state` is the probe of
/// `mark.pid`, `our_ns` our pid namespace. Unsure means not stale.
pub(crate) fn is_stale(mark: &OwnerMark, state: &ProcessState, our_ns: Option<&str>) -> bool {
    if let (Some(theirs), Some(ours)) = (mark.ns.as_deref(), our_ns) {
        if theirs != ours {
            return false;
        }
    }
    match state {
        ProcessState::Gone => true,
        ProcessState::Running { start } => matches!(
            (mark.start, start),
            (Some(then), Some(now)) if then != *now
        ),
    }
}

/// Whether `name` is one of the dir names the engine creates in the temp dir.
pub(crate) fn is_our_dir_name(name: &str) -> bool {
    let hex_tail = |rest: &str, len: usize| {
        rest.len() == len
            && rest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    if let Some(rest) = name.strip_prefix(CLIENT_PREFIX) {
        return hex_tail(rest, 8);
    }
    if let Some(rest) = name.strip_prefix(PIPE_PREFIX) {
        return hex_tail(rest, 12);
    }
    name.strip_prefix(DATA_PREFIX)
        .is_some_and(|rest| hex_tail(rest, 12))
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // read from /proc on Linux; other systems ask their own APIs
/// Parse the state and start time out of a `/proc/<pid>/stat` line.
pub(crate) fn parse_proc_stat(stat: &str) -> Option<(char, u64)> {
    let (_, after) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the command: field 3 (state) is index 0, field 22 (starttime) index 19.
    let state = fields.first()?.chars().next()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((state, start))
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // read from /proc on Linux; other systems ask their own APIs
/// The parent pid from a `/proc/<pid>/stat` line (field 4).
pub(crate) fn parse_proc_ppid(stat: &str) -> Option<u32> {
    let (_, after) = stat.rsplit_once(')')?;
    after.split_whitespace().nth(1)?.parse().ok()
}

/// Probe a pid now.
pub(crate) fn probe(pid: u32) -> ProcessState {
    #[cfg(target_os = "linux")]
    {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => match parse_proc_stat(&stat) {
                Some(('Z', _)) | Some(('X', _)) => ProcessState::Gone,
                Some((_, start)) => ProcessState::Running { start: Some(start) },
                None => ProcessState::Running { start: None },
            },
            Err(_) if std::path::Path::new("/proc/self/stat").exists() => ProcessState::Gone,
            Err(_) => probe_by_signal(pid),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        probe_by_signal(pid)
    }
}

#[cfg(unix)]
fn probe_by_signal(pid: u32) -> ProcessState {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return ProcessState::Running { start: None };
    };
    // SAFETY: signal 0 only checks whether the pid exists; nothing is delivered.
    let rc = unsafe { libc::kill(pid, 0) };
    if rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH) {
        ProcessState::Running { start: None }
    } else {
        ProcessState::Gone
    }
}

#[cfg(not(unix))]
fn probe_by_signal(_pid: u32) -> ProcessState {
    // No cheap portable probe here: unsure means the dir is kept.
    ProcessState::Running { start: None }
}

/// Our pid namespace (Linux), e.g. `pid:[4026531836]`.
pub(crate) fn pid_namespace() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        std::fs::read_link("/proc/self/ns/pid")
            .ok()
            .map(|p| p.to_string_lossy().into_owned())
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Write our mark into a fresh dir we just created (0600, relative to its descriptor,
/// never following a link).
pub(crate) fn write_marker(dir: &Dir) -> crate::kernel::error::Result<()> {
    crate::safe_fs::create_new_file(dir, MARKER, OwnerMark::current().render().as_bytes())
}

/// The mark of `<container>/<name>` if it is a dir we may judge: a real dir (not a link)
/// owned by our uid holding a regular, small, well-formed marker file of ours. Everything
/// is opened relative to descriptors, without following links and without blocking.
fn read_mark(container: &Dir, name: &str) -> Option<OwnerMark> {
    let dir = container.open_own_child(std::ffi::OsStr::new(name))?;
    OwnerMark::parse(&crate::safe_fs::read_small_file(
        &dir,
        MARKER,
        MAX_MARKER_BYTES,
    )?)
}

/// At most this many names are read from a temp dir per sweep.
pub(crate) const SWEEP_NAMES: usize = 10_000;
/// At most this many dirs with our names are judged (and removed when stale) per sweep.
pub(crate) const SWEEP_CANDIDATES: usize = 64;
/// Judging stops once a sweep has taken this long ...
const SWEEP_TIME: Duration = Duration::from_millis(50);
/// ... but never before this many candidates were judged (so progress never depends on
/// the machine's load).
const SWEEP_MIN_CANDIDATES: usize = 8;

/// What one sweep did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct SweepReport {
    /// Names read from the directory.
    pub names_read: usize,
    /// True when reading stopped at [`SWEEP_NAMES`].
    pub names_truncated: bool,
    /// Names of ours among them.
    pub candidates: usize,
    /// Candidates judged this time.
    pub judged: usize,
    /// The dirs removed.
    pub removed: Vec<String>,
}

/// Up to `limit` of the `sorted` names that follow `cursor`, wrapping around to the first
/// ones: successive sweeps that pass on the last name judged cover every candidate.
pub(crate) fn window<'a>(sorted: &'a [String], cursor: &str, limit: usize) -> Vec<&'a String> {
    let start = sorted.partition_point(|n| n.as_str() <= cursor);
    sorted[start..]
        .iter()
        .chain(&sorted[..start])
        .take(limit)
        .collect()
}

/// Where the next sweep of each directory starts: per process, first at a random name, so
/// short-lived hosts that each sweep once still cover a large directory between them.
fn cursors() -> &'static Mutex<HashMap<PathBuf, String>> {
    static CURSORS: OnceLock<Mutex<HashMap<PathBuf, String>>> = OnceLock::new();
    CURSORS.get_or_init(Mutex::default)
}

/// Remove dirs of `container` that dead processes of this library left behind, within a
/// budget: at most [`SWEEP_NAMES`] names read and [`SWEEP_CANDIDATES`] of ours judged
/// (fewer after [`SWEEP_TIME`]), starting after where the previous sweep of this process
/// stopped; the rest is left to later starts. Best effort: errors only mean a dir stays.
pub(crate) fn sweep_stale(container: &Dir) -> SweepReport {
    let started = Instant::now();
    let Ok((names, names_truncated)) = container.names(SWEEP_NAMES) else {
        return SweepReport::default();
    };
    let mut ours: Vec<String> = names
        .iter()
        .filter_map(|n| n.to_str())
        .filter(|n| is_our_dir_name(n))
        .map(str::to_string)
        .collect();
    ours.sort_unstable();
    let key = container.path().to_path_buf();
    let cursor = {
        let mut all = cursors().lock().unwrap_or_else(|p| p.into_inner());
        all.entry(key.clone())
            .or_insert_with(|| format!("{DATA_PREFIX}{}", ids::random_hex(6).unwrap_or_default()))
            .clone()
    };
    let mut report = SweepReport {
        names_read: names.len(),
        names_truncated,
        candidates: ours.len(),
        ..SweepReport::default()
    };
    let me = std::process::id();
    let our_ns = pid_namespace();
    let mut last = None;
    for name in window(&ours, &cursor, SWEEP_CANDIDATES) {
        if report.judged >= SWEEP_MIN_CANDIDATES && started.elapsed() > SWEEP_TIME {
            break;
        }
        report.judged += 1;
        last = Some(name.clone());
        let Some(mark) = read_mark(container, name) else {
            continue;
        };
        if mark.pid == me && mark.ns == our_ns {
            continue;
        }
        if is_stale(&mark, &probe(mark.pid), our_ns.as_deref())
            && crate::safe_fs::remove_dir_all_quiet(&container.path().join(name))
        {
            report.removed.push(name.clone());
        }
    }
    if let Some(last) = last {
        cursors()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, last);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(pid: u32, start: Option<u64>, ns: Option<&str>) -> OwnerMark {
        OwnerMark {
            pid,
            start,
            ns: ns.map(str::to_string),
        }
    }

    #[test]
    fn marks_round_trip_and_junk_is_rejected() {
        for m in [
            mark(42, Some(123456), Some("pid:[4026531836]")),
            mark(7, None, None),
            mark(9, Some(1), None),
        ] {
            assert_eq!(OwnerMark::parse(&m.render()), Some(m.clone()));
        }
        for junk in [
            "",
            "pid=0\n",
            "pid=-1\n",
            "pid=abc\n",
            "start=5\n",
            "pid=1\npid=2\n",
            "pid=1\nextra=2\n",
            "pid=1\nstart=x\n",
            "hello",
        ] {
            assert_eq!(OwnerMark::parse(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn staleness_needs_the_owner_gone_or_replaced() {
        let m = mark(42, Some(100), Some("pid:[1]"));
        assert!(is_stale(&m, &ProcessState::Gone, Some("pid:[1]")));
        assert!(!is_stale(
            &m,
            &ProcessState::Running { start: Some(100) },
            Some("pid:[1]")
        ));
        // Same pid, other start time: the pid was reused, the owner is gone.
        assert!(is_stale(
            &m,
            &ProcessState::Running { start: Some(101) },
            Some("pid:[1]")
        ));
        // Unknown start time on either side: keep.
        assert!(!is_stale(
            &m,
            &ProcessState::Running { start: None },
            Some("pid:[1]")
        ));
        assert!(!is_stale(
            &mark(42, None, None),
            &ProcessState::Running { start: Some(5) },
            None
        ));
        // Another pid namespace: its pids mean nothing here.
        assert!(!is_stale(&m, &ProcessState::Gone, Some("pid:[2]")));
        assert!(is_stale(
            &mark(42, None, None),
            &ProcessState::Gone,
            Some("pid:[2]")
        ));
    }

    #[test]
    fn only_our_dir_names_are_candidates() {
        for ok in [
            "adt-ls-client-0a1b2c3d",
            "adt-ls-pipe-0123456789ab",
            "adt-ls-0123456789ab",
        ] {
            assert!(is_our_dir_name(ok), "{ok}");
        }
        for no in [
            "adt-ls-0123456789ab.sock",
            "adt-ls-client-0A1B2C3D",
            "adt-ls-client-",
            "adt-ls-native-t-abc",
            "adt-ls-pipe-0123",
            "adt-ls-0123456789abc",
            "other",
        ] {
            assert!(!is_our_dir_name(no), "{no}");
        }
    }

    #[test]
    fn proc_stat_lines_parse() {
        let line = "1234 (a (weird) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
        assert_eq!(parse_proc_stat(line), Some(('S', 987654)));
        assert_eq!(parse_proc_ppid(line), Some(1));
        assert_eq!(parse_proc_stat("garbage"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn probing_ourselves_and_a_dead_pid() {
        let me = OwnerMark::current();
        assert!(me.start.is_some() && me.ns.is_some());
        assert_eq!(probe(me.pid), ProcessState::Running { start: me.start });
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert_eq!(probe(pid), ProcessState::Gone);
    }

    #[cfg(unix)]
    fn container(path: &std::path::Path) -> Dir {
        crate::safe_fs::open_container(path, "the temp dir", crate::safe_fs::Sharing::None).unwrap()
    }

    #[cfg(unix)]
    fn scratch(tag: &str) -> PathBuf {
        let base = std::env::temp_dir().join(format!(
            "adt-ls-sweep-{tag}-{}",
            crate::kernel::ids::random_hex(4).unwrap()
        ));
        std::fs::create_dir_all(&base).unwrap();
        base
    }

    #[cfg(unix)]
    fn dead_pid() -> u32 {
        let mut dead = std::process::Command::new("true").spawn().unwrap();
        let pid = dead.id();
        dead.wait().unwrap();
        pid
    }

    #[test]
    fn the_window_starts_after_the_cursor_and_wraps() {
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let got = |cursor, limit| -> Vec<&str> {
            window(&names, cursor, limit)
                .into_iter()
                .map(String::as_str)
                .collect()
        };
        assert_eq!(got("", 2), ["a", "b"]);
        assert_eq!(got("b", 2), ["c", "d"]);
        assert_eq!(got("bb", 2), ["c", "d"]);
        assert_eq!(got("d", 3), ["e", "a", "b"]);
        assert_eq!(got("z", 9), ["a", "b", "c", "d", "e"]);
        assert!(window(&[], "x", 3).is_empty());
    }

    proptest::proptest! {
        #[test]
        fn successive_windows_cover_every_name(
            set in proptest::collection::btree_set("[a-f0-9]{1,4}", 0..120),
            limit in 1usize..40,
            cursor in "[a-g0-9]{0,4}",
        ) {
            let sorted: Vec<String> = set.into_iter().collect();
            let mut seen = std::collections::HashSet::new();
            let mut cursor = cursor;
            for _ in 0..sorted.len().div_ceil(limit) {
                let got = window(&sorted, &cursor, limit);
                proptest::prop_assert!(got.len() == limit.min(sorted.len()));
                if let Some(last) = got.last() {
                    cursor = (*last).clone();
                }
                seen.extend(got.into_iter().cloned());
            }
            proptest::prop_assert_eq!(seen.len(), sorted.len());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_sweep_judges_a_bounded_number_of_dirs_and_the_next_goes_on() {
        let base = scratch("budget");
        let ns = pid_namespace();
        let stale = mark(dead_pid(), Some(1), ns.as_deref()).render();
        let total = SWEEP_CANDIDATES * 2 + 10;
        for i in 0..total {
            let dir = base.join(format!("adt-ls-{i:012x}"));
            std::fs::create_dir(&dir).unwrap();
            std::fs::write(dir.join(MARKER), &stale).unwrap();
        }
        let dir = container(&base);
        let mut removed = std::collections::HashSet::new();
        for _ in 0..total {
            let report = sweep_stale(&dir);
            assert!(report.judged <= SWEEP_CANDIDATES, "{report:?}");
            assert!(report.judged >= SWEEP_MIN_CANDIDATES.min(report.candidates));
            assert_eq!(report.candidates, total - removed.len());
            for name in report.removed {
                assert!(removed.insert(name), "removed twice");
            }
            if removed.len() == total {
                break;
            }
        }
        assert_eq!(
            removed.len(),
            total,
            "later sweeps go on where the last stopped"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_sweep_reads_a_bounded_number_of_names() {
        let base = scratch("names");
        for i in 0..SWEEP_NAMES + 5 {
            std::fs::create_dir(base.join(format!("x{i}"))).unwrap();
        }
        let report = sweep_stale(&container(&base));
        assert_eq!(report.names_read, SWEEP_NAMES);
        assert!(report.names_truncated);
        assert_eq!(report.candidates, 0);
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn sweep_removes_only_dead_owners_dirs() {
        let base = scratch("test");
        let dead_pid = dead_pid();
        let make = |name: &str, marker: Option<String>| {
            let dir = base.join(name);
            std::fs::create_dir(&dir).unwrap();
            if let Some(text) = marker {
                std::fs::write(dir.join(MARKER), text).unwrap();
            }
            dir
        };
        let ns = pid_namespace();
        let stale = make(
            "adt-ls-client-00000001",
            Some(mark(dead_pid, Some(1), ns.as_deref()).render()),
        );
        let mut alive = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let ProcessState::Running { start } = probe(alive.id()) else {
            panic!("sleep is not running");
        };
        let live = make(
            "adt-ls-pipe-000000000002",
            Some(mark(alive.id(), start, ns.as_deref()).render()),
        );
        let mine = make("adt-ls-000000000004", Some(OwnerMark::current().render()));
        let unmarked = make("adt-ls-000000000003", None);
        let foreign_name = make("something-else", Some(mark(dead_pid, None, None).render()));
        let report = sweep_stale(&container(&base));
        assert_eq!(report.removed, vec!["adt-ls-client-00000001".to_string()]);
        assert_eq!((report.candidates, report.judged), (4, 4));
        assert!(!stale.exists());
        assert!(live.exists() && unmarked.exists() && foreign_name.exists() && mine.exists());
        let _ = alive.kill();
        let _ = alive.wait();
        std::fs::remove_dir_all(&base).unwrap();
    }
}
