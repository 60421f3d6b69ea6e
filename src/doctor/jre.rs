//! The JRE section: the selected adt-ls's bundled JRE (found the way start-up finds it),
//! its `keytool` and its `cacerts` (format and certificate count, read with the truststore
//! code), and the trusted certificates the `--url` probe checks against.

use super::report::Check;
use crate::tls::jks::is_jks;
use crate::tls::{jre, truststore};
use p12_keystore::KeyStoreEntry;
use serde_json::{json, Value};
use std::path::Path;

/// The section, its checks and the DER certificates of `cacerts` (empty if unreadable).
pub(crate) struct JreFindings {
    pub section: Value,
    pub checks: Vec<Check>,
    pub trusted: Vec<Vec<u8>>,
}

/// Examine the JRE next to `adt_ls_bin`. `needs_keytool`: `--self-signed` or `--extra-ca`
/// was given, so start-up must find the JRE (it fails without it).
pub(crate) fn examine(adt_ls_bin: &Path, needs_keytool: bool) -> JreFindings {
    let tools = match jre::resolve_jre_tools(adt_ls_bin) {
        Ok(tools) => tools,
        Err(e) => {
            let fix = "reinstall SAP's ABAP extension (its adt-ls ships a JRE under plugins/com.sap.adt.jvm.*)";
            let check = if needs_keytool {
                Check::fail("jre.keytool", e.message.clone(), fix)
            } else {
                Check::warn(
                    "jre.keytool",
                    format!(
                        "{} (only needed with selfSigned or extraCaCerts)",
                        e.message
                    ),
                    fix,
                )
            };
            return JreFindings {
                section: json!({ "error": e.message, "keytool": null, "cacerts": null }),
                checks: vec![check],
                trusted: Vec::new(),
            };
        }
    };
    let mut checks = vec![Check::ok(
        "jre.keytool",
        tools.keytool.display().to_string(),
    )];
    let store = read_cacerts(&tools.cacerts);
    match &store {
        Ok(s) => checks.push(Check::ok(
            "jre.cacerts",
            format!(
                "{} ({}, {} certificates)",
                tools.cacerts.display(),
                s.format,
                s.certificates.len()
            ),
        )),
        Err(message) => checks.push(Check::fail(
            "jre.cacerts",
            message.clone(),
            "reinstall SAP's ABAP extension: its JRE's lib/security/cacerts must be a PKCS#12 or JKS keystore (password changeit)",
        )),
    }
    let cacerts = match &store {
        Ok(s) => json!({
            "path": tools.cacerts.display().to_string(),
            "exists": true,
            "format": s.format,
            "certificates": s.certificates.len(),
        }),
        Err(message) => json!({
            "path": tools.cacerts.display().to_string(),
            "exists": tools.cacerts.is_file(),
            "format": null,
            "certificates": null,
            "error": message,
        }),
    };
    JreFindings {
        section: json!({
            "keytool": { "path": tools.keytool.display().to_string(), "exists": true },
            "cacerts": cacerts,
        }),
        checks,
        trusted: store.map(|s| s.certificates).unwrap_or_default(),
    }
}

/// A readable `cacerts`.
#[derive(Debug)]
pub(crate) struct Cacerts {
    /// `PKCS12` or `JKS`.
    pub format: &'static str,
    /// DER of every trusted certificate.
    pub certificates: Vec<Vec<u8>>,
}

/// Read `cacerts` natively (PKCS#12 or JKS, password `changeit`).
pub(crate) fn read_cacerts(path: &Path) -> Result<Cacerts, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let format = if is_jks(&data) { "JKS" } else { "PKCS12" };
    let (store, _) =
        truststore::read_native(&data).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    let certificates = store
        .entries()
        .filter_map(|(_, entry)| match entry {
            KeyStoreEntry::Certificate(c) => Some(c.as_der().to_vec()),
            _ => None,
        })
        .collect();
    Ok(Cacerts {
        format,
        certificates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use p12_keystore::{Certificate, KeyStore};

    fn temp_file(tag: &str, bytes: &[u8]) -> std::path::PathBuf {
        let mut random = [0u8; 8];
        getrandom::fill(&mut random).unwrap();
        let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let path = std::env::temp_dir().join(format!("adt-ls-native-doctor-{tag}-{hex}"));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn reads_a_pkcs12_cacerts_and_reports_unreadable_ones() {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec!["ca.example".to_string()])
            .unwrap()
            .self_signed(&key)
            .unwrap();
        let mut store = KeyStore::new();
        let entry = Certificate::from_der(cert.der()).unwrap();
        store.add_entry("ca", KeyStoreEntry::Certificate(entry));
        let bytes = store
            .writer(crate::tls::TRUSTSTORE_PASSWORD)
            .write()
            .unwrap();
        let good = temp_file("p12", &bytes);
        let read = read_cacerts(&good).unwrap();
        assert_eq!(read.format, "PKCS12");
        assert_eq!(read.certificates, vec![cert.der().to_vec()]);

        let junk = temp_file("junk", b"not a keystore");
        let err = read_cacerts(&junk).unwrap_err();
        assert!(err.starts_with(&junk.display().to_string()), "{err}");
        let missing = good.with_extension("missing");
        assert!(read_cacerts(&missing)
            .unwrap_err()
            .starts_with("cannot read "));
        for path in [good, junk] {
            std::fs::remove_file(path).unwrap();
        }
    }
}
