//! The PBKDF2 iteration counts of the truststore we write: the public `changeit` password
//! makes key stretching pointless, and adt-ls reads the store at its first TLS connection of
//! every connected start-up. Checked in the file's DER (a minimal TLV walker: no extra
//! dependency), on a store built from a PKCS#12 `cacerts` made here.

use super::support::TempDir;
use crate::tls::cert::generate_localhost_cert;
use crate::tls::pem::parse_certificates;
use crate::tls::truststore::build_truststore;
use crate::tls::truststore::TrustedCert;
use crate::tls::truststore::TruststoreSource;
use crate::tls::PROXY_CERT_ALIAS;
use crate::tls::TRUSTSTORE_PASSWORD;
use p12_keystore::{Certificate, KeyStore, KeyStoreEntry};

const SEQUENCE: u8 = 0x30;
const INTEGER: u8 = 0x02;
const OCTET_STRING: u8 = 0x04;
const CONSTRUCTED: u8 = 0x20;
/// Salts, IVs and MAC digests are at most 32 bytes; longer OCTET STRINGs that hold DER
/// (the authenticated safe and its unencrypted content) are walked into.
const WRAPPED_DER_MIN_LEN: usize = 33;

/// One DER element at the start of `der`: (tag, content, rest). Short-form tags only.
fn tlv(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// Every element of `der` parses and nothing is left over.
fn all_elements(mut der: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let mut out = Vec::new();
    while !der.is_empty() {
        let (tag, content, rest) = tlv(der)?;
        out.push((tag, content));
        der = rest;
    }
    Some(out)
}

/// The INTEGER values anywhere in `der`, in order (encrypted content stays opaque).
fn integers(der: &[u8], out: &mut Vec<u64>) {
    for (tag, content) in all_elements(der).unwrap_or_default() {
        if tag == INTEGER && content.len() <= 8 {
            out.push(
                content
                    .iter()
                    .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)),
            );
        } else if tag & CONSTRUCTED != 0 {
            integers(content, out);
        } else if tag == OCTET_STRING && content.len() >= WRAPPED_DER_MIN_LEN {
            if let Some(inner) = all_elements(content) {
                if inner.first().is_some_and(|(t, _)| *t == SEQUENCE) {
                    integers(content, out);
                }
            }
        }
    }
}

fn cacerts_pkcs12(dir: &TempDir) -> std::path::PathBuf {
    let mut store = KeyStore::new();
    for alias in ["orig-one", "orig-two"] {
        let pem = generate_localhost_cert().unwrap().cert_pem;
        let der = parse_certificates(pem.as_bytes(), alias).unwrap().remove(0);
        let cert = Certificate::from_der(der.as_ref()).unwrap();
        store.add_entry(alias, KeyStoreEntry::Certificate(cert));
    }
    let path = dir.path().join("cacerts");
    std::fs::write(&path, store.writer(TRUSTSTORE_PASSWORD).write().unwrap()).unwrap();
    path
}

#[test]
fn the_truststore_uses_the_low_iteration_count_for_encryption_and_mac() {
    let dir = TempDir::new("kdf");
    let out = dir.path().join("truststore.p12");
    let proxy = generate_localhost_cert().unwrap();
    let extra = [TrustedCert::new(PROXY_CERT_ALIAS, proxy.cert_pem)];
    let source = build_truststore(&cacerts_pkcs12(&dir), None, &out, &extra).unwrap();
    assert_eq!(source, TruststoreSource::Pkcs12);

    let bytes = std::fs::read(&out).unwrap();
    let mut found = Vec::new();
    integers(&bytes, &mut found);
    // PFX version 3, EncryptedData version 0, then the two iteration counts (PBKDF2 of the
    // certificate bag encryption, and the MAC); a PBKDF2 keyLength would be 32.
    let counts: Vec<u64> = found.into_iter().filter(|v| *v > 32).collect();
    assert_eq!(counts, [1000, 1000]);

    // Still a store with every entry, readable with the public password.
    let read = KeyStore::from_pkcs12(
        &bytes,
        TRUSTSTORE_PASSWORD,
        p12_keystore::Pkcs12ImportPolicy::Strict,
    )
    .unwrap();
    let mut aliases: Vec<&str> = read.entries().map(|(alias, _)| alias.as_str()).collect();
    aliases.sort_unstable();
    assert_eq!(aliases, [PROXY_CERT_ALIAS, "orig-one", "orig-two"]);
}

#[test]
fn the_walker_sees_the_writers_default_counts_too() {
    // The same walk on a store written with the crate's defaults finds 10,000 twice, so the
    // test above would fail if the truststore went back to the defaults.
    let dir = TempDir::new("kdf-default");
    let bytes = std::fs::read(cacerts_pkcs12(&dir)).unwrap();
    let mut found = Vec::new();
    integers(&bytes, &mut found);
    let counts: Vec<u64> = found.into_iter().filter(|v| *v > 32).collect();
    assert_eq!(counts, [10_000, 10_000]);
}
