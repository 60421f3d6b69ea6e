//! A minimal reader for Sun's JKS keystore format, limited to what a truststore needs: the
//! trusted-certificate entries.
//!
//! Why hand-written: JRE 9+ ships `cacerts` as PKCS#12 (read by `p12-keystore`), but JRE 8
//! and some distributions (e.g. Debian's `ca-certificates-java`) still ship JKS, and there
//! is no maintained Rust crate for it. The trusted-certificate part of the format is small
//! (all integers big-endian):
//!
//! ```text
//! u32 magic 0xFEEDFEED, u32 version (1 or 2), u32 entry count, then per entry:
//!   u32 tag (1 = private key, 2 = trusted certificate)
//!   alias (u16 length + modified UTF-8), u64 creation time in ms
//!   tag 1: u32 length + encrypted key, u32 chain length, chain certificates
//!   tag 2: one certificate
//!   certificate = [version 2: u16 length + type name, e.g. "X.509"] u32 length + DER
//! trailer: 20-byte keyed SHA-1 digest
//! ```
//!
//! Private-key entries are skipped (their protection algorithm is proprietary and a
//! truststore does not need them). The trailing integrity digest is not verified: the file
//! is the bundled JRE's own `cacerts` on local disk, and checking it would need a SHA-1
//! implementation for no gain in trust. A JCEKS store (magic 0xCECECECE) is not handled here;
//! the truststore builder falls back to keytool for it.

use crate::kernel::error::{Error, Result};

/// Magic number at the start of every JKS file.
pub const JKS_MAGIC: u32 = 0xFEED_FEED;

const TAG_PRIVATE_KEY: u32 = 1;
const TAG_TRUSTED_CERT: u32 = 2;

/// A trusted-certificate entry read from a JKS file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JksTrustedCert {
    pub alias: String,
    pub der: Vec<u8>,
}

/// The result of reading a JKS file.
#[derive(Debug, Default)]
pub struct JksContents {
    pub trusted: Vec<JksTrustedCert>,
    /// Number of private-key entries that were skipped.
    pub skipped_keys: usize,
}

/// True when `data` starts with the JKS magic number.
pub fn is_jks(data: &[u8]) -> bool {
    data.len() >= 4 && u32::from_be_bytes([data[0], data[1], data[2], data[3]]) == JKS_MAGIC
}

/// Parse the trusted-certificate entries of a JKS file.
pub fn read_jks(data: &[u8]) -> Result<JksContents> {
    let mut r = Reader { data, pos: 0 };
    if r.u32()? != JKS_MAGIC {
        return Err(malformed("not a JKS file"));
    }
    let version = r.u32()?;
    if version != 1 && version != 2 {
        return Err(malformed(&format!("unsupported JKS version {version}")));
    }
    let count = r.u32()?;
    let mut out = JksContents::default();
    for _ in 0..count {
        let tag = r.u32()?;
        let alias = r.utf()?;
        let _created_ms = r.u64()?;
        match tag {
            TAG_TRUSTED_CERT => {
                let der = r.certificate(version)?;
                out.trusted.push(JksTrustedCert { alias, der });
            }
            TAG_PRIVATE_KEY => {
                let key_len = r.u32()? as usize;
                r.skip(key_len)?;
                let chain_len = r.u32()?;
                for _ in 0..chain_len {
                    r.certificate(version)?;
                }
                out.skipped_keys += 1;
            }
            other => return Err(malformed(&format!("unknown JKS entry tag {other}"))),
        }
    }
    Ok(out)
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|end| *end <= self.data.len())
            .ok_or_else(|| malformed("truncated JKS file"))?;
        let slice = &self.data[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn skip(&mut self, n: usize) -> Result<()> {
        self.take(n).map(|_| ())
    }

    fn u16(&mut self) -> Result<u16> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64> {
        let hi = u64::from(self.u32()?);
        let lo = u64::from(self.u32()?);
        Ok((hi << 32) | lo)
    }

    /// Java's `DataInput.readUTF` (modified UTF-8; identical to UTF-8 for the characters
    /// aliases use in practice, anything else is replaced with U+FFFD).
    fn utf(&mut self) -> Result<String> {
        let len = self.u16()? as usize;
        Ok(String::from_utf8_lossy(self.take(len)?).into_owned())
    }

    fn certificate(&mut self, version: u32) -> Result<Vec<u8>> {
        if version == 2 {
            let cert_type = self.utf()?;
            if cert_type != "X.509" {
                return Err(malformed(&format!(
                    "unsupported certificate type {cert_type}"
                )));
            }
        }
        let len = self.u32()? as usize;
        Ok(self.take(len)?.to_vec())
    }
}

fn malformed(what: &str) -> Error {
    Error::new(format!("Could not read JKS keystore: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf(out: &mut Vec<u8>, s: &str) {
        out.extend_from_slice(&(s.len() as u16).to_be_bytes());
        out.extend_from_slice(s.as_bytes());
    }

    fn cert(out: &mut Vec<u8>, der: &[u8]) {
        utf(out, "X.509");
        out.extend_from_slice(&(der.len() as u32).to_be_bytes());
        out.extend_from_slice(der);
    }

    /// A synthetic version-2 store: one key entry with a one-cert chain, one trusted cert.
    fn sample() -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&JKS_MAGIC.to_be_bytes());
        out.extend_from_slice(&2u32.to_be_bytes());
        out.extend_from_slice(&2u32.to_be_bytes());
        out.extend_from_slice(&1u32.to_be_bytes());
        utf(&mut out, "mykey");
        out.extend_from_slice(&0u64.to_be_bytes());
        out.extend_from_slice(&3u32.to_be_bytes());
        out.extend_from_slice(&[9, 9, 9]);
        out.extend_from_slice(&1u32.to_be_bytes());
        cert(&mut out, &[1, 2]);
        out.extend_from_slice(&2u32.to_be_bytes());
        utf(&mut out, "root-ca");
        out.extend_from_slice(&42u64.to_be_bytes());
        cert(&mut out, &[0x30, 0x82, 0, 0]);
        out.extend_from_slice(&[0u8; 20]);
        out
    }

    #[test]
    fn reads_trusted_entries_and_skips_keys() {
        let data = sample();
        assert!(is_jks(&data));
        let contents = read_jks(&data).unwrap();
        assert_eq!(contents.skipped_keys, 1);
        assert_eq!(
            contents.trusted,
            vec![JksTrustedCert {
                alias: "root-ca".into(),
                der: vec![0x30, 0x82, 0, 0]
            }]
        );
    }

    #[test]
    fn truncated_or_foreign_input_is_an_error() {
        let data = sample();
        for cut in [3, 10, 30, data.len() - 25] {
            assert!(read_jks(&data[..cut]).is_err(), "cut at {cut}");
        }
        assert!(!is_jks(&[0xCE, 0xCE, 0xCE, 0xCE]));
        let err = read_jks(&[0xCE, 0xCE, 0xCE, 0xCE, 0, 0, 0, 2]).unwrap_err();
        assert_eq!(err.message, "Could not read JKS keystore: not a JKS file");
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_arbitrary_bytes(tail in proptest::collection::vec(0u8..=255, 0..200)) {
            let mut data = JKS_MAGIC.to_be_bytes().to_vec();
            data.extend_from_slice(&tail);
            let _ = read_jks(&data);
        }
    }
}
