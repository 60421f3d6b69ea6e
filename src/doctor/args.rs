//! The command line of the `adt-ls-native` bin: `doctor [options]`, `--help`, and usage
//! errors (exit status 2) for anything else.

use std::path::PathBuf;
use std::time::Duration;

/// The usage text (printed for `--help` and after a usage error).
pub const USAGE: &str = "\
Usage: adt-ls-native doctor [options]

Explains what adt-ls-native would do on this machine: runtime, adt-ls discovery, the shared
libraries adt-ls needs, the bundled JRE, the temp and data directories and, with --url, the
network path to the SAP system. No credentials are needed or sent.

Options:
  --json                 print the report as JSON (docs/doctor.md describes the shape)
  --url <systemUrl>      probe the SAP system: DNS, TCP, TLS, trust, host name, reentrance
  --self-signed          as connection.selfSigned: true
  --extra-ca <file>      as connection.extraCaCerts (repeatable)
  --proxy <host:port>    as connection.forwardProxy (used with --self-signed, as the engine does)
  --client <nnn>         the SAP client sent to the reentrance endpoint (default 001)
  --timeout-ms <ms>      bound of every network step and of java -version (default 10000)
  --adt-ls-path <file>   as adtLs.path (overrides ADT_LS_PATH)
  --data-dir <dir>       check this directory (a driver's dataDir) instead of the home directory
  -h, --help             show this help

Exit status: 0 everything would work, 1 something would fail, 2 usage error.
";

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Help,
    Doctor(DoctorArgs),
}

/// Options of `doctor`.
#[derive(Debug, Clone, PartialEq)]
pub struct DoctorArgs {
    pub json: bool,
    pub url: Option<String>,
    pub self_signed: bool,
    pub extra_ca: Vec<PathBuf>,
    pub proxy: Option<(String, u16)>,
    pub client: Option<String>,
    pub timeout: Duration,
    pub adt_ls_path: Option<String>,
    pub data_dir: Option<PathBuf>,
}

impl Default for DoctorArgs {
    fn default() -> Self {
        DoctorArgs {
            json: false,
            url: None,
            self_signed: false,
            extra_ca: Vec::new(),
            proxy: None,
            client: None,
            timeout: Duration::from_millis(10_000),
            adt_ls_path: None,
            data_dir: None,
        }
    }
}

/// Parse `argv` (without node and the script). `Err` is the usage error's message.
pub fn parse(argv: &[String]) -> Result<Command, String> {
    let mut it = argv.iter();
    match it.next().map(String::as_str) {
        None => Err("missing command".to_string()),
        Some("-h" | "--help" | "help") => Ok(Command::Help),
        Some("doctor") => parse_doctor(it),
        Some(other) => Err(format!("unknown command '{other}'")),
    }
}

fn parse_doctor<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<Command, String> {
    let mut args = DoctorArgs::default();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("{name} needs {what}"))
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "--json" => args.json = true,
            "--self-signed" => args.self_signed = true,
            "--url" => args.url = Some(parse_url(&value("a system URL")?)?),
            "--extra-ca" => args.extra_ca.push(PathBuf::from(value("a file")?)),
            "--proxy" => args.proxy = Some(parse_host_port(&value("host:port")?)?),
            "--client" => args.client = Some(parse_client(&value("a client number")?)?),
            "--timeout-ms" => args.timeout = parse_timeout(&value("milliseconds")?)?,
            "--adt-ls-path" => args.adt_ls_path = Some(value("a file")?),
            "--data-dir" => args.data_dir = Some(PathBuf::from(value("a directory")?)),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(Command::Doctor(args))
}

fn parse_url(raw: &str) -> Result<String, String> {
    let url = reqwest::Url::parse(raw).map_err(|e| format!("--url '{raw}' is not a URL ({e})"))?;
    match (url.scheme(), url.host_str()) {
        ("https" | "http", Some(h)) if !h.is_empty() => Ok(raw.to_string()),
        _ => Err(format!(
            "--url '{raw}' must be an http(s) URL with a host, e.g. https://my-sap.example.com:44300"
        )),
    }
}

