//! Where the dynamic linker finds a library an object needs, in ld.so(8)'s order: a name with
//! a slash is a path; otherwise the object's `DT_RPATH` (ignored when it has `DT_RUNPATH`)
//! and the executable's, `LD_LIBRARY_PATH`, the object's `DT_RUNPATH`, `/etc/ld.so.cache`,
//! then the default directories. `$ORIGIN` is the object's directory, `$LIB` and `$PLATFORM`
//! expand as on x86-64 and AArch64 Linux. A candidate counts only when it is an ELF file of
//! the executable's class and machine (the linker skips the others).

use super::elf::{self, DynamicInfo};
use super::ld_cache::CacheEntry;
use std::path::{Path, PathBuf};

/// The search inputs that come from the machine rather than the object.
#[derive(Debug, Clone, Default)]
pub(crate) struct SearchConfig {
    /// `LD_LIBRARY_PATH`, split.
    pub ld_library_path: Vec<String>,
    pub cache: Vec<CacheEntry>,
    pub default_dirs: Vec<PathBuf>,
    /// The executable's ELF class and machine.
    pub bits: u8,
    pub machine: u16,
}

/// An object taking part in the search: its file and what it declares.
#[derive(Debug, Clone)]
pub(crate) struct Object {
    pub path: PathBuf,
    pub info: DynamicInfo,
}

/// The Debian multiarch triplet and `$PLATFORM` of an ELF machine.
fn arch(machine: u16) -> (&'static str, &'static str) {
    match machine {
        183 => ("aarch64-linux-gnu", "aarch64"),
        _ => ("x86_64-linux-gnu", "x86_64"),
    }
}

/// The dynamic linker's built-in directories (Debian's multiarch ones first).
pub(crate) fn default_dirs(machine: u16) -> Vec<PathBuf> {
    let (triplet, _) = arch(machine);
    [
        format!("/lib/{triplet}"),
        format!("/usr/lib/{triplet}"),
        "/lib64".into(),
        "/usr/lib64".into(),
        "/lib".into(),
        "/usr/lib".into(),
    ]
    .into_iter()
    .map(PathBuf::from)
    .collect()
}

/// Split a search list (`:`; `LD_LIBRARY_PATH` also allows `;`). An empty entry is the
/// current directory.
pub(crate) fn split_list(list: &str) -> Vec<String> {
    list.split([':', ';'])
        .map(|s| {
            if s.is_empty() {
                ".".to_string()
            } else {
                s.to_string()
            }
        })
        .collect()
}

/// The directories one list entry stands for, with `$ORIGIN`, `$LIB`, `$PLATFORM` expanded.
fn expand(entry: &str, origin: &Path, machine: u16) -> Vec<PathBuf> {
    let (triplet, platform) = arch(machine);
    let origin = origin.to_string_lossy();
    let base = entry
        .replace("${ORIGIN}", &origin)
        .replace("$ORIGIN", &origin)
        .replace("${PLATFORM}", platform)
        .replace("$PLATFORM", platform);
    if base.contains("$LIB") || base.contains("${LIB}") {
        ["lib64".to_string(), format!("lib/{triplet}")]
            .iter()
            .map(|lib| PathBuf::from(base.replace("${LIB}", lib).replace("$LIB", lib)))
            .collect()
    } else {
        vec![PathBuf::from(base)]
    }
}

/// The directory `$ORIGIN` names for an object: its real directory where it resolves.
fn origin_of(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new("/"));
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

/// True when `path` is an ELF file the executable can load.
fn loadable(path: &Path, cfg: &SearchConfig) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    file.metadata().is_ok_and(|m| m.is_file())
        && elf::identify(&file) == Ok((cfg.bits, cfg.machine))
}

/// Where `name`, needed by `obj` in a process started from `exe`, resolves.
pub(crate) fn find(name: &str, obj: &Object, exe: &Object, cfg: &SearchConfig) -> Option<PathBuf> {
    if name.contains('/') {
        let path = PathBuf::from(name);
        return loadable(&path, cfg).then_some(path);
    }
    let mut dirs = Vec::new();
    let list = |raw: &Option<String>, origin: &Path, out: &mut Vec<PathBuf>| {
        for entry in raw.as_deref().map(split_list).unwrap_or_default() {
            out.extend(expand(&entry, origin, cfg.machine));
        }
    };
    if obj.info.runpath.is_none() {
        list(&obj.info.rpath, &origin_of(&obj.path), &mut dirs);
        if obj.path != exe.path && exe.info.runpath.is_none() {
            list(&exe.info.rpath, &origin_of(&exe.path), &mut dirs);
        }
    }
    for entry in &cfg.ld_library_path {
        dirs.extend(expand(entry, &origin_of(&exe.path), cfg.machine));
    }
    list(&obj.info.runpath, &origin_of(&obj.path), &mut dirs);
    if let Some(hit) = dirs.iter().map(|d| d.join(name)).find(|p| loadable(p, cfg)) {
        return Some(hit);
    }
    if let Some(hit) = cfg
        .cache
        .iter()
        .filter(|e| e.name == name)
        .map(|e| e.path.clone())
        .find(|p| loadable(p, cfg))
    {
        return Some(hit);
    }
    cfg.default_dirs
        .iter()
        .map(|d| d.join(name))
        .find(|p| loadable(p, cfg))
}

