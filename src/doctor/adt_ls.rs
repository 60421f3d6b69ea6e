//! The discovery section: every adt-ls candidate from [`discovery::list_adt_ls_candidates`]
//! (the resolver's own listing), the winner and why, and why the others lose or are
//! rejected (not a file, wrong platform, too old, not executable).

use super::report::Check;
use crate::discovery::version::{self, ParsedAdtLsVersion, MINIMUM_ADT_LS_VERSION};
use crate::discovery::{
    self, BinaryKind, CandidateListing, CandidateSource, DiscoverOptions, ListedCandidate,
};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The section, its checks and the winning binary.
pub(crate) struct DiscoveryFindings {
    pub section: Value,
    pub checks: Vec<Check>,
    pub winner: Option<PathBuf>,
}

/// Examine discovery with `opts` (the resolver's inputs).
pub(crate) fn examine(opts: &DiscoverOptions) -> DiscoveryFindings {
    let listing = match discovery::list_adt_ls_candidates(opts) {
        Ok(listing) => listing,
        Err(e) => {
            return DiscoveryFindings {
                section: json!({ "error": e.message }),
                checks: vec![Check::fail(
                    "adt-ls.discovery",
                    e.message,
                    "run on linux, darwin or win32: adt-ls ships only for those",
                )],
                winner: None,
            }
        }
    };
    let editors = opts
        .home
        .as_deref()
        .map(discovery::default_extension_dirs)
        .unwrap_or_default();
    let winner_index = listing.outcome.as_ref().ok().copied();
    let explicit_failed = listing.outcome.is_err()
        && listing
            .candidates
            .first()
            .is_some_and(|c| is_explicit(&c.source));
    let candidates: Vec<Value> = listing
        .candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let status = if Some(i) == winner_index {
                "selected"
            } else if c.kind != BinaryKind::File || (explicit_failed && i == 0) {
                "rejected"
            } else {
                "not-chosen"
            };
            json!({
                "source": source_name(&c.source, &editors),
                "path": c.binary.display().to_string(),
                "extensionDir": c.extension_dir.as_ref().map(|d| d.display().to_string()),
                "version": c.version.map(version_text),
                "status": status,
                "reasons": reasons(c, &listing.sub_path),
            })
        })
        .collect();
    let winner = listing.winner().cloned();
    let section = json!({
        "platformSubPath": listing.sub_path.join("/"),
        "minimumVersion": MINIMUM_ADT_LS_VERSION,
        "selected": winner.as_ref().map(|w| w.binary.display().to_string()),
        "why": winner.as_ref().map(why),
        "error": listing.outcome.as_ref().err().map(|e| e.message.clone()),
        "candidates": candidates,
    });
    DiscoveryFindings {
        section,
        checks: checks(&listing, winner.as_ref(), &editors),
        winner: winner.map(|w| w.binary),
    }
}

fn checks(
    listing: &CandidateListing,
    winner: Option<&ListedCandidate>,
    editors: &[PathBuf],
) -> Vec<Check> {
    let Some(w) = winner else {
        let message = listing
            .outcome
            .as_ref()
            .err()
            .map(|e| e.message.clone())
            .unwrap_or_default();
        let fix = if listing
            .candidates
            .first()
            .is_some_and(|c| is_explicit(&c.source))
        {
            "point adtLs.path / ADT_LS_PATH at the adt-ls binary file itself (not its folder), or unset it"
        } else {
            "install SAP's ABAP extension (sapse.adt-vscode) in VS Code or Cursor, drop adt-ls in vendor/adt-ls/, or set ADT_LS_PATH"
        };
        return vec![Check::fail("adt-ls.discovery", message, fix)];
    };
    let mut out = vec![Check::ok(
        "adt-ls.discovery",
        format!(
            "{} ({}): {}",
            w.binary.display(),
            source_name(&w.source, editors),
            why(w)
        ),
    )];
    out.push(match w.version {
        Some(v) if is_too_old(&v) => Check::fail(
            "adt-ls.version",
            format!(
                "the selected adt-ls {} is older than the minimum {MINIMUM_ADT_LS_VERSION}: createAdtLs rejects it",
                version_text(v)
            ),
            format!("update SAP's ABAP extension (sapse.adt-vscode) to {MINIMUM_ADT_LS_VERSION} or later, or remove the old install"),
        ),
        Some(v) => Check::ok(
            "adt-ls.version",
            format!("{} (minimum {MINIMUM_ADT_LS_VERSION})", version_text(v)),
        ),
        None => Check::skip(
            "adt-ls.version",
            format!("not known from the path; createAdtLs checks it against {MINIMUM_ADT_LS_VERSION} at start-up"),
        ),
    });
    out.push(if is_executable(&w.binary) {
        Check::ok("adt-ls.executable", "the binary is executable")
    } else {
        Check::fail(
            "adt-ls.executable",
            format!("{} is not executable", w.binary.display()),
            format!("chmod +x '{}'", w.binary.display()),
        )
    });
    out
}

fn is_explicit(source: &CandidateSource) -> bool {
    matches!(
        source,
        CandidateSource::ExplicitPath | CandidateSource::EnvAdtLsPath
    )
}

/// Why the resolver picked `w`.
fn why(w: &ListedCandidate) -> String {
    match w.source {
        CandidateSource::ExplicitPath => {
            "adtLs.path is set and is a file; nothing else is looked at".into()
        }
        CandidateSource::EnvAdtLsPath => {
            "ADT_LS_PATH is set and is a file; nothing else is looked at".into()
        }
        CandidateSource::Vendor => {
            "vendor/adt-ls/ holds a binary; it comes before editor installs".into()
        }
        CandidateSource::Extension { .. } => {
            "the newest complete sapse.adt-vscode install across VS Code, Cursor and Insiders"
                .into()
        }
    }
}

