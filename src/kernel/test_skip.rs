//! Visible skips for Rust tests that need something a fresh machine may lack (keytool, java,
//! openssl, an IPv6 loopback, /proc). A skip is never a silent pass: it is written as
//! `SKIPPED: <test>: <reason>` straight to stderr (libtest's capture only swallows the
//! `print!` family, so the line shows even for a passing test) and appended to
//! `target/test-reports/rust-skips.txt`, which `npm test` lists at the end and CI
//! (`CI=true`) fails on unless `.ci/allowed-skips` allows it (`__test__/support/skips.mjs`).

use std::io::Write;

/// Where the Rust skip report goes (reset by `npm run test:rust`).
fn report_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("test-reports")
        .join("rust-skips.txt")
}

/// Record that the running test is skipped for `reason`; the caller then returns.
pub(crate) fn skip(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("unnamed test");
    let line = format!("{test}\t{reason}\n");
    let _ = std::io::stderr().write_all(format!("SKIPPED: {test}: {reason}\n").as_bytes());
    let path = report_path();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    {
        let _ = file.write_all(line.as_bytes());
    }
}

/// Whether `tool` runs (`tool probe_arg`); when it does not, the test is recorded as skipped.
pub(crate) fn tool_available(tool: &str, probe_arg: &str) -> bool {
    let ok = std::process::Command::new(tool)
        .arg(probe_arg)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok();
    if !ok {
        skip(&format!(
            "`{tool}` is not on PATH (run .ci/install-system-packages)"
        ));
    }
    ok
}
