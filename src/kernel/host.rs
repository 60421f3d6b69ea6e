//! The host process's state that the reference reads through Node (`process.env`,
//! `os.tmpdir()`, `os.homedir()`, `process.cwd()`), captured once per call by the N-API
//! layer and handed to the engine explicitly. Under Bun, assignments to `process.env` do not
//! reach the C environment, so reading `std::env` would silently differ from the reference;
//! with an explicit [`HostEnv`] both runtimes behave the same. [`HostEnv::from_os`] is the
//! fallback for engine use without JS.

use std::path::PathBuf;

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct HostEnv {
    /// The full environment children inherit (`process.env`); `None` means the OS's.
    pub vars: Option<Vec<(String, String)>>,
    pub home: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    /// `os.tmpdir()`.
    pub temp_dir: Option<PathBuf>,
}

impl HostEnv {
    /// The OS view (what a process without JS would see).
    pub(crate) fn from_os() -> HostEnv {
        HostEnv {
            vars: None,
            home: dirs::home_dir(),
            cwd: std::env::current_dir().ok(),
            temp_dir: Some(std::env::temp_dir()),
        }
    }

    /// An environment variable: from `vars` when captured, else from the OS.
    pub(crate) fn var(&self, name: &str) -> Option<String> {
        match &self.vars {
            Some(vars) => vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
            None => std::env::var(name).ok(),
        }
    }

    /// `os.tmpdir()`.
    pub(crate) fn temp_dir(&self) -> PathBuf {
        self.temp_dir.clone().unwrap_or_else(std::env::temp_dir)
    }

    /// Node's `os.tmpdir()` rule over an environment: `TMPDIR`, `TMP`, `TEMP` (POSIX), or
    /// `TEMP`, `TMP`, `%SystemRoot%\temp` (Windows); a trailing separator is dropped.
    pub(crate) fn node_tmpdir(vars: &[(String, String)]) -> PathBuf {
        let get = |k: &str| {
            vars.iter()
                .find(|(n, v)| n == k && !v.is_empty())
                .map(|(_, v)| v.clone())
        };
        let raw = if cfg!(windows) {
            get("TEMP").or_else(|| get("TMP")).unwrap_or_else(|| {
                format!(
                    "{}\\temp",
                    get("SystemRoot")
                        .or_else(|| get("windir"))
                        .unwrap_or_default()
                )
            })
        } else {
            get("TMPDIR")
                .or_else(|| get("TMP"))
                .or_else(|| get("TEMP"))
                .unwrap_or_else(|| "/tmp".to_string())
        };
        let trimmed = if raw.len() > 1 {
            raw.trim_end_matches(['/', '\\']).to_string()
        } else {
            raw
        };
        PathBuf::from(if trimmed.is_empty() {
            "/".to_string()
        } else {
            trimmed
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn tmpdir_follows_nodes_rule() {
        assert_eq!(
            HostEnv::node_tmpdir(&vars(&[("TMPDIR", "/x/y/")])),
            PathBuf::from("/x/y")
        );
        assert_eq!(
            HostEnv::node_tmpdir(&vars(&[("TMP", "/t")])),
            PathBuf::from("/t")
        );
        assert_eq!(
            HostEnv::node_tmpdir(&vars(&[("TMPDIR", ""), ("TEMP", "/e")])),
            PathBuf::from("/e")
        );
        assert_eq!(HostEnv::node_tmpdir(&[]), PathBuf::from("/tmp"));
        assert_eq!(
            HostEnv::node_tmpdir(&vars(&[("TMPDIR", "/")])),
            PathBuf::from("/")
        );
    }

    #[test]
    fn captured_vars_win_over_the_os() {
        let host = HostEnv {
            vars: Some(vars(&[("ADT_LS_PATH", "/bin/x")])),
            ..HostEnv::default()
        };
        assert_eq!(host.var("ADT_LS_PATH").as_deref(), Some("/bin/x"));
        assert_eq!(host.var("PATH"), None);
    }
}
