//! The JVM truststore adt-ls trusts (docs/wire.md#truststore): a PKCS#12 file with every entry of the
//! bundled JRE's `cacerts` (so public CAs keep working) plus our extra trusted certificates,
//! password `changeit`, mode 0600; and the `JAVA_TOOL_OPTIONS` value that selects it.
//!
//! The store is written natively (docs/decisions.md#d4: no JVM round trip, a start-up win). The JRE
//! `cacerts` is read as PKCS#12 (JRE 9+, e.g. SAP Machine 21) or as JKS (older JREs, some
//! distributions; see `jks.rs`). Only when neither reader can handle the file (e.g. JCEKS,
//! or key entries under another password) do we fall back to the reference's way: byte-copy
//! the file and run `keytool -importcert` once per certificate.

use super::jks::{is_jks, read_jks};
use super::keytool;
use super::pem::parse_certificates;
use super::private_file::{restrict_permissions, with_path, write_private_file};
use super::TRUSTSTORE_PASSWORD;
use crate::kernel::error::{Error, Result};
use crate::kernel::log;
use p12_keystore::{Certificate, KeyStore, KeyStoreEntry, Pkcs12ImportPolicy};
use rustls::pki_types::CertificateDer;
use std::path::{Path, PathBuf};

/// PBKDF2 iterations of the truststore's certificate encryption and MAC. The password is the
/// public `changeit` and the entries are public certificates, so key stretching protects
/// nothing; a low count keeps adt-ls's load of the store fast (the writer's default, 10,000
/// for each, cost the simulator's pure-JS reader ~75 ms of every connected start-up; see
/// docs/performance.md, "Connected startup and MCP calls: where the time goes").
const TRUSTSTORE_ITERATIONS: u32 = 1000;

/// A certificate to add to the truststore as a trusted entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedCert {
    /// Alias of the first certificate in `data`; further ones get `<alias>-1`, `<alias>-2`, …
    /// (keytool would import only the first).
    pub alias: String,
    /// PEM text (one or more `BEGIN CERTIFICATE` blocks) or one DER certificate.
    pub data: Vec<u8>,
}

impl TrustedCert {
    pub fn new(alias: impl Into<String>, data: impl Into<Vec<u8>>) -> Self {
        TrustedCert {
            alias: alias.into(),
            data: data.into(),
        }
    }
}

/// How the JRE `cacerts` was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TruststoreSource {
    /// Native PKCS#12 read and write.
    Pkcs12,
    /// Native JKS read, PKCS#12 write.
    Jks,
    /// Byte copy plus `keytool -importcert` (the file keeps the JRE's format).
    Keytool,
}

/// Write the truststore to `out_path`: the entries of `cacerts` plus `extra`, all as
/// trusted-certificate entries. `keytool` is only used when `cacerts` cannot be read
/// natively. Blocking (file I/O, PBKDF2, maybe a JVM): call it from a blocking context.
pub fn build_truststore(
    cacerts: &Path,
    keytool: Option<&Path>,
    out_path: &Path,
    extra: &[TrustedCert],
) -> Result<TruststoreSource> {
    let extra_entries = expand_aliases(extra)?;
    let original = std::fs::read(cacerts).map_err(|e| with_path(e, "read", cacerts))?;
    let native_error = match read_native(&original) {
        Ok((mut store, source)) => {
            for (alias, der) in &extra_entries {
                let cert = Certificate::from_der(der.as_ref()).map_err(|e| {
                    Error::new(format!("Invalid certificate for alias {alias}: {e}"))
                })?;
                store.add_entry(alias, KeyStoreEntry::Certificate(cert));
            }
            let bytes = store
                .writer(TRUSTSTORE_PASSWORD)
                .encryption_iterations(TRUSTSTORE_ITERATIONS)
                .mac_iterations(TRUSTSTORE_ITERATIONS)
                .write()
                .map_err(|e| Error::new(format!("Could not write the truststore: {e}")))?;
            write_private_file(out_path, &bytes)?;
            return Ok(source);
        }
        Err(e) => e,
    };
    let Some(keytool) = keytool else {
        return Err(native_error);
    };
    log::debug(format!(
        "truststore: cannot read {} natively ({}); falling back to keytool",
        cacerts.display(),
        native_error.message
    ));
    build_with_keytool(&original, keytool, out_path, &extra_entries)?;
    Ok(TruststoreSource::Keytool)
}

