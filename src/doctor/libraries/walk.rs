//! The libraries a process started from adt-ls would load, followed like the dynamic linker
//! follows them: the binary's `DT_NEEDED`, then theirs, breadth first. The install's own
//! shared objects (the bundled JRE's `lib/**/*.so`, launcher and plugin libraries), which
//! the launcher and the JVM open by path at run time, are followed too; a library one of them
//! needs counts as present when the install ships it. Bounded: at most [`MAX_OBJECTS`]
//! objects, and the install is scanned to [`MAX_DEPTH`] directories and [`MAX_ENTRIES`]
//! entries without following directory links.

use super::elf::{self, ElfError};
use super::search::{self, Object, SearchConfig};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

pub(crate) const MAX_OBJECTS: usize = 512;
const MAX_DEPTH: usize = 10;
const MAX_ENTRIES: usize = 20_000;

/// A library no search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Missing {
    pub name: String,
    /// The objects (paths) or run-time loaders that need it.
    pub needed_by: Vec<String>,
    /// Only the install's own libraries need it (not the binary or what the binary loads).
    pub bundled_only: bool,
}

/// What the walk found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Walk {
    /// ELF objects examined (the binary, bundled and system libraries).
    pub objects: usize,
    pub bundled: usize,
    pub missing: Vec<Missing>,
    /// The [`MAX_OBJECTS`] or scan bound was reached: the result is partial.
    pub truncated: bool,
}

