//! The `jre.java` check: the selected adt-ls's bundled JRE starts. Runs the `java` next to the
//! JRE's `keytool` with `-version`, in the host's environment with stdin closed, reading at
//! most 64 KiB of each output and killing it when `--timeout-ms` passes. A JRE that cannot
//! start here (missing system libraries, a `noexec` mount, another architecture) stops
//! adt-ls too. The JVM's `Picked up …` echo of `JAVA_TOOL_OPTIONS` is left out of the report
//! (it can carry keystore passwords) and every line is redacted.

use super::report::Check;
use crate::kernel::host::HostEnv;
use crate::tls::jre;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};

const ID: &str = "jre.java";
const MAX_OUTPUT: usize = 64 * 1024;
const FIX: &str = "the bundled JRE must start for adt-ls to run: install the libraries adt-ls.libraries names, check that the install is not on a noexec mount and matches this machine's architecture, or reinstall SAP's ABAP extension";

/// The `java` of the JRE bundled with `adt_ls_bin`, if there is one.
pub(crate) fn java_path(adt_ls_bin: &Path) -> Option<PathBuf> {
    let tools = jre::resolve_jre_tools(adt_ls_bin).ok()?;
    let name = if cfg!(windows) { "java.exe" } else { "java" };
    Some(tools.keytool.parent()?.join(name))
}

/// Read `reader` to its end, keeping the first [`MAX_OUTPUT`] bytes.
async fn capped(mut reader: impl AsyncRead + Unpin) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    while let Ok(n) = reader.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        let room = MAX_OUTPUT.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..n.min(room)]);
    }
    kept
}

/// The lines worth reporting: no `Picked up …` echo, redacted, at most 20.
fn report_lines(stderr: &[u8], stdout: &[u8]) -> Vec<String> {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(stderr),
        String::from_utf8_lossy(stdout)
    );
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with("Picked up "))
        .take(20)
        .map(crate::kernel::redact::redact)
        .collect()
}

/// What running `java -version` gave.
enum Outcome {
    Exited(Option<i32>, Vec<String>),
    SpawnFailed(String),
    TimedOut,
}

async fn run(java: &Path, host: &HostEnv, timeout: Duration) -> Outcome {
    let mut cmd = tokio::process::Command::new(java);
    cmd.arg("-version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(vars) = &host.vars {
        cmd.env_clear()
            .envs(vars.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Outcome::SpawnFailed(e.to_string()),
    };
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        return Outcome::SpawnFailed("no output pipes".into());
    };
    let finished = tokio::time::timeout(timeout, async {
        let (stdout, stderr, status) = tokio::join!(capped(out), capped(err), child.wait());
        (stdout, stderr, status)
    })
    .await;
    match finished {
        Ok((stdout, stderr, status)) => Outcome::Exited(
            status.ok().and_then(|s| s.code()),
            report_lines(&stderr, &stdout),
        ),
        Err(_) => {
            let _ = child.start_kill();
            let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
            Outcome::TimedOut
        }
    }
}

/// The `java` section (inserted into the report's `jre`) and the check.
pub(crate) async fn examine(
    adt_ls_bin: &Path,
    host: &HostEnv,
    timeout: Duration,
) -> (Value, Check) {
    let Some(java) = java_path(adt_ls_bin) else {
        return (
            Value::Null,
            Check::skip(ID, "not run: no bundled JRE (see jre.keytool)"),
        );
    };
    let shown = java.display().to_string();
    if !java.is_file() {
        let check = Check::fail(ID, format!("{shown} is missing"), FIX);
        return (
            json!({ "path": shown, "exists": false, "started": false }),
            check,
        );
    }
    let ms = timeout.as_millis();
    let (section, check) = match run(&java, host, timeout).await {
        Outcome::Exited(Some(0), lines) => {
            let first = lines.first().cloned().unwrap_or_default();
            (
                json!({ "exitCode": 0, "version": first, "output": lines }),
                Check::ok(ID, format!("{shown} -version: {first}")),
            )
        }
        Outcome::Exited(code, lines) => {
            let what = code.map_or("was killed by a signal".to_string(), |c| {
                format!("exited with {c}")
            });
            let message = format!("{shown} -version {what}:\n{}", lines.join("\n"));
            (
                json!({ "exitCode": code, "version": null, "output": lines }),
                Check::fail(ID, message, FIX),
            )
        }
        Outcome::SpawnFailed(e) => (
            json!({ "exitCode": null, "version": null, "error": e }),
            Check::fail(ID, format!("{shown} cannot be started: {e}"), FIX),
        ),
        Outcome::TimedOut => (
            json!({ "exitCode": null, "version": null, "error": format!("no answer within {ms} ms") }),
            Check::fail(
                ID,
                format!("{shown} -version gave no answer within {ms} ms (killed)"),
                FIX,
            ),
        ),
    };
    let mut section = section;
    if let Value::Object(map) = &mut section {
        map.insert("path".into(), json!(shown));
        map.insert("exists".into(), json!(true));
        map.insert(
            "started".into(),
            json!(check.status == super::report::Status::Ok),
        );
    }
    (section, check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jvm_echo_of_java_tool_options_stays_out() {
        let lines = report_lines(b"Picked up JAVA_TOOL_OPTIONS: -Dkey.password=hunter22\nopenjdk version \"21.0.9\" 2025-10-21 LTS\n\n", b"");
        assert_eq!(lines, ["openjdk version \"21.0.9\" 2025-10-21 LTS"]);
    }
}