/// The `JAVA_TOOL_OPTIONS` value that makes the JVM use `store_path` as its truststore:
/// `-Djavax.net.ssl.trustStore=<path> -Djavax.net.ssl.trustStorePassword=changeit
/// -Djavax.net.ssl.trustStoreType=PKCS12`, byte-identical to the reference for ordinary
/// paths.
///
/// Fix over the reference: HotSpot splits `JAVA_TOOL_OPTIONS` at whitespace, and a `'` or `"`
/// starts a quoted run (quotes removed, no escape character) that may contain whitespace.
/// So a path with whitespace or quotes is wrapped: the whole `-D…=<path>` token goes inside
/// double quotes, and a literal `"` is written as `'"'`.
pub fn java_tool_options(store_path: &Path) -> String {
    let store_option = format!("-Djavax.net.ssl.trustStore={}", store_path.display());
    format!(
        "{} -Djavax.net.ssl.trustStorePassword={TRUSTSTORE_PASSWORD} -Djavax.net.ssl.trustStoreType=PKCS12",
        hotspot_quote(&store_option)
    )
}

/// Quote one option so HotSpot's `JAVA_TOOL_OPTIONS` tokenizer yields it unchanged.
pub(crate) fn hotspot_quote(token: &str) -> String {
    let needs_quoting = token
        .chars()
        .any(|c| is_c_space(c) || c == '"' || c == '\'');
    if !needs_quoting {
        return token.to_string();
    }
    let mut out = String::with_capacity(token.len() + 2);
    let mut in_double = false;
    for c in token.chars() {
        if c == '"' {
            if in_double {
                out.push('"');
                in_double = false;
            }
            out.push_str("'\"'");
        } else {
            if !in_double {
                out.push('"');
                in_double = true;
            }
            out.push(c);
        }
    }
    if in_double {
        out.push('"');
    }
    out
}

/// C's `isspace` in the "C" locale, which HotSpot's tokenizer uses.
fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
}

/// Read a JRE `cacerts` natively (public only for the fuzz targets in `fuzz/`).
#[doc(hidden)]
pub fn read_native(data: &[u8]) -> Result<(KeyStore, TruststoreSource)> {
    if is_jks(data) {
        let contents = read_jks(data)?;
        if contents.skipped_keys > 0 {
            log::debug(format!(
                "truststore: skipped {} private-key entries of the JKS cacerts",
                contents.skipped_keys
            ));
        }
        let mut store = KeyStore::new();
        for entry in contents.trusted {
            let cert = Certificate::from_der(&entry.der).map_err(|e| {
                Error::new(format!("Could not read JKS entry {}: {e}", entry.alias))
            })?;
            store.add_entry(&entry.alias, KeyStoreEntry::Certificate(cert));
        }
        return Ok((store, TruststoreSource::Jks));
    }
    let store = KeyStore::from_pkcs12(data, TRUSTSTORE_PASSWORD, Pkcs12ImportPolicy::Strict)
        .map_err(|e| Error::new(format!("Could not read PKCS#12 keystore: {e}")))?;
    Ok((store, TruststoreSource::Pkcs12))
}

/// Split each extra input into its certificates, naming them `<alias>`, `<alias>-1`, …
fn expand_aliases(extra: &[TrustedCert]) -> Result<Vec<(String, CertificateDer<'static>)>> {
    let mut out = Vec::new();
    for item in extra {
        let certs =
            parse_certificates(&item.data, &format!("certificate for alias {}", item.alias))?;
        for (index, cert) in certs.into_iter().enumerate() {
            let alias = if index == 0 {
                item.alias.clone()
            } else {
                format!("{}-{index}", item.alias)
            };
            out.push((alias, cert));
        }
    }
    Ok(out)
}

