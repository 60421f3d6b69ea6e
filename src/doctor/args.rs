//! `doctor`'s options (docs/doctor.md): their values, the usage text `--help` prints, and the
//! checks of each value, which the command line's parser ([`crate::cli`], clap) calls.

use std::path::PathBuf;
use std::time::Duration;

/// The usage text (printed for `--help` and after a usage error).
pub(crate) const USAGE: &str = "\
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

/// Options of `doctor`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DoctorArgs {
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

/// The default bound of every network step.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_millis(10_000);

impl Default for DoctorArgs {
    fn default() -> Self {
        DoctorArgs {
            json: false,
            url: None,
            self_signed: false,
            extra_ca: Vec::new(),
            proxy: None,
            client: None,
            timeout: DEFAULT_TIMEOUT,
            adt_ls_path: None,
            data_dir: None,
        }
    }
}

/// `--url`: an http(s) URL with a host.
pub(crate) fn parse_url(raw: &str) -> Result<String, String> {
    let url = reqwest::Url::parse(raw).map_err(|e| format!("--url '{raw}' is not a URL ({e})"))?;
    match (url.scheme(), url.host_str()) {
        ("https" | "http", Some(h)) if !h.is_empty() => Ok(raw.to_string()),
        _ => Err(format!(
            "--url '{raw}' must be an http(s) URL with a host, e.g. https://my-sap.example.com:44300"
        )),
    }
}

/// `host:port` or `[v6]:port`, port 1–65535.
pub(crate) fn parse_host_port(raw: &str) -> Result<(String, u16), String> {
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

/// `--client`: three digits.
pub(crate) fn parse_client(raw: &str) -> Result<String, String> {
    if raw.len() == 3 && raw.bytes().all(|b| b.is_ascii_digit()) {
        Ok(raw.to_string())
    } else {
        Err(format!("--client '{raw}' must be three digits, e.g. 001"))
    }
}

/// `--timeout-ms`: 1 to 600000 milliseconds.
pub(crate) fn parse_timeout(raw: &str) -> Result<Duration, String> {
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

    #[test]
    fn values_are_checked() {
        assert_eq!(parse_url("https://h:1/").unwrap(), "https://h:1/");
        assert_eq!(
            parse_host_port("[::1]:3128").unwrap(),
            ("::1".to_string(), 3128)
        );
        assert_eq!(parse_client("100").unwrap(), "100");
        assert_eq!(parse_timeout("250").unwrap(), Duration::from_millis(250));
        for (result, fragment) in [
            (parse_url("ftp://h").unwrap_err(), "must be an http(s) URL"),
            (parse_url("nope").unwrap_err(), "is not a URL"),
            (parse_host_port("host").unwrap_err(), "must be host:port"),
            (parse_host_port("host:0").unwrap_err(), "must be host:port"),
            (parse_client("1").unwrap_err(), "three digits"),
            (parse_timeout("0").unwrap_err(), "from 1 to 600000"),
        ] {
            assert!(result.contains(fragment), "{result}");
        }
    }
}
