//! The keystore and certificate readers (`src/tls/jks.rs`, the PKCS#12 reading in
//! `src/tls/truststore.rs`, `src/tls/pem.rs`). Invariants: no panic, no hang; the JKS reader
//! reports no more entries than the bytes can hold and uses memory proportional to them
//! (a huge entry count or length field alone allocates nothing).
#![no_main]

use adt_ls_native::fuzzing::jks::{is_jks, read_jks};
use adt_ls_native::fuzzing::pem::{parse_certificates, parse_private_key};
use adt_ls_native::fuzzing::truststore::read_native;
use adt_ls_native_fuzz::{heap_budget, peak_heap};
use libfuzzer_sys::fuzz_target;

/// The smallest JKS entry: tag (4), empty alias (2), date (8), certificate length (4).
const MIN_ENTRY_BYTES: usize = 18;

fuzz_target!(|data: &[u8]| {
    let (jks, peak) = peak_heap(|| read_jks(data));
    assert!(
        peak <= heap_budget(data.len()),
        "JKS reader used {peak} heap bytes"
    );
    match jks {
        Ok(contents) => {
            assert!(is_jks(data));
            let entries = contents.trusted.len() + contents.skipped_keys;
            assert!(
                entries * MIN_ENTRY_BYTES <= data.len(),
                "{entries} entries in {} bytes",
                data.len()
            );
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
    // JKS when the magic says so, else PKCS#12 (password "changeit", MAC checked).
    let _ = read_native(data);
    let _ = parse_certificates(data, "fuzz input");
    let _ = parse_private_key(data, "fuzz input");
});
