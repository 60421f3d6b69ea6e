//! Running the JRE's `keytool` (the truststore builder's fallback, docs/wire.md#truststore): spawned
//! directly (no shell), output captured, and the wait bounded.

use crate::kernel::error::{codes, Error, Result};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Upper bound for one keytool run (it normally takes about a second: JVM start-up).
pub(crate) const KEYTOOL_TIMEOUT: Duration = Duration::from_secs(60);
const POLL_INTERVAL: Duration = Duration::from_millis(25);
/// Keep only the end of keytool's output in error messages.
const OUTPUT_TAIL_CHARS: usize = 2_000;

/// `keytool -importcert -noprompt -keystore <store> -storepass <password> -alias <alias>
/// -file <cert_file>`, exactly as the reference runs it.
pub(crate) fn import_cert(
    keytool: &Path,
    store: &Path,
    password: &str,
    alias: &str,
    cert_file: &Path,
) -> Result<()> {
    let mut command = Command::new(keytool);
    command
        .arg("-importcert")
        .arg("-noprompt")
        .arg("-keystore")
        .arg(store)
        .arg("-storepass")
        .arg(password)
        .arg("-alias")
        .arg(alias)
        .arg("-file")
        .arg(cert_file);
    run(command, "keytool -importcert")
}

/// Run `command` to completion within [`KEYTOOL_TIMEOUT`]; a non-zero exit is an error that
/// carries the tail of the combined output.
pub(crate) fn run(mut command: Command, what: &str) -> Result<()> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| {
        let mut err = Error::from(e);
        err.message = format!("{what}: could not start keytool: {}", err.message);
        err
    })?;
    // Drain both pipes on helper threads so a chatty keytool can never block on a full pipe.
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= KEYTOOL_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Error::coded(
                    codes::TIMEOUT,
                    format!("{what} timed out after {}s", KEYTOOL_TIMEOUT.as_secs()),
                ));
            }
            Ok(None) => std::thread::sleep(POLL_INTERVAL),
            Err(e) => return Err(Error::from(e)),
        }
    };
    let mut output = String::new();
    for handle in [stdout, stderr].into_iter().flatten() {
        if let Ok(text) = handle.join() {
            output.push_str(&text);
        }
    }
    if status.success() {
        return Ok(());
    }
    let exit = status
        .code()
        .map_or_else(|| "a signal".to_string(), |c| format!("exit code {c}"));
    Err(Error::new(format!(
        "{what} failed with {exit}: {}",
        tail(output.trim(), OUTPUT_TAIL_CHARS)
    )))
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn tail(text: &str, max_chars: usize) -> &str {
    let count = text.chars().count();
    if count <= max_chars {
        return text;
    }
    let skip = text
        .char_indices()
        .nth(count - max_chars)
        .map_or(0, |(i, _)| i);
    &text[skip..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_end() {
        assert_eq!(tail("abcdef", 3), "def");
        assert_eq!(tail("abc", 3), "abc");
        assert_eq!(tail("äöüß", 2), "üß");
    }

    #[cfg(unix)]
    #[test]
    fn failures_carry_exit_code_and_output() {
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg("echo 'keytool error: boom'; exit 3");
        let err = run(command, "keytool -importcert").unwrap_err();
        assert_eq!(
            err.message,
            "keytool -importcert failed with exit code 3: keytool error: boom"
        );
    }

    #[test]
    fn a_missing_binary_is_reported() {
        let command = Command::new("/nonexistent/keytool");
        let err = run(command, "keytool -importcert").unwrap_err();
        assert!(err
            .message
            .starts_with("keytool -importcert: could not start keytool"));
        assert!(err.has_code("ENOENT"));
    }
}
