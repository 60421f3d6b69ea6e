//! Fresh temporary directories for Rust tests, each under a name no other test run shares.

use std::path::PathBuf;

/// A new, empty directory `<system temp>/<name>-<16 random hex digits>`; the caller removes it.
pub(crate) fn fresh_temp_dir(name: &str) -> PathBuf {
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).unwrap();
    let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
    let dir = std::env::temp_dir().join(format!("{name}-{hex}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
