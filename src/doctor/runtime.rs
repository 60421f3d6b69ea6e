//! The runtime section: the JS runtime (as the host reports it) and which native binary of
//! this package is loaded (found from the address of our own code), so a user sees whether
//! the platform package or a local build answered.

use serde_json::{json, Value};
use std::path::PathBuf;

/// What the JS host reports about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RuntimeInfo {
    /// `node` or `bun`.
    pub name: String,
    pub version: String,
    /// `process.platform`, `process.arch`.
    pub platform: String,
    pub arch: String,
}

/// The runtime section of the report.
pub(crate) fn section(info: &RuntimeInfo) -> Value {
    let binary = loaded_binary();
    json!({
        "name": info.name,
        "version": info.version,
        "platform": info.platform,
        "arch": info.arch,
        "nativeBinary": binary.as_ref().map(|p| p.display().to_string()),
        "nativePackage": binary.as_deref().and_then(|p| package_of(&p.to_string_lossy())),
    })
}

/// One-line summary for the `runtime` check.
pub(crate) fn summary(info: &RuntimeInfo) -> String {
    let binary = loaded_binary()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    format!(
        "{} {} on {}-{}, native binary {binary}",
        info.name, info.version, info.platform, info.arch
    )
}

/// The platform package a binary path belongs to (`…/node_modules/<pkg>/<file>.node`), or
/// `None` for a binary next to the loader (a local build).
pub(crate) fn package_of(path: &str) -> Option<String> {
    let normalized = path.replace('\\', "/");
    let rest = &normalized[normalized.rfind("/node_modules/")? + "/node_modules/".len()..];
    let name = rest.split('/').next()?;
    name.starts_with("adt-ls-native-").then(|| name.to_string())
}

/// The file this code was loaded from.
#[cfg(unix)]
pub(crate) fn loaded_binary() -> Option<PathBuf> {
    let mut info = std::mem::MaybeUninit::<libc::Dl_info>::zeroed();
    let addr = loaded_binary as *const () as *const libc::c_void;
    // SAFETY: dladdr only reads the address and fills `info`; `dli_fname` points into the
    // loader's tables, valid while the object stays loaded (it is us).
    let found = unsafe { libc::dladdr(addr, info.as_mut_ptr()) };
    if found == 0 {
        return None;
    }
    // SAFETY: dladdr returned non-zero, so it filled `info` (and `info` started zeroed, so no field
    // is uninitialised memory either way).
    let info = unsafe { info.assume_init() };
    if info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: `dli_fname` is non-null and points to the loader's NUL-terminated path of the loaded
    // object (this library), valid while it stays loaded; it is copied out below.
    let name = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) };
    Some(PathBuf::from(name.to_string_lossy().into_owned()))
}

/// The file this code was loaded from (not determined on this OS).
#[cfg(not(unix))]
pub(crate) fn loaded_binary() -> Option<PathBuf> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_name_from_the_binary_path() {
        assert_eq!(
            package_of(
                "/p/node_modules/adt-ls-native-linux-x64-gnu/adt-ls-native.linux-x64-gnu.node"
            ),
            Some("adt-ls-native-linux-x64-gnu".to_string())
        );
        assert_eq!(
            package_of(r"C:\p\node_modules\adt-ls-native-win32-x64-msvc\a.node"),
            Some("adt-ls-native-win32-x64-msvc".to_string())
        );
        assert_eq!(package_of("/repo/adt-ls-native.linux-x64-gnu.node"), None);
        assert_eq!(package_of("/p/node_modules/other/x.node"), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_test_binary_finds_itself() {
        let path = loaded_binary().unwrap();
        assert!(path.exists(), "{}", path.display());
    }
}
