//! Usage texts and how usage errors are shown: `adt-ls-native: <what is wrong>`, a blank
//! line, then the usage of the command concerned, on stderr with exit status 2 (the format
//! `doctor` has always used, so scripts that read it keep working).

use clap::error::ErrorKind;

/// The usage lines under `Usage:` (the first one is `doctor`'s, as it always was).
pub(crate) const USAGE_LINES: &str = "adt-ls-native doctor [options]
       adt-ls-native <command> [arguments] [options]";

/// Shown after the command list of `--help`.
pub(crate) const AFTER_HELP: &str = "\
Connection: --url (ADT_LS_URL), --client (ADT_LS_CLIENT), --user (ADT_LS_USER); the password
comes from ADT_LS_PASSWORD or --password-stdin, a bearer token from ADT_LS_BEARER_TOKEN;
--config <file> (default ./adt-ls.config.json) holds the same keys. Without --url the run is
in foundation mode.

Exit status: 0 success, 1 findings at or above --fail-on or failed tests, 2 usage error,
3 connection, logon or adt-ls failure, 130 interrupted. Every command: docs/cli.md.";

/// What a clap parse ended in that is not a command to run.
pub(crate) enum Early {
    /// `--help` / `--version`: print on stdout, exit 0.
    Print(String),
    /// A usage error: its message for stderr.
    Usage(String),
}

/// Turn a clap error into what to print; `usage` is the usage of the command concerned, for
/// the errors clap shows without one (a missing value).
pub(crate) fn from_clap(error: clap::Error, usage: &str) -> Early {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Early::Print(error.to_string()),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            Early::Usage(usage_error("missing command", &error.to_string()))
        }
        _ => Early::Usage(render(&error.to_string(), usage)),
    }
}

/// clap's rendering (`error: <message>\n\n[tip]\n\nUsage: ...\n\nFor more information...`)
/// in our shape: `adt-ls-native: usage error: <message>` and the rest, with the usage put in
/// where clap left it out.
fn render(clap_text: &str, usage: &str) -> String {
    let text = clap_text.strip_prefix("error: ").unwrap_or(clap_text);
    if text.contains("\nUsage: ") {
        return format!("adt-ls-native: usage error: {text}");
    }
    let (message, rest) = text.split_once("\n\n").unwrap_or((text.trim_end(), ""));
    let rest = match rest.trim_end() {
        "" => String::new(),
        more => format!("\n\n{more}"),
    };
    format!(
        "adt-ls-native: usage error: {message}\n\n{}{rest}\n",
        usage.trim_end()
    )
}

/// A usage error of our own with the usage text after it.
pub(crate) fn usage_error(message: &str, usage: &str) -> String {
    let usage = usage.trim_end();
    let usage = usage.find("Usage:").map_or(usage, |at| &usage[at..]);
    format!("adt-ls-native: usage error: {message}\n\n{usage}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_errors_read_as_our_usage_errors() {
        let text = render(
            "error: unexpected argument '--nope' found\n\nUsage: x\n",
            "Usage: y",
        );
        assert_eq!(
            text,
            "adt-ls-native: usage error: unexpected argument '--nope' found\n\nUsage: x\n"
        );
        let text = render(
            "error: a value is required\n\nFor more information, try '--help'.\n",
            "Usage: y\n",
        );
        assert_eq!(
            text,
            "adt-ls-native: usage error: a value is required\n\nUsage: y\n\nFor more information, try '--help'.\n"
        );
        let own = usage_error("missing command", "About\n\nUsage: a b\n\nMore\n");
        assert_eq!(
            own,
            "adt-ls-native: usage error: missing command\n\nUsage: a b\n\nMore\n"
        );
    }
}
