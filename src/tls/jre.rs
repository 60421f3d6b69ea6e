//! Finding the JRE that ships inside adt-ls (docs/wire.md#jre-tools): its `keytool` (only needed by the
//! truststore's fallback path) and its `cacerts` (the base of every truststore we write).
//!
//! Roots, tried in order (paths normalised lexically, like Node's `path.join`):
//! `<binDir>/plugins` (Linux, Windows), `<binDir>/../Eclipse/plugins` (macOS app bundle),
//! `<binDir>/../../Eclipse/plugins`. In each root that exists we consider the entries whose
//! name starts with `com.sap.adt.jvm.`.
//!
//! Deliberate difference: the reference takes the first such entry in readdir order, which
//! depends on the file system. We sort the candidates by name, **descending** (so with two
//! bundled JVMs the later version string wins, e.g. `..._21.12.0` over `..._21.11.0`), and
//! take the first whose keytool exists; a root without one falls through to the next root, as
//! in the reference.

use crate::kernel::error::{Error, Result};
use std::path::{Component, Path, PathBuf};

const JVM_DIR_PREFIX: &str = "com.sap.adt.jvm.";

/// The bundled JRE's tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JreTools {
    /// `<jvm>/jre/bin/keytool` (`keytool.exe` on Windows); exists.
    pub keytool: PathBuf,
    /// `<jvm>/jre/lib/security/cacerts` (not checked for existence, as in the reference).
    pub cacerts: PathBuf,
}

/// Locate the JRE tools relative to the adt-ls binary.
pub(crate) fn resolve_jre_tools(adt_ls_bin: &Path) -> Result<JreTools> {
    let roots = plugin_roots(adt_ls_bin);
    for root in &roots {
        if !root.is_dir() {
            continue;
        }
        for jvm in jvm_candidates(root) {
            let jre = jvm.join("jre");
            let keytool = jre.join("bin").join(keytool_name());
            if keytool.is_file() {
                let cacerts = jre.join("lib").join("security").join("cacerts");
                return Ok(JreTools { keytool, cacerts });
            }
        }
    }
    let looked: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    Err(Error::new(format!(
        "Could not locate the adt-ls JRE keytool relative to {}. Looked under: {}",
        adt_ls_bin.display(),
        looked.join(", ")
    )))
}

/// The three plugin roots, in search order.
pub(crate) fn plugin_roots(adt_ls_bin: &Path) -> Vec<PathBuf> {
    let bin_dir = adt_ls_bin.parent().unwrap_or(Path::new("."));
    vec![
        normalize(&bin_dir.join("plugins")),
        normalize(&bin_dir.join("..").join("Eclipse").join("plugins")),
        normalize(
            &bin_dir
                .join("..")
                .join("..")
                .join("Eclipse")
                .join("plugins"),
        ),
    ]
}

fn keytool_name() -> &'static str {
    if cfg!(windows) {
        "keytool.exe"
    } else {
        "keytool"
    }
}

/// `com.sap.adt.jvm.*` entries of `root`, sorted by name descending.
fn jvm_candidates(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.starts_with(JVM_DIR_PREFIX))
        .collect();
    names.sort_unstable_by(|a, b| b.cmp(a));
    names.into_iter().map(|n| root.join(n)).collect()
}

/// Resolve `.` and `..` lexically (no file-system access), keeping a leading `..` that has
/// nothing left to pop.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let can_pop = matches!(out.components().next_back(), Some(Component::Normal(_)));
                if can_pop {
                    out.pop();
                } else if !matches!(
                    out.components().next_back(),
                    Some(Component::RootDir) | Some(Component::Prefix(_))
                ) {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::test_dir::fresh_temp_dir;

    fn temp_dir(tag: &str) -> PathBuf {
        fresh_temp_dir(&format!("tlsmod-jre-{tag}"))
    }

    /// An empty file at `path`, its directories created.
    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }

    /// Where the keytool of the JVM plugin `jvm` under `base` lies.
    fn keytool_in(base: &Path, jvm: &str) -> PathBuf {
        base.join(jvm).join("jre/bin").join(keytool_name())
    }

    /// An empty `bin` and a keytool in the JVM plugin `jvm`, both under `base`; the `bin` path.
    fn make_layout(base: &Path, bin: &str, jvm: &str) -> PathBuf {
        let bin_path = base.join(bin);
        touch(&bin_path);
        touch(&keytool_in(base, jvm));
        bin_path
    }

    #[test]
    fn finds_keytool_in_the_linux_layout() {
        let base = temp_dir("linux");
        let jvm = "plugins/com.sap.adt.jvm.sapmachineminimal.linux.x86_64_21.11.0";
        let bin = make_layout(&base, "adt-ls", jvm);
        let tools = resolve_jre_tools(&bin).unwrap();
        assert_eq!(tools.keytool, keytool_in(&base, jvm));
        assert_eq!(
            tools.cacerts,
            base.join(jvm).join("jre/lib/security/cacerts")
        );
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn finds_keytool_in_the_macos_layout() {
        let base = temp_dir("mac");
        let jvm =
            "Contents/Eclipse/plugins/com.sap.adt.jvm.sapmachineminimal.macosx.aarch64_21.11.0";
        let bin = make_layout(&base, "Contents/MacOS/adt-ls", jvm);
        let tools = resolve_jre_tools(&bin).unwrap();
        assert_eq!(tools.keytool, keytool_in(&base, jvm));
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn prefers_the_later_name_and_skips_jvms_without_keytool() {
        let base = temp_dir("many");
        let old = "plugins/com.sap.adt.jvm.sapmachine_21.11.0";
        let new = "plugins/com.sap.adt.jvm.sapmachine_21.12.0";
        let broken = "plugins/com.sap.adt.jvm.zzz_no_keytool";
        let bin = make_layout(&base, "adt-ls", old);
        make_layout(&base, "x", new);
        std::fs::create_dir_all(base.join(broken).join("jre/bin")).unwrap();
        let tools = resolve_jre_tools(&bin).unwrap();
        assert!(tools.keytool.starts_with(base.join(new)), "{tools:?}");
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn names_every_root_when_nothing_is_found() {
        let base = temp_dir("empty");
        let bin = base.join("a").join("b").join("adt-ls");
        let err = resolve_jre_tools(&bin).unwrap_err();
        let expected = format!(
            "Could not locate the adt-ls JRE keytool relative to {}. Looked under: {}, {}, {}",
            bin.display(),
            base.join("a/b/plugins").display(),
            base.join("a/Eclipse/plugins").display(),
            base.join("Eclipse/plugins").display()
        );
        assert_eq!(err.message, expected);
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn normalizes_parent_components_lexically() {
        assert_eq!(normalize(Path::new("/a/b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/../x")), PathBuf::from("/x"));
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
        assert_eq!(normalize(Path::new("a/../..")), PathBuf::from(".."));
        assert_eq!(normalize(Path::new("./")), PathBuf::from("."));
    }
}
