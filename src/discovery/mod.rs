//! Finding the adt-ls binary on disk (docs/wire.md#discovery, reference rules): the
//! per-platform sub-path, the default editor extension roots, and `resolve_adt_ls_path`
//! (explicit path / `ADT_LS_PATH`, then `vendor/adt-ls/`, then the newest complete
//! `sapse.adt-vscode-*` install pooled across all roots). Process state (environment, home,
//! cwd) comes in through [`DiscoverOptions`] so the rules stay testable. The resolver's
//! answer is the outcome of [`list_adt_ls_candidates`] (`discovery/candidates.rs`), which
//! also shows every candidate (the doctor prints it).

mod candidates;
pub(crate) mod version;

pub(crate) use candidates::{
    list_adt_ls_candidates, BinaryKind, CandidateListing, CandidateSource, ListedCandidate,
};

use crate::discovery::version::{compare_versions, parse_version_prefix, ParsedAdtLsVersion};
use crate::kernel::error::{Error, Result};
use crate::kernel::host::HostEnv;
use std::cmp::Ordering;
use std::fs;
use std::path::{Path, PathBuf};

/// Folder-name prefix of SAP's VS Code extension (matched ASCII-case-insensitively).
const EXTENSION_PREFIX: &str = "sapse.adt-vscode-";

/// Inputs of [`resolve_adt_ls_path`]. The first six fields are the reference's
/// `DiscoverOptions`; `env_adt_ls_path`, `home` and `cwd` carry process state (use
/// [`DiscoverOptions::from_env`] to fill them from the real process). `None` there means
/// "unset": no `ADT_LS_PATH`, no default extension roots, a relative `vendor/` path.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DiscoverOptions {
    pub explicit_path: Option<String>,
    pub repo_root: Option<PathBuf>,
    pub extensions_dir: Option<PathBuf>,
    pub extensions_dirs: Option<Vec<PathBuf>>,
    pub platform: Option<String>,
    pub arch: Option<String>,
    pub env_adt_ls_path: Option<String>,
    pub home: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
}

impl DiscoverOptions {
    #[cfg(test)]
    /// Options carrying only the real process state: `ADT_LS_PATH`, the home directory and
    /// the current directory. Combine with struct update syntax:
    /// `DiscoverOptions { explicit_path, ..DiscoverOptions::from_env() }`.
    pub(crate) fn from_env() -> Self {
        Self::from_host(&HostEnv::from_os())
    }

    /// Options carrying the given host state (`process.env.ADT_LS_PATH`, home, cwd).
    pub(crate) fn from_host(host: &HostEnv) -> Self {
        DiscoverOptions {
            env_adt_ls_path: host.var("ADT_LS_PATH"),
            home: host.home.clone(),
            cwd: host.cwd.clone(),
            ..DiscoverOptions::default()
        }
    }
}

/// Node's `process.platform` name for the OS this crate was built for.
pub(crate) fn node_platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        "solaris" | "illumos" => "sunos",
        other => other,
    }
}

/// Node's `process.arch` name for the CPU this crate was built for.
pub(crate) fn node_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        "x86" => "ia32",
        "powerpc64" => "ppc64",
        "powerpc" => "ppc",
        "loongarch64" => "loong64",
        other => other,
    }
}

/// The path segments of the binary below an `adt-ls/` root, for Node platform and arch
/// names (`arm64` → `aarch64`, `x64` → `x86_64`, anything else passes through).
pub(crate) fn platform_sub_path(platform: &str, arch: &str) -> Result<Vec<String>> {
    let arch = match arch {
        "arm64" => "aarch64",
        "x64" => "x86_64",
        other => other,
    };
    let segments: &[&str] = match platform {
        "darwin" => &[
            "macosx",
            "cocoa",
            arch,
            "Adt-ls.app",
            "Contents",
            "MacOS",
            "adt-ls",
        ],
        "linux" => &["linux", "gtk", arch, "adt-ls"],
        "win32" => &["win32", "win32", arch, "adt-lsc.exe"],
        other => return Err(Error::new(format!("Unsupported platform: {other}"))),
    };
    Ok(segments.iter().map(|s| s.to_string()).collect())
}