/// The install's shared objects below `dir` (`*.so`, `*.so.*`), ELF files only.
pub(crate) fn scan_bundle(dir: &Path, truncated: &mut bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    let mut seen = 0usize;
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES || out.len() >= MAX_OBJECTS {
                *truncated = true;
                return out;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() && depth < MAX_DEPTH {
                stack.push((path, depth + 1));
            } else if !kind.is_dir()
                && (name.ends_with(".so") || name.contains(".so."))
                && is_elf(&path)
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn is_elf(path: &Path) -> bool {
    std::fs::File::open(path).is_ok_and(|f| elf::identify(&f).is_ok())
}

fn load(path: &Path) -> Result<Object, ElfError> {
    let file =
        std::fs::File::open(path).map_err(|e| ElfError::Io(format!("{}: {e}", path.display())))?;
    Ok(Object {
        path: path.to_path_buf(),
        info: elf::read_dynamic(&file)?,
    })
}

struct State {
    seen: HashSet<PathBuf>,
    missing: BTreeMap<String, Missing>,
    objects: usize,
    truncated: bool,
}

impl State {
    /// Follow `start` breadth first; `provided` names count as present.
    fn follow(
        &mut self,
        start: Vec<Object>,
        exe: &Object,
        cfg: &SearchConfig,
        provided: &HashSet<String>,
        bundled: bool,
    ) {
        let mut queue: VecDeque<Object> = start.into();
        while let Some(obj) = queue.pop_front() {
            for name in &obj.info.needed {
                if bundled && provided.contains(name) {
                    continue;
                }
                match search::find(name, &obj, exe, cfg) {
                    Some(path) => {
                        let key = path.canonicalize().unwrap_or(path);
                        if self.seen.contains(&key) {
                            continue;
                        }
                        if self.objects >= MAX_OBJECTS {
                            self.truncated = true;
                            return;
                        }
                        self.seen.insert(key.clone());
                        self.objects += 1;
                        if let Ok(next) = load(&key) {
                            queue.push_back(next);
                        }
                    }
                    None => {
                        let m = self.missing.entry(name.clone()).or_insert_with(|| Missing {
                            name: name.clone(),
                            needed_by: Vec::new(),
                            bundled_only: bundled,
                        });
                        m.bundled_only &= bundled;
                        let by = obj.path.display().to_string();
                        if !m.needed_by.contains(&by) {
                            m.needed_by.push(by);
                        }
                    }
                }
            }
        }
    }
}

/// Walk the binary at `exe_path`, then the install's `bundle`.
pub(crate) fn walk(
    exe_path: &Path,
    bundle: &[PathBuf],
    cfg: &SearchConfig,
) -> Result<Walk, ElfError> {
    let exe = load(exe_path)?;
    let mut state = State {
        seen: HashSet::new(),
        missing: BTreeMap::new(),
        objects: 1,
        truncated: false,
    };
    state.seen.insert(
        exe_path
            .canonicalize()
            .unwrap_or_else(|_| exe_path.to_path_buf()),
    );
    state.follow(vec![exe.clone()], &exe, cfg, &HashSet::new(), false);
    let mut provided = HashSet::new();
    let mut libs = Vec::new();
    for path in bundle {
        let Ok(obj) = load(path) else { continue };
        provided.extend(path.file_name().map(|n| n.to_string_lossy().into_owned()));
        provided.extend(obj.info.soname.clone());
        if state
            .seen
            .insert(path.canonicalize().unwrap_or_else(|_| path.clone()))
        {
            state.objects += 1;
            libs.push(obj);
        }
    }
    let bundled = libs.len();
    state.follow(libs, &exe, cfg, &provided, true);
    Ok(Walk {
        objects: state.objects,
        bundled,
        missing: state.missing.into_values().collect(),
        truncated: state.truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::super::elf::testing::{elf64, Spec};
    use super::*;

    /// An ELF object `dir/name` needing `needed`, with `runpath`.
    fn put(
        dir: &Path,
        name: &str,
        needed: &[&'static str],
        runpath: Option<&'static str>,
    ) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        let spec = Spec {
            needed: needed.to_vec(),
            runpath,
            ..Default::default()
        };
        std::fs::write(&path, elf64(&spec)).unwrap();
        path
    }

    #[test]
    fn missing_libraries_of_the_binary_and_of_the_bundle_apart() {
        let t = std::env::temp_dir().join(format!(
            "adt-ls-native-ldwalk-{}",
            crate::kernel::ids::random_hex(6).unwrap()
        ));
        let sys = t.join("sys");
        put(&sys, "libc.so.6", &[], None);
        put(&sys, "libgtk-3.so.0", &["libc.so.6", "libgone.so.1"], None);
        let install = t.join("install");
        let exe = put(
            &install,
            "adt-ls",
            &["libc.so.6", "libgtk-3.so.0", "libX11.so.6"],
            None,
        );
        let jre = install.join("plugins/com.sap.adt.jvm.x/jre/lib");
        put(&jre.join("server"), "libjvm.so", &["libc.so.6"], None);
        put(
            &jre,
            "libjava.so",
            &["libjvm.so", "libc.so.6"],
            Some("$ORIGIN"),
        );
        put(
            &jre,
            "libjsound.so",
            &["libasound.so.2", "libX11.so.6"],
            None,
        );
        std::fs::write(install.join("plugins/readme.so.txt"), "not elf").unwrap();

        let mut truncated = false;
        let bundle = scan_bundle(&install, &mut truncated);
        assert!(!truncated);
        assert_eq!(bundle.len(), 3, "{bundle:?}"); // adt-ls is no .so; the text file is no ELF
        let cfg = SearchConfig {
            bits: 64,
            machine: 62,
            default_dirs: vec![sys.clone()],
            ..Default::default()
        };
        let found = walk(&exe, &bundle, &cfg).unwrap();
        let rows: Vec<(&str, bool, usize)> = found
            .missing
            .iter()
            .map(|m| (m.name.as_str(), m.bundled_only, m.needed_by.len()))
            .collect();
        // libjvm.so is shipped by the install: present for libjava.so. libX11 is needed by both.
        assert_eq!(
            rows,
            [
                ("libX11.so.6", false, 2),
                ("libasound.so.2", true, 1),
                ("libgone.so.1", false, 1)
            ]
        );
        assert_eq!(
            found.missing[2].needed_by,
            [sys.join("libgtk-3.so.0").display().to_string()]
        );
        assert_eq!(found.bundled, 3);
        assert_eq!(found.objects, 1 + 2 + 3); // adt-ls, libc and libgtk, the three bundled
        std::fs::remove_dir_all(&t).unwrap();
    }
}
