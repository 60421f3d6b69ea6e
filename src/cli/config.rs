//! Where each connection setting comes from: the command line, else the environment
//! (`ADT_LS_URL`, `ADT_LS_CLIENT`, `ADT_LS_USER`), else the JSON config file (`--config`, or
//! `adt-ls.config.json` in the working directory when present; keys are the options' names,
//! `url`, `client`, `user`, `selfSigned` / `self-signed`, `extraCa` / `extra-ca`, `adtLsPath` /
//! `adt-ls-path`). Secrets come only from the environment or stdin ([`super::secrets`]): a
//! config file with a `password` or `token` key is refused, since such files end up in
//! repositories. The file is bounded (1 MiB, a regular file) and its relative paths are
//! relative to the file's folder.

use super::args::ConnectionArgs;
use super::exit::Failure;
use crate::kernel::host::HostEnv;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The default config file, looked up in the working directory.
pub(crate) const DEFAULT_FILE: &str = "adt-ls.config.json";
const FILE_LIMIT: u64 = 1024 * 1024;
const KEYS: &[&str] = &[
    "url",
    "client",
    "user",
    "selfSigned",
    "extraCa",
    "adtLsPath",
];

/// The connection settings after every source was read.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Settings {
    pub url: Option<String>,
    pub client: Option<String>,
    pub user: Option<String>,
    pub self_signed: bool,
    pub extra_ca: Vec<PathBuf>,
    pub adt_ls_path: Option<String>,
    pub password_stdin: bool,
}

/// Merge the command line, the environment and the config file.
pub(crate) fn resolve(args: &ConnectionArgs, host: &HostEnv) -> Result<Settings, Failure> {
    let cwd = host.cwd.clone().unwrap_or_else(|| PathBuf::from("."));
    let file = match &args.config {
        Some(path) => Some(read_file(&cwd.join(path))?),
        None => {
            let path = cwd.join(DEFAULT_FILE);
            if path.exists() {
                Some(read_file(&path)?)
            } else {
                None
            }
        }
    };
    let (map, base) = file.unwrap_or_default();
    let env = |name: &str| host.var(name).filter(|v| !v.is_empty());
    let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
    let client = args
        .client
        .clone()
        .or_else(|| env("ADT_LS_CLIENT"))
        .or_else(|| text("client"));
    if let Some(c) = &client {
        check_client(c)?;
    }
    let extra_ca = if args.extra_ca.is_empty() {
        strings(&map, "extraCa")
            .into_iter()
            .map(|p| base.join(p))
            .collect()
    } else {
        args.extra_ca.clone()
    };
    Ok(Settings {
        url: args
            .url
            .clone()
            .or_else(|| env("ADT_LS_URL"))
            .or_else(|| text("url")),
        client,
        user: args
            .user
            .clone()
            .or_else(|| env("ADT_LS_USER"))
            .or_else(|| text("user")),
        self_signed: args.self_signed || map.get("selfSigned") == Some(&Value::Bool(true)),
        extra_ca,
        adt_ls_path: args
            .adt_ls_path
            .clone()
            .or_else(|| text("adtLsPath").map(|p| base.join(p).display().to_string())),
        password_stdin: args.password_stdin,
    })
}

fn check_client(client: &str) -> Result<(), Failure> {
    if client.len() == 3 && client.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Failure::usage(format!(
            "--client '{client}' must be three digits, e.g. 001"
        )))
    }
}

