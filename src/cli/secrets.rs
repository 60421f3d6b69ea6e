//! Secrets never come from the command line, where other local users can read them (`ps`,
//! `/proc/<pid>/cmdline`): a password or token option is refused before anything is parsed,
//! with where to put it instead, and without echoing the value. The password is read from
//! `--password-stdin` (its first line, bounded) or `ADT_LS_PASSWORD`; a bearer token from
//! `ADT_LS_BEARER_TOKEN`.

use super::exit::Failure;
use std::io::Read;

/// Options that would carry a secret on the command line.
const REFUSED: &[&str] = &[
    "--password",
    "--passwd",
    "--pass",
    "--pw",
    "--token",
    "--bearer",
    "--bearer-token",
    "-p",
];

/// The most `--password-stdin` reads (a password is a line, not a file).
const STDIN_LIMIT: u64 = 4096;

/// The refusal for a secret-carrying option in `argv`, if there is one.
pub(crate) fn refuse_on_command_line(argv: &[String]) -> Option<Failure> {
    for arg in argv.iter().take_while(|a| *a != "--") {
        let name = arg.split_once('=').map_or(arg.as_str(), |(n, _)| n);
        if !REFUSED.contains(&name) {
            continue;
        }
        let what = if name.contains("token") || name == "--bearer" {
            "a bearer token on the command line is refused (other local users can read a \
             process's arguments): put it in the environment variable ADT_LS_BEARER_TOKEN"
        } else {
            "a password on the command line is refused (other local users can read a \
             process's arguments): put it in the environment variable ADT_LS_PASSWORD, or \
             pipe it to --password-stdin"
        };
        return Some(Failure::usage(format!("{name}: {what}")));
    }
    None
}

/// The first line of `input` (without its line end), at most [`STDIN_LIMIT`] bytes.
pub(crate) fn first_line(mut input: impl Read) -> Result<String, Failure> {
    let mut buf = Vec::new();
    (&mut input)
        .take(STDIN_LIMIT + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Failure::usage(format!("--password-stdin: stdin could not be read ({e})")))?;
    let line = buf.split(|b| *b == b'\n').next().unwrap_or_default();
    if buf.len() as u64 > STDIN_LIMIT && line.len() == buf.len() {
        return Err(Failure::usage(format!(
            "--password-stdin: the first line of stdin is longer than {STDIN_LIMIT} bytes"
        )));
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = String::from_utf8(line.to_vec())
        .map_err(|_| Failure::usage("--password-stdin: the password is not UTF-8 text"))?;
    if text.is_empty() {
        return Err(Failure::usage(
            "--password-stdin: stdin is empty (pipe the password in, e.g. printf %s \"$PW\" | adt-ls-native ...)",
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn secret_options_are_refused_without_their_value() {
        let f = refuse_on_command_line(&argv(&["atc", "X", "--password", "s3cret"])).unwrap();
        assert!(f.message.contains("ADT_LS_PASSWORD") && f.message.contains("--password-stdin"));
        assert!(!f.message.contains("s3cret"));
        let f = refuse_on_command_line(&argv(&["atc", "--token=abc"])).unwrap();
        assert!(f.message.contains("ADT_LS_BEARER_TOKEN") && !f.message.contains("abc"));
        assert!(refuse_on_command_line(&argv(&["atc", "X", "--password-stdin"])).is_none());
        assert!(refuse_on_command_line(&argv(&["call", "t", "--", "--password"])).is_none());
    }

    #[test]
    fn the_password_is_the_first_line_of_stdin() {
        assert_eq!(first_line(&b"pw\nrest"[..]).unwrap(), "pw");
        assert_eq!(first_line(&b"pw\r\n"[..]).unwrap(), "pw");
        assert_eq!(first_line(&b"pw"[..]).unwrap(), "pw");
        assert!(first_line(&b""[..]).is_err());
        assert!(first_line(&vec![b'x'; 5000][..]).is_err());
        let mut long = vec![b'x'; 10];
        long.push(b'\n');
        long.extend(vec![b'y'; 5000]);
        assert_eq!(first_line(&long[..]).unwrap(), "x".repeat(10));
    }
}
