//! The `dir.temp` and `dir.data` checks: the directories adt-ls-native and adt-ls write to
//! are writable, with their free space. `dir.temp` is the host's `os.tmpdir()`, where the
//! engine makes its private work directory (adt-ls's `-data` directory, the truststore, the
//! LSP socket). `dir.data` is `--data-dir` (the `dataDir` a driver is given) or, without it,
//! the home directory, where the Eclipse runtime inside adt-ls keeps its configuration when
//! its install is read-only and the JVM its user preferences. Writability is probed by
//! creating and removing a private file; free space comes from `statvfs`
//! (`GetDiskFreeSpaceExW` on Windows). Under [`LOW_SPACE`] free bytes is a warning.

use super::report::Check;
use serde_json::{json, Value};
use std::path::Path;

/// Free space below which a directory gets a warning.
pub(crate) const LOW_SPACE: u64 = 256 * 1024 * 1024;

/// Free and total bytes of the file system holding `dir`.
#[cfg(unix)]
pub(crate) fn space(dir: &Path) -> Result<(u64, u64), String> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: `statvfs` is a plain C struct of integers, for which all-zero bytes are a valid
    // value.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a NUL-terminated path and `st` a writable statvfs for the call.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    let unit = st.f_frsize as u64;
    Ok((st.f_bavail as u64 * unit, st.f_blocks as u64 * unit))
}

/// Free and total bytes of the file system holding `dir`.
#[cfg(windows)]
pub(crate) fn space(dir: &Path) -> Result<(u64, u64), String> {
    use std::os::windows::ffi::OsStrExt;
    use windows_sys::Win32::Storage::FileSystem::GetDiskFreeSpaceExW;
    let wide: Vec<u16> = dir.as_os_str().encode_wide().chain(Some(0)).collect();
    let (mut free, mut total) = (0u64, 0u64);
    // SAFETY: `wide` is NUL-terminated; the out pointers are valid for the call.
    if unsafe { GetDiskFreeSpaceExW(wide.as_ptr(), &mut free, &mut total, std::ptr::null_mut()) }
        == 0
    {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok((free, total))
}

/// Create and remove a private file in `dir`.
fn probe_write(dir: &Path) -> Result<(), String> {
    let name = format!(
        ".adt-ls-native-doctor-{}",
        crate::kernel::ids::random_hex(6).map_err(|e| e.message)?
    );
    let path = dir.join(name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options
        .open(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"x"));
    let removed = std::fs::remove_file(&path);
    written.map_err(|e| e.to_string())?;
    removed.map_err(|e| format!("created a file but cannot remove it: {e}"))
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / 1_048_576.0)
}

/// The check `id` for `dir` (described as `what`) and its JSON row.
pub(crate) fn examine(
    id: &'static str,
    name: &str,
    dir: &Path,
    what: &str,
    fix: &str,
) -> (Value, Check) {
    let shown = dir.display().to_string();
    if !dir.is_dir() {
        let row = json!({ "id": name, "path": shown, "exists": false, "writable": false, "freeBytes": null, "totalBytes": null });
        return (
            row,
            Check::fail(
                id,
                format!("{shown} ({what}) does not exist or is not a directory"),
                fix,
            ),
        );
    }
    let writable = probe_write(dir);
    let space = space(dir);
    let row = json!({
        "id": name,
        "path": shown,
        "exists": true,
        "writable": writable.is_ok(),
        "error": writable.as_ref().err(),
        "freeBytes": space.as_ref().ok().map(|s| s.0),
        "totalBytes": space.as_ref().ok().map(|s| s.1),
    });
    let free = match &space {
        Ok((free, total)) => format!("{} free of {}", mib(*free), mib(*total)),
        Err(e) => format!("free space unknown: {e}"),
    };
    let check = match (&writable, &space) {
        (Err(e), _) => Check::fail(id, format!("{shown} ({what}) is not writable: {e}"), fix),
        (Ok(()), Ok((bytes, _))) if *bytes < LOW_SPACE => Check::warn(
            id,
            format!("{shown} ({what}) is writable, but only {free}"),
            format!("free space on {shown}'s file system (adt-ls's workspace index and logs need room), or point it elsewhere"),
        ),
        _ => Check::ok(id, format!("{shown} ({what}) is writable, {free}")),
    };
    (row, check)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::report::Status;

    #[test]
    fn a_writable_dir_with_its_space_a_missing_one_and_a_read_only_one() {
        let dir = std::env::temp_dir().join(format!(
            "adt-ls-native-writable-{}",
            crate::kernel::ids::random_hex(6).unwrap()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (row, check) = examine("dir.temp", "temp", &dir, "temp dir", "fix it");
        assert_eq!(row["writable"], true);
        assert!(row["freeBytes"].as_u64().unwrap() <= row["totalBytes"].as_u64().unwrap());
        assert_ne!(check.status, Status::Fail, "{}", check.message);
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "the probe file is removed"
        );

        let (row, check) = examine("dir.data", "data", &dir.join("nope"), "data dir", "fix it");
        assert_eq!(
            (row["exists"].clone(), check.status),
            (json!(false), Status::Fail)
        );
        assert!(
            check
                .message
                .ends_with("(data dir) does not exist or is not a directory"),
            "{}",
            check.message
        );

        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o500)).unwrap();
            let (_, check) = examine("dir.data", "data", &dir, "data dir", "fix it");
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
            // root writes anywhere: then the probe succeeds and the check is not a failure.
            // SAFETY: geteuid takes no arguments, touches no memory and cannot fail.
            let root = unsafe { libc::geteuid() } == 0;
            assert_eq!(check.status == Status::Fail, !root, "{}", check.message);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