/// `adtLs.path`, `ADT_LS_PATH`, `vendor`, `vscode`, `cursor`, `insiders` or `extensionsDir`.
fn source_name(source: &CandidateSource, editors: &[PathBuf]) -> &'static str {
    match source {
        CandidateSource::ExplicitPath => "adtLs.path",
        CandidateSource::EnvAdtLsPath => "ADT_LS_PATH",
        CandidateSource::Vendor => "vendor",
        CandidateSource::Extension { root } => match editors.iter().position(|e| e == root) {
            Some(0) => "vscode",
            Some(1) => "cursor",
            Some(2) => "insiders",
            _ => "extensionsDir",
        },
    }
}

/// Reasons a candidate is (or would be) unusable: `not-a-file`, `wrong-platform`,
/// `too-old`, `not-executable`.
fn reasons(c: &ListedCandidate, sub_path: &[String]) -> Vec<Value> {
    let mut out = Vec::new();
    let reason = |code: &str, message: String| json!({ "code": code, "message": message });
    match c.kind {
        BinaryKind::File => {
            if !is_executable(&c.binary) {
                out.push(reason(
                    "not-executable",
                    "the file is not executable".into(),
                ));
            }
        }
        kind => {
            let wrong = c
                .extension_dir
                .as_deref()
                .and_then(|dir| wrong_platform(dir, sub_path));
            match wrong {
                Some(built_for) => out.push(reason(
                    "wrong-platform",
                    format!(
                        "built for {built_for}; this machine needs {}",
                        sub_path.join("/")
                    ),
                )),
                None => out.push(reason(
                    "not-a-file",
                    match kind {
                        BinaryKind::Directory => "the path is a directory, not the binary".into(),
                        BinaryKind::Other => "the path is not a regular file".into(),
                        _ if c.extension_dir.is_some() => {
                            "the binary is missing: an incomplete or interrupted install".into()
                        }
                        _ => "no file at this path".into(),
                    },
                )),
            }
        }
    }
    if let Some(v) = c.version.filter(is_too_old) {
        out.push(reason(
            "too-old",
            format!(
                "{} is older than the minimum {MINIMUM_ADT_LS_VERSION}",
                version_text(v)
            ),
        ));
    }
    out
}

/// The platform an extension folder was built for when it is not ours: from the folder
/// name's `-<platform>-<arch>` suffix, else from the layout under `adt-ls/`.
pub(crate) fn wrong_platform(ext_dir: &Path, sub_path: &[String]) -> Option<String> {
    let (ours_os, ours_arch) = (sub_path.first()?, sub_path.get(2)?);
    let name = ext_dir.file_name()?.to_string_lossy().to_ascii_lowercase();
    let parts: Vec<&str> = name.rsplitn(3, '-').collect();
    if let [arch, platform, _] = parts[..] {
        let os_dir = match platform {
            "linux" => Some("linux"),
            "darwin" => Some("macosx"),
            "win32" => Some("win32"),
            _ => None,
        };
        let arch_dir = match arch {
            "x64" => "x86_64",
            "arm64" => "aarch64",
            other => other,
        };
        if let Some(os_dir) = os_dir {
            if os_dir != ours_os || arch_dir != ours_arch {
                return Some(format!("{platform}-{arch}"));
            }
            return None;
        }
    }
    let root = ext_dir.join("adt-ls");
    if root.join(ours_os).is_dir() {
        return None;
    }
    ["linux", "macosx", "win32"]
        .iter()
        .find(|os| root.join(os).is_dir())
        .map(|os| os.to_string())
}

fn is_too_old(v: &ParsedAdtLsVersion) -> bool {
    let min = version::parse_adt_ls_version(MINIMUM_ADT_LS_VERSION).unwrap_or([0.0; 3]);
    v.iter()
        .zip(min.iter())
        .map(|(a, b)| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))
        .find(|o| o.is_ne())
        == Some(std::cmp::Ordering::Less)
}

fn version_text(v: ParsedAdtLsVersion) -> String {
    format!("{}.{}.{}", v[0], v[1], v[2])
}

/// True when the file may be executed (always on Windows, where there is no mode bit).
pub(crate) fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linux() -> Vec<String> {
        discovery::platform_sub_path("linux", "x64").unwrap()
    }

    #[test]
    fn wrong_platform_from_the_folder_name() {
        let sub = linux();
        let p = |n: &str| PathBuf::from("/nowhere").join(n);
        assert_eq!(
            wrong_platform(&p("sapse.adt-vscode-1.1.2-darwin-arm64"), &sub).as_deref(),
            Some("darwin-arm64")
        );
        assert_eq!(
            wrong_platform(&p("sapse.adt-vscode-1.1.2-linux-arm64"), &sub).as_deref(),
            Some("linux-arm64")
        );
        assert_eq!(
            wrong_platform(&p("sapse.adt-vscode-1.1.2-linux-x64"), &sub),
            None
        );
        // No suffix and nothing on disk: not a platform question.
        assert_eq!(wrong_platform(&p("sapse.adt-vscode-1.1.2"), &sub), None);
    }

    #[test]
    fn versions_below_the_minimum_are_too_old() {
        assert!(is_too_old(&[1.0, 0.9, 99.0]));
        assert!(is_too_old(&[1.0, 1.0, 1.0]));
        assert!(!is_too_old(&[1.0, 1.0, 2.0]));
        assert!(!is_too_old(&[1.0, 10.0, 0.0]));
        assert_eq!(version_text([1.0, 10.0, 0.0]), "1.10.0");
    }
}