/// VS Code, Cursor and VS Code Insiders extension roots under `home`, in that order.
pub(crate) fn default_extension_dirs(home: &Path) -> Vec<PathBuf> {
    [".vscode", ".cursor", ".vscode-insiders"]
        .iter()
        .map(|editor| home.join(editor).join("extensions"))
        .collect()
}

/// An installed extension folder and the binary it should contain.
struct Candidate {
    name: String,
    version: ParsedAdtLsVersion,
    binary: PathBuf,
}

/// Finds the adt-ls binary following the reference rules; see the module comment. This is
/// the outcome of [`list_adt_ls_candidates`], which also shows every candidate.
pub(crate) fn resolve_adt_ls_path(opts: &DiscoverOptions) -> Result<PathBuf> {
    list_adt_ls_candidates(opts)?.into_resolution()
}

/// `extensionsDirs ?? (extensionsDir ? [extensionsDir] : defaults)`.
fn extension_roots(opts: &DiscoverOptions) -> Vec<PathBuf> {
    if let Some(dirs) = &opts.extensions_dirs {
        return dirs.clone();
    }
    match &opts.extensions_dir {
        Some(dir) if !dir.as_os_str().is_empty() => vec![dir.clone()],
        _ => opts
            .home
            .as_deref()
            .map(default_extension_dirs)
            .unwrap_or_default(),
    }
}

/// Matching extension folders of one root. A root that is missing, not a directory or
/// unreadable contributes nothing.
fn list_candidates(root: &Path, sub: &[String]) -> Vec<Candidate> {
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let version = extension_folder_version(&name)?;
            let binary = join_all(&root.join(entry.file_name()).join("adt-ls"), sub);
            Some(Candidate {
                name,
                version,
                binary,
            })
        })
        .collect()
}

/// The version of a folder named like `^sapse\.adt-vscode-\d+\.\d+\.\d+(?:-|$)` (case-
/// insensitive), or `None` for any other name.
fn extension_folder_version(name: &str) -> Option<ParsedAdtLsVersion> {
    let head = name.get(..EXTENSION_PREFIX.len())?;
    if !head.eq_ignore_ascii_case(EXTENSION_PREFIX) {
        return None;
    }
    let (version, rest) = parse_version_prefix(&name[EXTENSION_PREFIX.len()..])?;
    (rest.is_empty() || rest.starts_with('-')).then_some(version)
}

/// Ascending order: parsed version first, then the whole name with a numeric,
/// case-insensitive collation. For real folder names this equals the reference's
/// `localeCompare(…, {numeric: true, sensitivity: 'base'})`.
fn compare_candidates(a: &Candidate, b: &Candidate) -> Ordering {
    compare_versions(&a.version, &b.version).then_with(|| natural_compare(&a.name, &b.name))
}

/// Numeric-aware, case-insensitive comparison approximating ICU root collation: digit runs
/// compare by value, other characters by class (punctuation and spaces < digits < letters)
/// and then by lower-cased code point. Accents are not folded.
fn natural_compare(a: &str, b: &str) -> Ordering {
    let mut a = a.chars().peekable();
    let mut b = b.chars().peekable();
    loop {
        let (ca, cb) = match (a.peek().copied(), b.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(ca), Some(cb)) => (ca, cb),
        };
        let order = if ca.is_ascii_digit() && cb.is_ascii_digit() {
            compare_digit_runs(&take_digits(&mut a), &take_digits(&mut b))
        } else {
            a.next();
            b.next();
            char_key(ca).cmp(&char_key(cb))
        };
        if order != Ordering::Equal {
            return order;
        }
    }
}

/// Consumes a run of ASCII digits.
fn take_digits(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut run = String::new();
    while let Some(c) = chars.next_if(char::is_ascii_digit) {
        run.push(c);
    }
    run
}

