//! `/etc/ld.so.cache`, the index `ldconfig` writes and the dynamic linker consults after the
//! search paths: the `glibc-ld.so.cache1.1` format, alone (glibc >= 2.32 writes only it) or
//! after the old `ld.so-1.7.0` table (older glibc writes both). Each entry maps a library
//! name to a path; string offsets count from the start of the new-format header. Read whole
//! (the file is about 100 KB) with a size cap; a malformed cache gives no entries, as the
//! linker then falls back to the default directories.

use std::path::{Path, PathBuf};

const NEW_MAGIC: &[u8] = b"glibc-ld.so.cache1.1";
const OLD_MAGIC: &[u8] = b"ld.so-1.7.0";
const NEW_HEADER: usize = 48;
const NEW_ENTRY: usize = 24;
const OLD_HEADER: usize = 16;
const OLD_ENTRY: usize = 12;
const MAX_CACHE_BYTES: u64 = 32 * 1024 * 1024;
pub(crate) const DEFAULT_PATH: &str = "/etc/ld.so.cache";

/// One cache entry: `name` (e.g. `libgtk-3.so.0`) is at `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheEntry {
    pub name: String,
    pub path: PathBuf,
}

/// Read the cache at `path`: its entries, or why there are none.
pub(crate) fn read(path: &Path) -> Result<Vec<CacheEntry>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > MAX_CACHE_BYTES {
        return Err(format!(
            "{}: larger than {MAX_CACHE_BYTES} bytes",
            path.display()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&bytes).ok_or_else(|| format!("{}: not a glibc-ld.so.cache1.1 file", path.display()))
}

fn u32_at(b: &[u8], off: usize) -> Option<usize> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_ne_bytes([s[0], s[1], s[2], s[3]]) as usize)
}

fn string_at(b: &[u8], off: usize) -> Option<String> {
    let rest = b.get(off..)?;
    let end = rest.iter().take(4096).position(|&c| c == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// Where the new-format header starts: 0, or after the old table.
fn new_format_start(b: &[u8]) -> Option<usize> {
    if b.starts_with(NEW_MAGIC) {
        return Some(0);
    }
    if !b.starts_with(OLD_MAGIC) {
        return None;
    }
    let old_entries = u32_at(b, 12)?;
    let end = OLD_HEADER.checked_add(old_entries.checked_mul(OLD_ENTRY)?)?;
    let start = end.checked_add(7)? & !7;
    b.get(start..)?.starts_with(NEW_MAGIC).then_some(start)
}

/// The entries of a cache file's bytes; `None` when it is not one.
pub(crate) fn parse(b: &[u8]) -> Option<Vec<CacheEntry>> {
    let base = new_format_start(b)?;
    let cache = &b[base..];
    let count = u32_at(cache, 20)?;
    let table_end = NEW_HEADER.checked_add(count.checked_mul(NEW_ENTRY)?)?;
    if table_end > cache.len() {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let e = NEW_HEADER + i * NEW_ENTRY;
        let (key, value) = (u32_at(cache, e + 4)?, u32_at(cache, e + 8)?);
        let (Some(name), Some(path)) = (string_at(cache, key), string_at(cache, value)) else {
            continue;
        };
        if path.starts_with('/') {
            out.push(CacheEntry {
                name,
                path: PathBuf::from(path),
            });
        }
    }
    Some(out)
}

#[cfg(test)]
pub(crate) mod testing {
    /// A new-format cache holding `entries` (name, path), in this machine's byte order.
    pub(crate) fn cache_bytes(entries: &[(&str, &str)], with_old_table: bool) -> Vec<u8> {
        let mut strings = Vec::new();
        let table = super::NEW_HEADER + entries.len() * super::NEW_ENTRY;
        let mut rows = Vec::new();
        for (name, path) in entries {
            let key = table + strings.len();
            strings.extend_from_slice(name.as_bytes());
            strings.push(0);
            let value = table + strings.len();
            strings.extend_from_slice(path.as_bytes());
            strings.push(0);
            let mut row = vec![0u8; super::NEW_ENTRY];
            row[..4].copy_from_slice(&0x0303i32.to_ne_bytes());
            row[4..8].copy_from_slice(&(key as u32).to_ne_bytes());
            row[8..12].copy_from_slice(&(value as u32).to_ne_bytes());
            rows.extend(row);
        }
        let mut new = super::NEW_MAGIC.to_vec();
        new.extend_from_slice(&(entries.len() as u32).to_ne_bytes());
        new.extend_from_slice(&(strings.len() as u32).to_ne_bytes());
        new.resize(super::NEW_HEADER, 0);
        new.extend(rows);
        new.extend(strings);
        if !with_old_table {
            return new;
        }
        let mut out = super::OLD_MAGIC.to_vec();
        out.resize(12, 0);
        out.extend_from_slice(&1u32.to_ne_bytes());
        out.extend(vec![0u8; super::OLD_ENTRY]);
        out.resize((out.len() + 7) & !7, 0);
        out.extend(new);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::testing::cache_bytes;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn new_format_alone_and_after_the_old_table() {
        let entries = [
            ("libgtk-3.so.0", "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0"),
            ("libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6"),
        ];
        for old in [false, true] {
            let parsed = parse(&cache_bytes(&entries, old)).unwrap();
            assert_eq!(parsed.len(), 2, "old table: {old}");
            assert_eq!(
                parsed[0],
                CacheEntry {
                    name: "libgtk-3.so.0".into(),
                    path: "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0".into()
                }
            );
        }
        assert_eq!(parse(b"not a cache"), None);
        assert_eq!(parse(b""), None);
    }

    #[test]
    fn this_machines_cache_agrees_with_ldconfig() {
        // Every library `ldconfig -p` lists is in our reading of the cache, at the same path.
        if !cfg!(target_os = "linux") {
            return crate::kernel::test_skip::skip("ld.so.cache: Linux only");
        }
        let entries = read(Path::new(DEFAULT_PATH)).unwrap();
        let out = ["ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"]
            .iter()
            .find_map(|tool| {
                std::process::Command::new(tool)
                    .arg("-p")
                    .output()
                    .ok()
                    .filter(|o| o.status.success())
            });
        let Some(out) = out else {
            return crate::kernel::test_skip::skip("ldconfig not found");
        };
        let listed = String::from_utf8_lossy(&out.stdout);
        let mut checked = 0;
        for line in listed.lines().skip(1) {
            let Some((left, path)) = line.split_once(" => ") else {
                continue;
            };
            let name = left.trim().split(' ').next().unwrap_or_default();
            assert!(
                entries
                    .iter()
                    .any(|e| e.name == name && e.path == Path::new(path.trim())),
                "{name} => {path}"
            );
            checked += 1;
        }
        assert!(
            checked > 10,
            "only {checked} libraries listed by ldconfig -p"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_and_mutated_caches_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), pos in 0usize..200, value in any::<u8>()) {
            let _ = parse(&bytes);
            let mut cache = cache_bytes(&[("libz.so.1", "/lib/libz.so.1")], pos % 2 == 0);
            let at = pos % cache.len();
            cache[at] = value;
            let _ = parse(&cache);
        }
    }
}