/// `host:port` or `[v6]:port`, port 1–65535.
pub fn parse_host_port(raw: &str) -> Result<(String, u16), String> {
    let bad = || format!("--proxy '{raw}' must be host:port, e.g. proxy.corp:8080");
    let (host, port) = raw.rsplit_once(':').ok_or_else(bad)?;
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    let port: u16 = port.parse().map_err(|_| bad())?;
    if host.is_empty() || port == 0 || host.contains('/') {
        return Err(bad());
    }
    Ok((host.to_string(), port))
}

fn parse_client(raw: &str) -> Result<String, String> {
    if raw.len() == 3 && raw.bytes().all(|b| b.is_ascii_digit()) {
        Ok(raw.to_string())
    } else {
        Err(format!("--client '{raw}' must be three digits, e.g. 001"))
    }
}

fn parse_timeout(raw: &str) -> Result<Duration, String> {
    match raw.parse::<u64>() {
        Ok(ms) if (1..=600_000).contains(&ms) => Ok(Duration::from_millis(ms)),
        _ => Err(format!(
            "--timeout-ms '{raw}' must be a whole number of milliseconds from 1 to 600000"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Command, String> {
        parse(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn doctor(list: &[&str]) -> DoctorArgs {
        match args(list).unwrap() {
            Command::Doctor(d) => d,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn commands_and_help() {
        assert_eq!(args(&["--help"]).unwrap(), Command::Help);
        assert_eq!(args(&["doctor", "-h"]).unwrap(), Command::Help);
        assert_eq!(args(&[]).unwrap_err(), "missing command");
        assert_eq!(args(&["fix"]).unwrap_err(), "unknown command 'fix'");
        assert_eq!(doctor(&["doctor"]), DoctorArgs::default());
    }

    #[test]
    fn every_option_parses() {
        let d = doctor(&[
            "doctor",
            "--json",
            "--url",
            "https://h:1/",
            "--self-signed",
            "--extra-ca",
            "a.pem",
            "--extra-ca=b.pem",
            "--proxy",
            "[::1]:3128",
            "--client",
            "100",
            "--timeout-ms=250",
            "--adt-ls-path",
            "/x/adt-ls",
            "--data-dir=/data",
        ]);
        assert!(d.json && d.self_signed);
        assert_eq!(d.url.as_deref(), Some("https://h:1/"));
        assert_eq!(d.extra_ca, [PathBuf::from("a.pem"), PathBuf::from("b.pem")]);
        assert_eq!(d.proxy, Some(("::1".to_string(), 3128)));
        assert_eq!(d.client.as_deref(), Some("100"));
        assert_eq!(d.timeout, Duration::from_millis(250));
        assert_eq!(d.adt_ls_path.as_deref(), Some("/x/adt-ls"));
        assert_eq!(d.data_dir, Some(PathBuf::from("/data")));
    }

    #[test]
    fn bad_values_are_usage_errors() {
        for (list, fragment) in [
            (&["doctor", "--url"][..], "--url needs a system URL"),
            (&["doctor", "--url", "ftp://h"], "must be an http(s) URL"),
            (&["doctor", "--url", "nope"], "is not a URL"),
            (&["doctor", "--proxy", "host"], "must be host:port"),
            (&["doctor", "--proxy", "host:0"], "must be host:port"),
            (&["doctor", "--client", "1"], "three digits"),
            (&["doctor", "--timeout-ms", "0"], "from 1 to 600000"),
            (&["doctor", "--frobnicate"], "unknown option '--frobnicate'"),
        ] {
            let err = args(list).unwrap_err();
            assert!(err.contains(fragment), "{list:?}: {err}");
        }
    }
}