/// Compares two digit strings by numeric value, without overflow.
fn compare_digit_runs(a: &str, b: &str) -> Ordering {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Sort key of a single character: class rank, then lower-cased code point.
fn char_key(c: char) -> (u8, char) {
    let class = if c.is_ascii_digit() {
        1
    } else if c.is_alphabetic() {
        2
    } else {
        0
    };
    (class, c.to_lowercase().next().unwrap_or(c))
}

/// `base` joined with every segment.
fn join_all(base: &Path, segments: &[String]) -> PathBuf {
    segments.iter().fold(base.to_path_buf(), |p, s| p.join(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

    /// A private temp directory removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> TempDir {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, AtomicOrdering::SeqCst);
            let dir = std::env::temp_dir().join(format!(
                "adt-ls-native-discovery-{}-{n}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
        fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const LINUX_SUB: &str = "linux/gtk/x86_64/adt-ls";

    fn touch(path: &Path) -> PathBuf {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, b"#!/bin/sh\n").unwrap();
        path.to_path_buf()
    }

    /// Creates `<root>/<folder>/adt-ls/<linux sub-path>` and returns the binary path.
    fn install(root: &Path, folder: &str) -> PathBuf {
        touch(&root.join(folder).join("adt-ls").join(LINUX_SUB))
    }

    /// A temp dir whose `ext` folder holds an install of each of `folders`; the binaries, in
    /// that order.
    fn installed(folders: &[&str]) -> (TempDir, PathBuf, Vec<PathBuf>) {
        let tmp = TempDir::new();
        let ext = tmp.path().join("ext");
        let bins = folders.iter().map(|f| install(&ext, f)).collect();
        (tmp, ext, bins)
    }

    /// Linux x64 options with no process state leaking in.
    fn linux_opts(tmp: &TempDir) -> DiscoverOptions {
        DiscoverOptions {
            platform: Some("linux".into()),
            arch: Some("x64".into()),
            repo_root: Some(tmp.path().join("repo")),
            extensions_dirs: Some(vec![]),
            ..DiscoverOptions::default()
        }
    }

    /// Linux x64 options scanning exactly `roots`.
    fn with_roots(tmp: &TempDir, roots: Vec<PathBuf>) -> DiscoverOptions {
        DiscoverOptions {
            extensions_dirs: Some(roots),
            ..linux_opts(tmp)
        }
    }

    /// The binary below `tmp`'s `repo/vendor/adt-ls/`.
    fn vendor_bin(tmp: &TempDir) -> PathBuf {
        tmp.path().join("repo/vendor/adt-ls").join(LINUX_SUB)
    }

    /// The binary the resolver picks for `opts`.
    fn resolved(opts: &DiscoverOptions) -> PathBuf {
        resolve_adt_ls_path(opts).unwrap()
    }

    fn message(opts: &DiscoverOptions) -> String {
        resolve_adt_ls_path(opts).unwrap_err().message
    }

    // discovery.test.ts: platformSubPath (4 cases).
    #[test]
    fn sub_path_darwin_arm64() {
        assert_eq!(
            platform_sub_path("darwin", "arm64").unwrap(),
            [
                "macosx",
                "cocoa",
                "aarch64",
                "Adt-ls.app",
                "Contents",
                "MacOS",
                "adt-ls"
            ]
        );
    }

    #[test]
    fn sub_path_linux_x64() {
        assert_eq!(
            platform_sub_path("linux", "x64").unwrap(),
            ["linux", "gtk", "x86_64", "adt-ls"]
        );
    }

    #[test]
    fn sub_path_win32_x64() {
        assert_eq!(
            platform_sub_path("win32", "x64").unwrap(),
            ["win32", "win32", "x86_64", "adt-lsc.exe"]
        );
        assert_eq!(platform_sub_path("darwin", "x64").unwrap()[2], "x86_64");
        assert_eq!(platform_sub_path("linux", "riscv64").unwrap()[2], "riscv64");
    }

    #[test]
    fn sub_path_unsupported_platform() {
        let e = platform_sub_path("freebsd", "x64").unwrap_err();
        assert_eq!(e.message, "Unsupported platform: freebsd");
    }

    #[test]
    fn unsupported_platform_throws_before_an_explicit_path() {
        let tmp = TempDir::new();
        let bin = touch(&tmp.path().join("adt-ls"));
        let opts = DiscoverOptions {
            platform: Some("aix".into()),
            explicit_path: Some(bin.display().to_string()),
            ..linux_opts(&tmp)
        };
        assert_eq!(message(&opts), "Unsupported platform: aix");
    }

    #[test]
    fn node_names_for_this_build() {
        assert!(
            platform_sub_path(node_platform(), node_arch()).is_ok()
                || cfg!(not(any(
                    target_os = "linux",
                    target_os = "macos",
                    target_os = "windows"
                )))
        );
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        assert_eq!((node_platform(), node_arch()), ("linux", "x64"));
    }

    #[test]
    fn default_roots_in_editor_order() {
        let home = Path::new("/h");
        assert_eq!(
            default_extension_dirs(home),
            [
                PathBuf::from("/h/.vscode/extensions"),
                PathBuf::from("/h/.cursor/extensions"),
                PathBuf::from("/h/.vscode-insiders/extensions"),
            ]
        );
    }

    // discovery.test.ts: an explicit existing path is honoured.
    #[test]
    fn explicit_existing_file_is_honoured() {
        let tmp = TempDir::new();
        let bin = touch(&tmp.path().join("custom").join("adt-ls"));
        install(&tmp.path().join("ext"), "sapse.adt-vscode-9.9.9");
        touch(&vendor_bin(&tmp));
        let opts = DiscoverOptions {
            explicit_path: Some(bin.display().to_string()),
            ..with_roots(&tmp, vec![tmp.path().join("ext")])
        };
        assert_eq!(resolved(&opts), bin);
    }

    #[test]
    fn explicit_option_beats_env_and_env_is_used_alone() {
        let tmp = TempDir::new();
        let a = touch(&tmp.path().join("a"));
        let b = touch(&tmp.path().join("b"));
        let both = DiscoverOptions {
            explicit_path: Some(a.display().to_string()),
            env_adt_ls_path: Some(b.display().to_string()),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&both), a);
        let env_only = DiscoverOptions {
            env_adt_ls_path: Some(b.display().to_string()),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&env_only), b);
    }

    #[test]
    fn empty_env_or_option_counts_as_unset() {
        let tmp = TempDir::new();
        let vendor = touch(&vendor_bin(&tmp));
        let opts = DiscoverOptions {
            env_adt_ls_path: Some(String::new()),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&opts), vendor);
        // `explicitPath ?? env`: an empty option hides the env var, then counts as unset.
        let missing = tmp.path().join("missing").display().to_string();
        let opts = DiscoverOptions {
            explicit_path: Some(String::new()),
            env_adt_ls_path: Some(missing),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&opts), vendor);
    }

    // discovery.test.ts: a vendor binary is found.
    #[test]
    fn vendor_binary_is_found() {
        let tmp = TempDir::new();
        let vendor = touch(&vendor_bin(&tmp));
        install(&tmp.path().join("ext"), "sapse.adt-vscode-9.9.9");
        let opts = with_roots(&tmp, vec![tmp.path().join("ext")]);
        assert_eq!(resolved(&opts), vendor);
    }

    #[test]
    fn vendor_defaults_to_cwd_and_a_vendor_directory_is_skipped() {
        let tmp = TempDir::new();
        let vendor = touch(&tmp.path().join("cwd/vendor/adt-ls").join(LINUX_SUB));
        let opts = DiscoverOptions {
            repo_root: None,
            cwd: Some(tmp.path().join("cwd")),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&opts), vendor);

        fs::create_dir_all(vendor_bin(&tmp)).unwrap();
        let newest = install(&tmp.path().join("ext"), "sapse.adt-vscode-1.1.2-linux-x64");
        let opts = with_roots(&tmp, vec![tmp.path().join("ext")]);
        assert_eq!(resolved(&opts), newest);
    }

    // discovery.test.ts: the newest extension among two in one dir.
    #[test]
    fn newest_extension_in_one_dir() {
        let (tmp, ext, bins) = installed(&[
            "sapse.adt-vscode-1.0.1-linux-x64",
            "sapse.adt-vscode-1.1.2-linux-x64",
        ]);
        let opts = DiscoverOptions {
            extensions_dir: Some(ext),
            extensions_dirs: None,
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&opts), bins[1]);
    }

    // discovery.test.ts: the second of two extension dirs is scanned.
    #[test]
    fn second_extension_dir_is_scanned() {
        let tmp = TempDir::new();
        fs::create_dir_all(tmp.path().join("first")).unwrap();
        let found = install(&tmp.path().join("second"), "sapse.adt-vscode-1.1.2");
        let roots = ["missing-root", "first", "second"].map(|dir| tmp.path().join(dir));
        let opts = with_roots(&tmp, roots.to_vec());
        assert_eq!(resolved(&opts), found);
    }

    // discovery.test.ts: newest across three editor roots, incomplete newest skipped.
    #[test]
    fn newest_across_three_roots_skipping_incomplete() {
        let tmp = TempDir::new();
        let home = tmp.path().join("home");
        let roots = default_extension_dirs(&home);
        install(&roots[0], "sapse.adt-vscode-1.1.2-linux-x64");
        let cursor = install(&roots[1], "sapse.adt-vscode-1.1.3-linux-x64");
        let incomplete = roots[2].join("sapse.adt-vscode-1.2.0-linux-x64");
        fs::create_dir_all(incomplete.join("adt-ls")).unwrap();
        let opts = DiscoverOptions {
            extensions_dirs: None,
            home: Some(home.clone()),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&opts), cursor);
        let completed = touch(&incomplete.join("adt-ls").join(LINUX_SUB));
        assert_eq!(resolved(&opts), completed);
    }

    // discovery.test.ts: an explicit directory throws instead of falling back.
    #[test]
    fn explicit_directory_throws_without_fallback() {
        let tmp = TempDir::new();
        touch(&vendor_bin(&tmp));
        let dir = tmp.path().join("a-dir");
        fs::create_dir_all(&dir).unwrap();
        let opts = DiscoverOptions {
            explicit_path: Some(dir.display().to_string()),
            ..linux_opts(&tmp)
        };
        assert_eq!(
            message(&opts),
            format!(
                "Explicit adt-ls binary is not a file: {}. Check adtLs.path / ADT_LS_PATH.",
                dir.display()
            )
        );
    }

    // discovery.test.ts: a missing ADT_LS_PATH throws instead of falling back.
    #[test]
    fn missing_env_path_throws_without_fallback() {
        let tmp = TempDir::new();
        touch(&vendor_bin(&tmp));
        let missing = tmp.path().join("missing").join("adt-ls");
        let opts = DiscoverOptions {
            env_adt_ls_path: Some(missing.display().to_string()),
            ..linux_opts(&tmp)
        };
        let msg = message(&opts);
        assert!(
            msg.starts_with("Explicit adt-ls binary is not a file: "),
            "{msg}"
        );
        assert!(msg.contains("missing"));
    }

    // discovery.test.ts: the not-found error lists the tried paths.
    #[test]
    fn not_found_lists_tried_paths_in_order() {
        let tmp = TempDir::new();
        let ext = tmp.path().join("ext");
        fs::create_dir_all(ext.join("sapse.adt-vscode-1.1.2-linux-x64")).unwrap();
        fs::create_dir_all(ext.join("sapse.adt-vscode-1.10.0-linux-x64")).unwrap();
        fs::create_dir_all(ext.join("unrelated-1.2.3")).unwrap();
        let opts = with_roots(&tmp, vec![ext.clone()]);
        let bin = |folder: &str| ext.join(folder).join("adt-ls").join(LINUX_SUB);
        let expected = format!(
            "adt-ls binary not found. Set ADT_LS_PATH, drop it in vendor/adt-ls/, or install the \
             'sapse.adt-vscode' extension. Tried:\n  - {}\n  - {}\n  - {}",
            vendor_bin(&tmp).display(),
            bin("sapse.adt-vscode-1.10.0-linux-x64").display(),
            bin("sapse.adt-vscode-1.1.2-linux-x64").display(),
        );
        assert_eq!(message(&opts), expected);
    }

    #[test]
    fn not_found_with_nothing_lists_only_vendor() {
        let tmp = TempDir::new();
        let msg = message(&linux_opts(&tmp));
        assert!(msg.ends_with(&format!("Tried:\n  - {}", vendor_bin(&tmp).display())));
        // No home and no roots: the default roots are simply absent.
        let opts = DiscoverOptions {
            extensions_dirs: None,
            ..linux_opts(&tmp)
        };
        assert_eq!(message(&opts).matches("\n  - ").count(), 1);
    }

    #[test]
    fn numeric_ordering_ten_beats_nine_beats_one() {
        let (tmp, ext, bins) = installed(&[
            "sapse.adt-vscode-1.1.2-linux-x64",
            "sapse.adt-vscode-1.9.0-linux-x64",
            "sapse.adt-vscode-1.10.0-linux-x64",
        ]);
        let opts = with_roots(&tmp, vec![ext.clone()]);
        assert_eq!(resolved(&opts), bins[2]);
        fs::remove_dir_all(ext.join("sapse.adt-vscode-1.10.0-linux-x64")).unwrap();
        assert!(resolve_adt_ls_path(&opts)
            .unwrap()
            .starts_with(ext.join("sapse.adt-vscode-1.9.0-linux-x64")));
    }

    #[test]
    fn upper_case_folders_match_and_bad_names_are_ignored() {
        let (tmp, ext, bins) = installed(&[
            "SAPSE.ADT-VSCODE-1.1.2-LINUX-X64",
            "sapse.adt-vscode-9.9",
            "sapse.adt-vscode-9.9.9x",
            "sapse.adt-vscode-9.9.9.1",
            "sapse.adt-vscode-latest",
            "xsapse.adt-vscode-9.9.9",
            "sapse_adt-vscode-9.9.9",
        ]);
        let opts = with_roots(&tmp, vec![ext]);
        assert_eq!(
            resolved(&opts),
            bins[0],
            "the upper-case folder, not one of the bad names"
        );
    }

    #[test]
    fn extensions_dirs_wins_over_extensions_dir_and_empty_dir_means_defaults() {
        let tmp = TempDir::new();
        let single = install(&tmp.path().join("single"), "sapse.adt-vscode-2.0.0");
        let listed = install(&tmp.path().join("listed"), "sapse.adt-vscode-1.1.2");
        let opts = DiscoverOptions {
            extensions_dir: Some(tmp.path().join("single")),
            extensions_dirs: Some(vec![tmp.path().join("listed")]),
            ..linux_opts(&tmp)
        };
        assert_eq!(resolved(&opts), listed);
        let opts = DiscoverOptions {
            extensions_dirs: None,
            ..opts
        };
        assert_eq!(resolved(&opts), single);

        let home = tmp.path().join("home");
        let vscode = install(&default_extension_dirs(&home)[0], "sapse.adt-vscode-1.1.2");
        let opts = DiscoverOptions {
            extensions_dir: Some(PathBuf::new()),
            home: Some(home),
            ..opts
        };
        assert_eq!(resolved(&opts), vscode);
    }

    #[test]
    fn darwin_layout_is_used_for_darwin() {
        let tmp = TempDir::new();
        let bin = touch(
            &tmp.path()
                .join("ext/sapse.adt-vscode-1.1.2-darwin-arm64/adt-ls")
                .join("macosx/cocoa/aarch64/Adt-ls.app/Contents/MacOS/adt-ls"),
        );
        let opts = DiscoverOptions {
            platform: Some("darwin".into()),
            arch: Some("arm64".into()),
            ..with_roots(&tmp, vec![tmp.path().join("ext")])
        };
        assert_eq!(resolved(&opts), bin);
    }

    #[test]
    fn equal_versions_break_ties_on_the_name() {
        let (tmp, ext, bins) = installed(&[
            "sapse.adt-vscode-1.1.2-darwin-arm64",
            "sapse.adt-vscode-1.1.2-linux-x64",
            "sapse.adt-vscode-1.1.2",
        ]);
        let opts = with_roots(&tmp, vec![ext]);
        assert_eq!(resolved(&opts), bins[1]);
    }

    #[test]
    fn natural_compare_rules() {
        use Ordering::*;
        assert_eq!(natural_compare("a-1.10.0", "a-1.9.0"), Greater);
        assert_eq!(natural_compare("A-1.1.2-X", "a-1.1.2-x"), Equal);
        assert_eq!(natural_compare("a-01", "a-1"), Equal);
        assert_eq!(natural_compare("a-1.1.2", "a-1.1.2-x"), Less);
        assert_eq!(natural_compare("a-1", "a-b"), Less);
        assert_eq!(natural_compare("a-", "a1"), Less);
        assert_eq!(
            natural_compare(
                &format!("v{}", "9".repeat(60)),
                &format!("v1{}", "0".repeat(60))
            ),
            Less
        );
    }

    #[test]
    fn from_env_reads_process_state_only() {
        let opts = DiscoverOptions::from_env();
        assert_eq!(opts.explicit_path, None);
        assert_eq!(opts.platform, None);
        assert_eq!(opts.cwd, std::env::current_dir().ok());
        assert_eq!(opts.env_adt_ls_path, std::env::var("ADT_LS_PATH").ok());
    }
}
