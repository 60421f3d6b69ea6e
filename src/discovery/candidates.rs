//! Every adt-ls candidate the resolver considers, in the resolver's order, with what is on
//! disk for each and the resolver's outcome. [`super::resolve_adt_ls_path`] is this listing's
//! outcome, so anything that shows the listing (the doctor) cannot disagree with it.

use super::{
    compare_candidates, extension_roots, join_all, list_candidates, platform_sub_path,
    DiscoverOptions,
};
use crate::discovery::version::ParsedAdtLsVersion;
use crate::kernel::error::{codes, Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// Where a candidate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CandidateSource {
    /// The caller's explicit path (`adtLs.path` / `explicitPath`).
    ExplicitPath,
    /// The `ADT_LS_PATH` environment variable.
    EnvAdtLsPath,
    /// `<repoRoot or cwd>/vendor/adt-ls/<sub-path>`.
    Vendor,
    /// A `sapse.adt-vscode-*` folder below this extension root.
    Extension { root: PathBuf },
}

/// What the candidate's binary path is on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryKind {
    File,
    Directory,
    /// Exists but is neither a file nor a directory (a socket, a device).
    Other,
    Missing,
}

/// One candidate, as the resolver sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ListedCandidate {
    pub source: CandidateSource,
    /// The path the resolver checks.
    pub binary: PathBuf,
    /// The extension folder (extension candidates only).
    pub extension_dir: Option<PathBuf>,
    /// The version in the extension folder's name (extension candidates only).
    pub version: Option<ParsedAdtLsVersion>,
    pub kind: BinaryKind,
}

/// The resolver's view: platform sub-path, every candidate in the order tried, the outcome.
#[derive(Debug)]
pub(crate) struct CandidateListing {
    pub sub_path: Vec<String>,
    /// Explicit path (if set), vendor, then extension installs newest first.
    pub candidates: Vec<ListedCandidate>,
    /// Index of the winner in `candidates`, or the error `resolve_adt_ls_path` throws.
    pub outcome: std::result::Result<usize, Error>,
}

impl CandidateListing {
    /// The winning candidate, if any.
    pub(crate) fn winner(&self) -> Option<&ListedCandidate> {
        self.outcome
            .as_ref()
            .ok()
            .and_then(|i| self.candidates.get(*i))
    }

    /// The resolver's answer: the winner's path or the error.
    pub(crate) fn into_resolution(self) -> Result<PathBuf> {
        match self.outcome {
            Ok(i) => self
                .candidates
                .into_iter()
                .nth(i)
                .map(|c| c.binary)
                .ok_or_else(|| Error::new("adt-ls candidate vanished")),
            Err(e) => Err(e),
        }
    }
}

/// Lists every candidate and decides the winner with the reference rules (see
/// [`super::resolve_adt_ls_path`]). Fails only for an unsupported platform.
pub(crate) fn list_adt_ls_candidates(opts: &DiscoverOptions) -> Result<CandidateListing> {
    let sub = platform_sub_path(
        opts.platform.as_deref().unwrap_or(super::node_platform()),
        opts.arch.as_deref().unwrap_or(super::node_arch()),
    )?;
    let mut candidates = Vec::new();

    // `explicitPath ?? env`, then a falsy (empty) value counts as unset.
    let explicit = match (&opts.explicit_path, &opts.env_adt_ls_path) {
        (Some(p), _) => Some((p, CandidateSource::ExplicitPath)),
        (None, Some(p)) => Some((p, CandidateSource::EnvAdtLsPath)),
        (None, None) => None,
    };
    let explicit = explicit.filter(|(p, _)| !p.is_empty());
    if let Some((path, source)) = &explicit {
        candidates.push(candidate(source.clone(), PathBuf::from(path), None, None));
    }

    let repo_root = opts
        .repo_root
        .clone()
        .or_else(|| opts.cwd.clone())
        .unwrap_or_default();
    let vendor = join_all(&repo_root.join("vendor").join("adt-ls"), &sub);
    candidates.push(candidate(CandidateSource::Vendor, vendor, None, None));

    let mut installs: Vec<(PathBuf, super::Candidate)> = extension_roots(opts)
        .into_iter()
        .flat_map(|root| {
            list_candidates(&root, &sub)
                .into_iter()
                .map(move |c| (root.clone(), c))
        })
        .collect();
    // Newest first; `sort_by` is stable like JS `Array.prototype.sort`.
    installs.sort_by(|(_, a), (_, b)| compare_candidates(b, a));
    for (root, install) in installs {
        let dir = root.join(&install.name);
        candidates.push(candidate(
            CandidateSource::Extension { root },
            install.binary,
            Some(dir),
            Some(install.version),
        ));
    }

    let outcome = decide(&candidates, explicit.is_some());
    Ok(CandidateListing {
        sub_path: sub,
        candidates,
        outcome,
    })
}