/// The file's object and the folder its relative paths are relative to.
fn read_file(path: &Path) -> Result<(Map<String, Value>, PathBuf), Failure> {
    let shown = path.display();
    let meta =
        std::fs::metadata(path).map_err(|e| Failure::usage(format!("config file {shown}: {e}")))?;
    if !meta.is_file() {
        return Err(Failure::usage(format!(
            "config file {shown} is not a regular file"
        )));
    }
    if meta.len() > FILE_LIMIT {
        return Err(Failure::usage(format!(
            "config file {shown} is larger than {FILE_LIMIT} bytes"
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("config file {shown}: {e}")))?;
    let map = parse(&text).map_err(|m| Failure::usage(format!("config file {shown}: {m}")))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok((map, base))
}

/// The option names that may also be written as keys (`"self-signed"` for `selfSigned`).
const OPTION_SPELLINGS: &[(&str, &str)] = &[
    ("self-signed", "selfSigned"),
    ("extra-ca", "extraCa"),
    ("adt-ls-path", "adtLsPath"),
];

/// The config object: known keys of the right types only, option spellings as the keys.
pub(crate) fn parse(text: &str) -> Result<Map<String, Value>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let Value::Object(raw) = value else {
        return Err("must hold a JSON object".into());
    };
    let mut map = Map::new();
    for (key, value) in raw {
        let key = OPTION_SPELLINGS
            .iter()
            .find(|(option, _)| *option == key)
            .map_or(key, |(_, canonical)| (*canonical).to_string());
        if map.insert(key.clone(), value).is_some() {
            return Err(format!("'{key}' is given twice"));
        }
    }
    for (key, value) in &map {
        if matches!(key.as_str(), "password" | "token" | "bearerToken") {
            return Err(format!(
                "'{key}' is refused: secrets do not belong in a file; use ADT_LS_PASSWORD, --password-stdin or ADT_LS_BEARER_TOKEN"
            ));
        }
        if !KEYS.contains(&key.as_str()) {
            return Err(format!("unknown key '{key}' (known: {})", KEYS.join(", ")));
        }
        let ok = match key.as_str() {
            "selfSigned" => value.is_boolean(),
            "extraCa" => value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            _ => value.is_string(),
        };
        if !ok {
            return Err(format!("'{key}' has the wrong type"));
        }
    }
    Ok(map)
}

fn strings(map: &Map<String, Value>, key: &str) -> Vec<String> {
    map.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(vars: &[(&str, &str)], cwd: &Path) -> HostEnv {
        HostEnv {
            vars: Some(
                vars.iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
            cwd: Some(cwd.to_path_buf()),
            ..HostEnv::default()
        }
    }

    #[test]
    fn command_line_beats_environment_beats_file() {
        let dir = std::env::temp_dir().join(format!("adt-ls-cli-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(DEFAULT_FILE),
            r#"{"url":"https://file:1","client":"100","user":"FILE","extraCa":["ca.pem"],"selfSigned":true}"#,
        )
        .unwrap();
        let none = ConnectionArgs::default();
        let s = resolve(&none, &host(&[], &dir)).unwrap();
        assert_eq!(s.url.as_deref(), Some("https://file:1"));
        assert_eq!(s.extra_ca, [dir.join("ca.pem")]);
        assert!(s.self_signed);
        let env = host(
            &[("ADT_LS_URL", "https://env:1"), ("ADT_LS_USER", "ENV")],
            &dir,
        );
        let s = resolve(&none, &env).unwrap();
        assert_eq!(
            (s.url.as_deref(), s.user.as_deref()),
            (Some("https://env:1"), Some("ENV"))
        );
        assert_eq!(s.client.as_deref(), Some("100"));
        let cli = ConnectionArgs {
            url: Some("https://cli:1".into()),
            ..ConnectionArgs::default()
        };
        assert_eq!(
            resolve(&cli, &env).unwrap().url.as_deref(),
            Some("https://cli:1")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_files_and_values_are_usage_errors() {
        assert!(parse(r#"{"password":"x"}"#)
            .unwrap_err()
            .contains("ADT_LS_PASSWORD"));
        assert!(parse(r#"{"urll":"x"}"#)
            .unwrap_err()
            .contains("unknown key 'urll'"));
        assert!(parse(r#"{"selfSigned":"yes"}"#)
            .unwrap_err()
            .contains("wrong type"));
        assert!(parse("[1]").unwrap_err().contains("object"));
        assert!(parse("{").unwrap_err().contains("not JSON"));
        let spelled =
            parse(r#"{"self-signed":true,"extra-ca":["a.pem"],"adt-ls-path":"x"}"#).unwrap();
        assert_eq!(spelled.get("selfSigned"), Some(&Value::Bool(true)));
        assert!(spelled.contains_key("extraCa") && spelled.contains_key("adtLsPath"));
        assert!(parse(r#"{"selfSigned":true,"self-signed":false}"#)
            .unwrap_err()
            .contains("twice"));
        let dir = std::env::temp_dir();
        let args = ConnectionArgs {
            client: Some("1".into()),
            ..ConnectionArgs::default()
        };
        let f = resolve(&args, &host(&[], &dir.join("nowhere"))).unwrap_err();
        assert!(f.message.contains("three digits"));
        let args = ConnectionArgs {
            config: Some("missing.json".into()),
            ..ConnectionArgs::default()
        };
        assert!(resolve(&args, &host(&[], &dir))
            .unwrap_err()
            .message
            .contains("missing.json"));
    }
}