/// The reference's path: copy the original bytes, then one keytool import per certificate
/// (each written to a temporary PEM file next to the store, removed afterwards).
fn build_with_keytool(
    original: &[u8],
    keytool: &Path,
    out_path: &Path,
    entries: &[(String, CertificateDer<'static>)],
) -> Result<()> {
    write_private_file(out_path, original)?;
    for (alias, der) in entries {
        let pem_path = temp_pem_path(out_path, alias);
        write_private_file(&pem_path, der_to_pem(der.as_ref()).as_bytes())?;
        let result = keytool::import_cert(keytool, out_path, TRUSTSTORE_PASSWORD, alias, &pem_path);
        let _ = std::fs::remove_file(&pem_path);
        result?;
    }
    restrict_permissions(out_path)
}

fn temp_pem_path(out_path: &Path, alias: &str) -> PathBuf {
    let safe_alias: String = alias
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let file_name = format!(
        ".{}.{safe_alias}.pem",
        out_path
            .file_name()
            .map_or("truststore".into(), |n| n.to_string_lossy())
    );
    out_path.with_file_name(file_name)
}

/// PEM text of one DER certificate (64-column base64, as OpenSSL writes it).
pub fn der_to_pem(der: &[u8]) -> String {
    use base64::Engine;
    let body = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = String::from("-----BEGIN CERTIFICATE-----\n");
    for chunk in body.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out.push_str("-----END CERTIFICATE-----\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_tool_options_match_the_reference_for_plain_paths() {
        assert_eq!(
            java_tool_options(Path::new("/tmp/adt-ls-client-abc/truststore.p12")),
            "-Djavax.net.ssl.trustStore=/tmp/adt-ls-client-abc/truststore.p12 \
             -Djavax.net.ssl.trustStorePassword=changeit -Djavax.net.ssl.trustStoreType=PKCS12"
        );
    }

    #[test]
    fn paths_with_spaces_or_quotes_are_quoted_for_hotspot() {
        let opts = java_tool_options(Path::new("C:\\Users\\Jane Doe\\t.p12"));
        assert!(opts.starts_with("\"-Djavax.net.ssl.trustStore=C:\\Users\\Jane Doe\\t.p12\" "));
        assert_eq!(hotspot_quote("a\"b c"), "\"a\"'\"'\"b c\"");
        assert_eq!(hotspot_quote("it's"), "\"it's\"");
        assert_eq!(hotspot_quote("\""), "'\"'");
    }

    /// Split the way HotSpot's `JAVA_TOOL_OPTIONS` parser does.
    fn hotspot_split(s: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        let mut chars = s.chars().peekable();
        loop {
            while chars.peek().is_some_and(|c| is_c_space(*c)) {
                chars.next();
            }
            if chars.peek().is_none() {
                return tokens;
            }
            let mut token = String::new();
            while let Some(&c) = chars.peek() {
                if is_c_space(c) {
                    break;
                }
                chars.next();
                if c == '"' || c == '\'' {
                    for inner in chars.by_ref() {
                        if inner == c {
                            break;
                        }
                        token.push(inner);
                    }
                } else {
                    token.push(c);
                }
            }
            tokens.push(token);
        }
    }

    proptest::proptest! {
        #[test]
        fn quoting_round_trips(path in "[a-zA-Z0-9 '\"/\\\\\\t\\x0B._-]{1,40}") {
            let opts = java_tool_options(Path::new(&path));
            let tokens = hotspot_split(&opts);
            proptest::prop_assert_eq!(tokens.len(), 3);
            proptest::prop_assert_eq!(&tokens[0], &format!("-Djavax.net.ssl.trustStore={path}"));
        }
    }

    #[test]
    fn extra_inputs_with_several_certs_get_numbered_aliases() {
        let a = crate::tls::cert::generate_localhost_cert().unwrap();
        let b = crate::tls::cert::generate_localhost_cert().unwrap();
        let bundle = format!("{}{}", a.cert_pem, b.cert_pem);
        let entries = expand_aliases(&[
            TrustedCert::new("adt-ls-proxy-localhost", a.cert_pem.clone()),
            TrustedCert::new("ca-0", bundle),
        ])
        .unwrap();
        let aliases: Vec<&str> = entries.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(aliases, ["adt-ls-proxy-localhost", "ca-0", "ca-0-1"]);
    }

    #[test]
    fn der_to_pem_round_trips() {
        let a = crate::tls::cert::generate_localhost_cert().unwrap();
        let der = parse_certificates(a.cert_pem.as_bytes(), "t")
            .unwrap()
            .remove(0);
        let again = parse_certificates(der_to_pem(der.as_ref()).as_bytes(), "t").unwrap();
        assert_eq!(again[0], der);
    }
}