fn candidate(
    source: CandidateSource,
    binary: PathBuf,
    extension_dir: Option<PathBuf>,
    version: Option<ParsedAdtLsVersion>,
) -> ListedCandidate {
    let kind = binary_kind(&binary);
    ListedCandidate {
        source,
        binary,
        extension_dir,
        version,
        kind,
    }
}

/// The reference rules over the ordered candidates: an explicit path wins or fails alone;
/// otherwise the first regular file wins; nothing found lists every path tried.
fn decide(candidates: &[ListedCandidate], has_explicit: bool) -> std::result::Result<usize, Error> {
    if has_explicit {
        let explicit = candidates
            .first()
            .ok_or_else(|| Error::new("explicit adt-ls candidate missing"))?;
        if explicit.kind == BinaryKind::File {
            return Ok(0);
        }
        return Err(Error::coded(
            codes::ADT_LS_NOT_FOUND,
            format!(
                "Explicit adt-ls binary is not a file: {}. Check adtLs.path / ADT_LS_PATH.",
                explicit.binary.display()
            ),
        ));
    }
    if let Some(i) = candidates.iter().position(|c| c.kind == BinaryKind::File) {
        return Ok(i);
    }
    let lines: Vec<String> = candidates
        .iter()
        .map(|c| format!("  - {}", c.binary.display()))
        .collect();
    Err(Error::coded(
        codes::ADT_LS_NOT_FOUND,
        format!(
            "adt-ls binary not found. Set ADT_LS_PATH, drop it in vendor/adt-ls/, or install the \
         'sapse.adt-vscode' extension. Tried:\n{}",
            lines.join("\n")
        ),
    ))
}

/// What `path` is, following symlinks.
fn binary_kind(path: &Path) -> BinaryKind {
    match fs::metadata(path) {
        Ok(m) if m.is_file() => BinaryKind::File,
        Ok(m) if m.is_dir() => BinaryKind::Directory,
        Ok(_) => BinaryKind::Other,
        Err(_) => BinaryKind::Missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::test_dir::fresh_temp_dir;

    fn temp_dir(tag: &str) -> PathBuf {
        fresh_temp_dir(&format!("adt-ls-native-listing-{tag}"))
    }

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, b"").unwrap();
    }

    #[test]
    fn lists_everything_in_resolver_order_and_names_the_winner() {
        let dir = temp_dir("order");
        let ext = dir.join("ext");
        let sub = "adt-ls/linux/gtk/x86_64/adt-ls";
        touch(&ext.join("sapse.adt-vscode-1.0.1").join(sub));
        touch(&ext.join("sapse.adt-vscode-1.1.2").join(sub));
        fs::create_dir_all(ext.join("sapse.adt-vscode-2.0.0/adt-ls")).unwrap();
        let opts = DiscoverOptions {
            platform: Some("linux".into()),
            arch: Some("x64".into()),
            repo_root: Some(dir.join("repo")),
            extensions_dirs: Some(vec![ext.clone()]),
            ..DiscoverOptions::default()
        };
        let listing = list_adt_ls_candidates(&opts).unwrap();
        let versions: Vec<_> = listing.candidates.iter().map(|c| c.version).collect();
        assert_eq!(
            versions,
            [
                None,
                Some([2.0, 0.0, 0.0]),
                Some([1.0, 1.0, 2.0]),
                Some([1.0, 0.0, 1.0])
            ]
        );
        assert_eq!(listing.candidates[0].source, CandidateSource::Vendor);
        assert_eq!(listing.candidates[1].kind, BinaryKind::Missing);
        assert_eq!(listing.outcome.as_ref().ok(), Some(&2));
        assert_eq!(
            listing.winner().unwrap().extension_dir,
            Some(ext.join("sapse.adt-vscode-1.1.2"))
        );

        // An explicit directory fails alone, yet the other candidates are still listed.
        let explicit = DiscoverOptions {
            env_adt_ls_path: Some(ext.display().to_string()),
            ..opts
        };
        let listing = list_adt_ls_candidates(&explicit).unwrap();
        assert_eq!(listing.candidates[0].source, CandidateSource::EnvAdtLsPath);
        assert_eq!(listing.candidates[0].kind, BinaryKind::Directory);
        assert_eq!(listing.candidates.len(), 5);
        let err = listing.into_resolution().unwrap_err();
        assert!(err
            .message
            .starts_with("Explicit adt-ls binary is not a file"));
        fs::remove_dir_all(dir).unwrap();
    }
}
