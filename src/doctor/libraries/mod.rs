//! The `adt-ls.libraries` check (Linux): whether the shared libraries the selected adt-ls
//! binary, its bundled JRE and plugins need resolve as the dynamic linker would resolve them
//! here, and for the missing ones the Debian/Ubuntu and RHEL packages that provide them.
//! Containers built from slim images usually lack adt-ls's GTK 3, X11, font and sound stack.

pub(crate) mod elf;
pub(crate) mod ld_cache;
pub(crate) mod packages;
pub(crate) mod search;
pub(crate) mod verdict;
pub(crate) mod walk;

use super::report::Check;
use crate::kernel::host::HostEnv;
use search::{Object, SearchConfig};
use serde_json::{json, Value};
use std::path::Path;
use walk::Missing;

/// The `libraries` section (`null` when not checked) and the check.
pub(crate) fn examine(bin: &Path, host: &HostEnv) -> (Value, Check) {
    if !cfg!(target_os = "linux") {
        return (
            Value::Null,
            Check::skip(
                verdict::ID,
                "checked on Linux only (adt-ls's macOS and Windows builds bring their frameworks)",
            ),
        );
    }
    let file = match std::fs::File::open(bin) {
        Ok(f) => f,
        Err(e) => {
            return not_checked(
                format!("cannot read {}: {e}", bin.display()),
                "make the adt-ls binary readable",
            )
        }
    };
    let (bits, machine) = match elf::identify(&file) {
        Ok(id) => id,
        Err(elf::ElfError::NotElf) => {
            let section = json!({ "binary": bin.display().to_string(), "elf": false });
            return (
                section,
                Check::skip(
                    verdict::ID,
                    format!(
                        "{} is not an ELF executable (a script?): its libraries are not checked",
                        bin.display()
                    ),
                ),
            );
        }
        Err(e) => return not_checked(format!("{}: {e}", bin.display()), REINSTALL),
    };
    let (cfg, search) = search_config(host, bits, machine);
    let mut truncated = false;
    let bundle = walk::scan_bundle(bin.parent().unwrap_or(Path::new("/")), &mut truncated);
    let mut found = match walk::walk(bin, &bundle, &cfg) {
        Ok(w) => w,
        Err(e) => return not_checked(format!("{}: {e}", bin.display()), REINSTALL),
    };
    found.truncated |= truncated;
    let runtime = runtime_missing(bin, &cfg);
    let section = verdict::section(&bin.display().to_string(), &found, &runtime, search);
    (section, verdict::check(&found, &runtime))
}

/// The fix for a binary that cannot be read as ELF or walked.
const REINSTALL: &str = "reinstall SAP's ABAP extension";

/// No `libraries` section, and a warning with `message` and `fix`.
fn not_checked(message: String, fix: &str) -> (Value, Check) {
    (Value::Null, Check::warn(verdict::ID, message, fix))
}

/// The search inputs of this machine, and their summary for the report.
fn search_config(host: &HostEnv, bits: u8, machine: u16) -> (SearchConfig, Value) {
    let ld_library_path = host
        .var("LD_LIBRARY_PATH")
        .filter(|v| !v.is_empty())
        .map(|v| search::split_list(&v))
        .unwrap_or_default();
    let cache_path = Path::new(ld_cache::DEFAULT_PATH);
    let (cache, cache_error) = match ld_cache::read(cache_path) {
        Ok(entries) => (entries, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let default_dirs = search::default_dirs(machine);
    let summary = json!({
        "ldLibraryPath": ld_library_path,
        "cache": cache_path.display().to_string(),
        "cacheEntries": cache.len(),
        "cacheError": cache_error,
        "defaultDirs": default_dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>(),
    });
    (
        SearchConfig {
            ld_library_path,
            cache,
            default_dirs,
            bits,
            machine,
        },
        summary,
    )
}

/// The run-time loads ([`verdict::RUNTIME_LOADED`]) no search finds, as the binary would
/// search for them.
fn runtime_missing(bin: &Path, cfg: &SearchConfig) -> Vec<Missing> {
    let exe = match std::fs::File::open(bin).map(|f| elf::read_dynamic(&f)) {
        Ok(Ok(info)) => Object {
            path: bin.to_path_buf(),
            info,
        },
        _ => return Vec::new(),
    };
    verdict::RUNTIME_LOADED
        .iter()
        .filter(|r| search::find(r.name, &exe, &exe, cfg).is_none())
        .map(|r| Missing {
            name: r.name.to_string(),
            needed_by: vec![r.by.to_string()],
            bundled_only: true,
        })
        .collect()
}
