//! The checking primitives on a real file system: links, FIFOs (with and without a reader,
//! never blocking), devices, another user's files (as root, chowned to `nobody`), files
//! and dirs writable by others, and containers that are world-writable without the sticky
//! bit, for every operation that opens or creates.

#![cfg(unix)]

use super::*;
use crate::kernel::host::HostEnv;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::time::Duration;

const NOBODY: u32 = 65534;

struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "adt-ls-safe-fs-{tag}-{}",
            crate::kernel::ids::random_hex(4).unwrap()
        ));
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        Scratch(dir)
    }
    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    /// A file `name` holding `content`.
    fn file(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, content).unwrap();
        path
    }
    /// A symlink `name` pointing at `target`.
    fn link(&self, name: &str, target: impl AsRef<Path>) -> PathBuf {
        let path = self.join(name);
        symlink(target, &path).unwrap();
        path
    }
    fn dir(&self, name: &str, mode: u32) -> PathBuf {
        let dir = self.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        chmod(&dir, mode);
        dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn mode_of(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
}

fn as_root() -> bool {
    imp::our_uid() == 0
}

fn chown_nobody(path: &Path) {
    std::os::unix::fs::lchown(path, Some(NOBODY), Some(NOBODY)).unwrap();
}

/// The refusal's `reason`, failing the test on success or on another error.
fn reason<T: std::fmt::Debug>(result: Result<T>) -> String {
    let err = result.expect_err("must be refused");
    assert!(err.has_code(codes::UNSAFE_PATH), "{err:?}");
    err.details()
        .iter()
        .find(|(k, _)| *k == "reason")
        .and_then(|(_, v)| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Run `f` on a thread and fail (instead of hanging) when it has not returned in 20 s.
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("the open blocked")
}

#[test]
fn appending_refuses_links_fifos_devices_and_files_others_may_write() {
    let s = Scratch::new("append");
    let target = s.file("mine.txt", "keep\n");
    let link = s.link("link.jsonl", &target);
    assert_eq!(reason(open_append(&link, "the trace file")), "symlink");
    let dangling = s.link("dangling.jsonl", s.join("nowhere"));
    assert_eq!(reason(open_append(&dangling, "the trace file")), "symlink");
    assert!(
        !s.join("nowhere").exists(),
        "a dangling link is not followed"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep\n");

    let fifo = s.join("fifo.jsonl");
    mkfifo(&fifo);
    let lone = fifo.clone();
    let err = bounded(move || open_append(&lone, "the trace file"));
    assert_eq!(reason(err), "not-regular");
    // With a reader the open itself succeeds; fstat on the descriptor refuses it.
    let reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let read_side = fifo.clone();
    let err = bounded(move || open_append(&read_side, "the trace file"));
    assert_eq!(reason(err), "not-regular");
    drop(reader);

    assert_eq!(
        reason(open_append(Path::new("/dev/null"), "the trace file")),
        "not-regular"
    );
    assert_eq!(reason(open_append(&s.0, "the trace file")), "not-regular");

    for mode in [0o666, 0o620, 0o602] {
        let shared = s.join(&format!("shared-{mode:o}.jsonl"));
        std::fs::write(&shared, "").unwrap();
        chmod(&shared, mode);
        assert_eq!(
            reason(open_append(&shared, "the trace file")),
            "writable-by-others"
        );
    }
}

use std::os::unix::fs::OpenOptionsExt;

#[test]
fn appending_creates_0600_and_appends_to_a_file_of_ours() {
    let s = Scratch::new("append-ok");
    let fresh = s.join("new.jsonl");
    let mut file = open_append(&fresh, "the trace file").unwrap();
    file.write_all(b"a\n").unwrap();
    assert_eq!(mode_of(&fresh), 0o600);
    let readable = s.file("readable.jsonl", "x\n");
    chmod(&readable, 0o644);
    let mut file = open_append(&readable, "the trace file").unwrap();
    file.write_all(b"y\n").unwrap();
    assert_eq!(std::fs::read_to_string(&readable).unwrap(), "x\ny\n");
    assert_eq!(mode_of(&readable), 0o644, "an existing file keeps its mode");
    // A relative path resolves from the current directory.
    let cwd = std::env::current_dir().unwrap();
    let relative = fresh.strip_prefix(&cwd).map(Path::to_path_buf);
    if let Ok(relative) = relative {
        assert!(open_append(&relative, "the trace file").is_ok());
    }
}

#[test]
fn a_file_in_a_world_writable_dir_without_the_sticky_bit_is_refused() {
    let s = Scratch::new("parent");
    let open_dir = s.dir("open", 0o777);
    let err = open_append(&open_dir.join("t.jsonl"), "the trace file").unwrap_err();
    assert!(err.has_code(codes::UNSAFE_PATH));
    assert!(
        err.message
            .contains(&format!("its directory {}", open_dir.display())),
        "{}",
        err.message
    );
    assert_eq!(reason(Err::<(), _>(err)), "unsafe-parent");
    assert!(
        !open_dir.join("t.jsonl").exists(),
        "nothing is created there"
    );
    // Deeper: the ancestor is at fault even when the parent itself is private.
    let deep = s.dir("open/inner", 0o700);
    assert_eq!(
        reason(open_append(&deep.join("t.jsonl"), "the trace file")),
        "unsafe-parent"
    );
    // The sticky bit makes a shared dir a safe container; group-writable is accepted for a
    // file's directory.
    let sticky = s.dir("sticky", 0o1777);
    assert!(open_append(&sticky.join("t.jsonl"), "the trace file").is_ok());
    let group = s.dir("group", 0o770);
    assert!(open_append(&group.join("t.jsonl"), "the trace file").is_ok());
}

#[test]
fn files_and_dirs_of_another_user_are_refused() {
    if !as_root() {
        crate::kernel::test_skip::skip("needs root to chown a file to nobody");
        return;
    }
    let s = Scratch::new("foreign");
    let theirs = s.file("theirs.jsonl", "");
    chmod(&theirs, 0o600);
    chown_nobody(&theirs);
    assert_eq!(
        reason(open_append(&theirs, "the trace file")),
        "foreign-owner"
    );
    assert_eq!(std::fs::metadata(&theirs).unwrap().len(), 0);
    let their_dir = s.dir("their-dir", 0o755);
    chown_nobody(&their_dir);
    assert_eq!(
        reason(open_append(&their_dir.join("t.jsonl"), "the trace file")),
        "unsafe-parent"
    );
    assert_eq!(
        reason(ensure_private_dir_all(&their_dir, "the data dir")),
        "foreign-owner"
    );
    assert_eq!(
        mode_of(&their_dir),
        0o755,
        "another user's dir is not chmodded"
    );
    // A sticky, world-writable dir owned by another user is no safe container either.
    let their_sticky = s.dir("their-sticky", 0o1777);
    chown_nobody(&their_sticky);
    assert_eq!(
        reason(open_container(&their_sticky, "the temp dir", Sharing::None)),
        "foreign-owner"
    );
}

#[test]
fn a_data_dir_that_is_a_link_is_refused_and_its_target_keeps_its_mode() {
    let s = Scratch::new("datadir");
    let target = s.dir("precious", 0o755);
    let link = s.link("data", &target);
    assert_eq!(
        reason(ensure_private_dir_all(&link, "the data dir")),
        "symlink"
    );
    assert_eq!(mode_of(&target), 0o755);
    let file = s.file("file", "");
    assert_eq!(
        reason(ensure_private_dir_all(&file, "the data dir")),
        "not-directory"
    );
    let shared = s.dir("shared", 0o777);
    assert_eq!(
        reason(ensure_private_dir_all(&shared, "the data dir")),
        "writable-by-others"
    );
    // Ours and 0755: narrowed to 0700. Missing levels: created 0700 each.
    let mine = s.dir("mine", 0o755);
    assert_eq!(ensure_private_dir_all(&mine, "the data dir").unwrap(), mine);
    assert_eq!(mode_of(&mine), 0o700);
    let deep = s.join("a/b/c");
    assert_eq!(ensure_private_dir_all(&deep, "the data dir").unwrap(), deep);
    for dir in [s.join("a"), s.join("a/b"), deep] {
        assert_eq!(mode_of(&dir), 0o700, "{}", dir.display());
    }
    // A link among the missing levels' ancestors leads to its target's real path.
    let via = s.link("via", &s.0);
    let made = ensure_private_dir_all(&via.join("x"), "the data dir").unwrap();
    assert_eq!(made, s.join("x"));
}

#[test]
fn private_files_are_written_0600_never_through_a_link() {
    let s = Scratch::new("private");
    let target = s.file("elsewhere", "keep");
    let link = s.link("truststore.p12", &target);
    assert_eq!(reason(write_private_file(&link, b"secret")), "symlink");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    let fifo = s.join("fifo.p12");
    mkfifo(&fifo);
    let lone = fifo.clone();
    assert_eq!(
        reason(bounded(move || write_private_file(&lone, b"x"))),
        "not-regular"
    );
    let existing = s.file("old.pem", "a much longer old content");
    chmod(&existing, 0o644);
    write_private_file(&existing, b"new").unwrap();
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "new");
    assert_eq!(mode_of(&existing), 0o600);
    chmod(&existing, 0o644);
    restrict_file(&existing).unwrap();
    assert_eq!(mode_of(&existing), 0o600);
    assert_eq!(reason(restrict_file(&link)), "symlink");
    // The directory must be ours alone.
    let shared = s.dir("shared", 0o777);
    assert_eq!(
        reason(write_private_file(&shared.join("k.pem"), b"x")),
        "unsafe-parent"
    );
    assert!(!shared.join("k.pem").exists());
}

#[test]
fn a_temp_dir_shared_without_the_sticky_bit_falls_back_to_a_private_one() {
    let s = Scratch::new("tmp");
    let open_tmp = s.dir("open-tmp", 0o777);
    let runtime = s.dir("runtime", 0o700);
    let host = |vars: Vec<(&str, &Path)>| HostEnv {
        vars: Some(
            vars.into_iter()
                .map(|(k, v)| (k.to_string(), v.display().to_string()))
                .collect(),
        ),
        home: None,
        cwd: None,
        temp_dir: Some(open_tmp.clone()),
    };
    assert_eq!(
        reason(open_container(&open_tmp, "the temp dir", Sharing::None)),
        "world-writable-without-sticky"
    );
    let chosen = temp::trusted_temp_dir(&host(vec![("XDG_RUNTIME_DIR", &runtime)])).unwrap();
    assert_eq!(chosen.path(), runtime.as_path());
    // A runtime dir others may enter is not private: the cache dir is used, created 0700.
    let loose = s.dir("loose-runtime", 0o755);
    let cache = s.join("cache");
    let chosen = temp::trusted_temp_dir(&host(vec![
        ("XDG_RUNTIME_DIR", &loose),
        ("XDG_CACHE_HOME", &cache),
    ]))
    .unwrap();
    assert_eq!(chosen.path(), cache.join("adt-ls-native/tmp").as_path());
    assert_eq!(mode_of(chosen.path()), 0o700);
    assert_eq!(mode_of(&cache.join("adt-ls-native")), 0o700);
    // Group-writable without the sticky bit is not trusted for temp dirs either; with it, it
    // is used as it is.
    chmod(&open_tmp, 0o770);
    let chosen = temp::trusted_temp_dir(&host(vec![("XDG_RUNTIME_DIR", &runtime)])).unwrap();
    assert_eq!(chosen.path(), runtime.as_path());
    chmod(&open_tmp, 0o1777);
    let chosen = temp::trusted_temp_dir(&host(vec![("XDG_RUNTIME_DIR", &runtime)])).unwrap();
    assert_eq!(chosen.path(), open_tmp.as_path());
}

#[test]
fn new_files_are_exclusive_and_small_files_read_back_only_when_ours_and_small() {
    let s = Scratch::new("marker");
    let dir = open_container(&s.0, "the dir", Sharing::None).unwrap();
    create_new_file(&dir, "mark", b"pid=1\n").unwrap();
    assert!(create_new_file(&dir, "mark", b"again")
        .unwrap_err()
        .has_code("EEXIST"));
    assert_eq!(mode_of(&s.join("mark")), 0o600);
    assert_eq!(
        read_small_file(&dir, "mark", 512).as_deref(),
        Some("pid=1\n")
    );
    assert_eq!(read_small_file(&dir, "mark", 3), None, "too large");
    symlink(s.join("mark"), s.join("link")).unwrap();
    assert_eq!(read_small_file(&dir, "link", 512), None);
    mkfifo(&s.join("fifo"));
    let held = dir.clone();
    assert_eq!(bounded(move || read_small_file(&held, "fifo", 512)), None);
}