#[cfg(test)]
mod tests {
    use super::super::elf::testing::{elf64, Spec};
    use super::*;

    fn temp() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "adt-ls-native-ldsearch-{}",
            crate::kernel::ids::random_hex(6).unwrap()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn put(dir: &Path, name: &str, spec: &Spec) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, elf64(spec)).unwrap();
        path
    }

    fn object(path: &Path) -> Object {
        let info = elf::read_dynamic(&std::fs::File::open(path).unwrap()).unwrap();
        Object {
            path: path.to_path_buf(),
            info,
        }
    }

    fn config() -> SearchConfig {
        SearchConfig {
            bits: 64,
            machine: 62,
            ..Default::default()
        }
    }

    #[test]
    fn rpath_origin_then_ld_library_path_then_runpath_then_cache_then_defaults() {
        let t = temp();
        let exe = object(&put(
            &t.join("bin"),
            "adt-ls",
            &Spec {
                needed: vec!["liba.so"],
                rpath: Some("$ORIGIN/../lib"),
                ..Default::default()
            },
        ));
        put(&t.join("lib"), "liba.so", &Spec::default());
        put(&t.join("env"), "liba.so", &Spec::default());
        let mut cfg = config();
        cfg.ld_library_path = split_list(&t.join("env").display().to_string());
        assert_eq!(
            find("liba.so", &exe, &exe, &cfg),
            Some(origin_of(&exe.path).join("../lib/liba.so"))
        );

        // RUNPATH comes after LD_LIBRARY_PATH, and turns RPATH off.
        let lib = object(&put(
            &t.join("lib"),
            "libb.so",
            &Spec {
                needed: vec!["liba.so"],
                rpath: Some("/nowhere"),
                runpath: Some("$ORIGIN"),
                ..Default::default()
            },
        ));
        assert_eq!(
            find("liba.so", &lib, &exe, &cfg),
            Some(t.join("env/liba.so"))
        );
        cfg.ld_library_path.clear();
        assert_eq!(
            find("liba.so", &lib, &exe, &cfg),
            Some(origin_of(&lib.path).join("liba.so"))
        );

        // The cache, then the default directories; a wrong-machine file is skipped.
        let plain = object(&put(&t.join("bin"), "plain", &Spec::default()));
        let cached = put(&t.join("cached"), "libc.so.6", &Spec::default());
        put(&t.join("default"), "libc.so.6", &Spec::default());
        put(
            &t.join("arm"),
            "libz.so.1",
            &Spec {
                machine: Some(183),
                ..Default::default()
            },
        );
        cfg.cache = vec![CacheEntry {
            name: "libc.so.6".into(),
            path: cached.clone(),
        }];
        cfg.default_dirs = vec![t.join("arm"), t.join("default")];
        assert_eq!(find("libc.so.6", &plain, &plain, &cfg), Some(cached));
        cfg.cache.clear();
        assert_eq!(
            find("libc.so.6", &plain, &plain, &cfg),
            Some(t.join("default/libc.so.6"))
        );
        assert_eq!(find("libz.so.1", &plain, &plain, &cfg), None);
        std::fs::remove_dir_all(&t).unwrap();
    }

    #[test]
    fn expansions_and_lists() {
        assert_eq!(split_list("/a::/b;/c"), ["/a", ".", "/b", "/c"]);
        assert_eq!(
            expand("${ORIGIN}/x", Path::new("/o"), 62),
            [PathBuf::from("/o/x")]
        );
        assert_eq!(
            expand("/opt/$LIB/$PLATFORM", Path::new("/o"), 62),
            [
                PathBuf::from("/opt/lib64/x86_64"),
                PathBuf::from("/opt/lib/x86_64-linux-gnu/x86_64")
            ]
        );
        assert_eq!(
            default_dirs(183)[0],
            PathBuf::from("/lib/aarch64-linux-gnu")
        );
    }
}
