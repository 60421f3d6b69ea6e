//! Which format a run writes and where: `--format` must be one the command knows; without
//! it the format is `text` on a terminal and `json` otherwise, except for the commands whose
//! text is the content itself (`read`, `transport diff`), which default to `text`. The report
//! goes to `--output <file>` or stdout, and only the report goes there.

use super::args::{Format, OutputArgs};
use super::exit::Failure;
use std::io::Write;
use std::path::Path;

/// The format of this run.
pub(crate) fn format(
    out: &OutputArgs,
    command: &str,
    extra: &[Format],
    stdout_is_tty: bool,
    content_is_text: bool,
) -> Result<Format, Failure> {
    let Some(asked) = out.format else {
        let text = stdout_is_tty && out.output.is_none() || content_is_text;
        return Ok(if text { Format::Text } else { Format::Json });
    };
    if matches!(asked, Format::Text | Format::Json) || extra.contains(&asked) {
        return Ok(asked);
    }
    let mut known = vec!["text", "json"];
    known.extend(extra.iter().map(|f| f.name()));
    Err(Failure::usage(format!(
        "--format {} is not a format of {command} (it writes {})",
        asked.name(),
        known.join(", ")
    )))
}

/// Write the report to `--output` or stdout.
pub(crate) fn write(report: &str, output: Option<&Path>) -> Result<(), Failure> {
    match output {
        Some(path) => std::fs::write(path, report)
            .map_err(|e| Failure::usage(format!("--output {}: {e}", path.display()))),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(report.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| Failure::unavailable("output failed", format!("stdout: {e}")))
        }
    }
}

/// Pretty JSON with a final newline.
pub(crate) fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".into()) + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_by_terminal_and_checks_per_command() {
        let mut out = OutputArgs::default();
        assert_eq!(
            format(&out, "atc", &[Format::Sarif], true, false).unwrap(),
            Format::Text
        );
        assert_eq!(
            format(&out, "atc", &[Format::Sarif], false, false).unwrap(),
            Format::Json
        );
        assert_eq!(
            format(&out, "read", &[], false, true).unwrap(),
            Format::Text
        );
        out.format = Some(Format::Junit);
        let e = format(
            &out,
            "atc",
            &[Format::Sarif, Format::Checkstyle],
            false,
            false,
        )
        .unwrap_err();
        assert!(
            e.message.contains(
                "--format junit is not a format of atc (it writes text, json, sarif, checkstyle)"
            ),
            "{}",
            e.message
        );
        assert_eq!(
            format(&out, "unit", &[Format::Junit], true, false).unwrap(),
            Format::Junit
        );
    }
}
