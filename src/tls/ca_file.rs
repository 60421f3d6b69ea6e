//! Reading one `extraCaCerts` file with bounds (docs/security.md, "Hostile peers: bounds"):
//! only a regular file (a FIFO, a device such as `/dev/zero` or a directory fails at once,
//! naming the path), at most [`MAX_CA_FILE_BYTES`]. The file is opened non-blocking so that
//! opening a FIFO with no writer cannot hang, and its type is checked on the opened handle
//! (no window between the check and the read).

use super::private_file::with_path;
use crate::kernel::error::{codes, Error, Result};
use std::io::Read;
use std::path::Path;

/// Cap on one CA file: 1 MiB holds hundreds of PEM certificates (a whole public root
/// bundle is about 220 KB).
pub(crate) const MAX_CA_FILE_BYTES: u64 = 1024 * 1024;

/// The bytes of the CA file at `path`, or a clear error naming it.
pub(crate) fn read_ca_file(path: &Path) -> Result<Vec<u8>> {
    read_bounded_regular_file(path, MAX_CA_FILE_BYTES, "extraCaCerts")
}

/// Read `path` when it is a regular file of at most `cap` bytes; `what` names the option.
pub(crate) fn read_bounded_regular_file(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>> {
    let file = open_nonblocking(path).map_err(|e| with_path(e, "read", path))?;
    let meta = file.metadata().map_err(|e| with_path(e, "read", path))?;
    if !meta.is_file() {
        return Err(Error::coded(
            codes::INVALID_ARG_VALUE,
            format!("{what}: {} is not a regular file", path.display()),
        ));
    }
    let too_large = || {
        Error::coded(
            codes::INVALID_ARG_VALUE,
            format!(
                "{what}: {} is larger than {cap} bytes; not a certificate file",
                path.display()
            ),
        )
    };
    if meta.len() > cap {
        return Err(too_large());
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    // The file may grow after the check: read one byte past the cap at most.
    file.take(cap + 1)
        .read_to_end(&mut data)
        .map_err(|e| with_path(e, "read", path))?;
    if data.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(data)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn temp_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "adt-ls-native-ca-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reads_regular_files_within_the_cap() {
        let dir = temp_dir();
        let path = dir.join("ca.pem");
        std::fs::write(&path, b"-----BEGIN CERTIFICATE-----\n").unwrap();
        assert_eq!(read_ca_file(&path).unwrap().len(), 28);
        std::fs::write(&path, vec![b'x'; 100]).unwrap();
        let e = read_bounded_regular_file(&path, 99, "extraCaCerts").unwrap_err();
        assert!(e.has_code(codes::INVALID_ARG_VALUE));
        assert!(
            e.message.contains("ca.pem is larger than 99 bytes"),
            "{}",
            e.message
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn devices_directories_and_fifos_fail_fast_naming_the_path() {
        let dir = temp_dir();
        let fifo = dir.join("ca.fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a NUL-terminated path that outlives the call; mkfifo only reads it.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = Instant::now();
        for path in [Path::new("/dev/zero"), dir.as_path(), fifo.as_path()] {
            let e = read_ca_file(path).unwrap_err();
            assert!(e.has_code(codes::INVALID_ARG_VALUE), "{}", path.display());
            assert_eq!(
                e.message,
                format!("extraCaCerts: {} is not a regular file", path.display())
            );
        }
        assert!(started.elapsed() < Duration::from_secs(10));
        let e = read_ca_file(&dir.join("missing.pem")).unwrap_err();
        assert!(e.has_code("ENOENT"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
