//! The per-run identity adt-ls presents to the localhost TLS proxy (docs/decisions.md#d6: the proxy
//! serves adt-ls only): a fresh ECDSA P-256 key and self-signed `clientAuth` certificate,
//! generated in-process, written as a PKCS#12 keystore (mode 0600, random password, in the
//! private work dir that dispose removes) and selected through the same `JAVA_TOOL_OPTIONS`
//! as the truststore (`javax.net.ssl.keyStore*`, read by the JVM's default `SSLContext`).
//! The proxy pins exactly this certificate (`proxy_client_auth.rs`). A running proxy is
//! registered here by port, so our own reentrance GETs to it present the identity too, and
//! a browser logon URL naming it is sent to the system itself (a browser cannot present
//! the identity). The password is registered for redaction.

use super::private_file::write_private_file;
use super::truststore::hotspot_quote;
use super::upstream_tls::ClientCertPem;
use crate::kernel::error::{Error, Result};
use crate::kernel::redact::Hidden;
use p12_keystore::{Certificate, KeyStore, KeyStoreEntry, PrivateKey, PrivateKeyChain};
use rcgen::{
    CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::CertificateDer;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A running proxy of this process: its port, adt-ls's identity and the upstream origin.
struct Registered {
    port: u16,
    identity: ClientCertPem,
    system_origin: String,
}

static RUNNING: Mutex<Vec<Registered>> = Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<Registered>> {
    RUNNING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Note a proxy listening on `port` that requires `identity` and forwards to `system_origin`.
pub(crate) fn register_running_proxy(port: u16, identity: ClientCertPem, system_origin: String) {
    let mut list = running();
    list.retain(|r| r.port != port);
    list.push(Registered {
        port,
        identity,
        system_origin,
    });
}

/// Forget the proxy on `port`.
pub(crate) fn unregister_running_proxy(port: u16) {
    running().retain(|r| r.port != port);
}

/// The port of `url` when it names one of our running proxies (`https://localhost:<port>`
/// or `https://127.0.0.1:<port>`).
fn proxy_port_of(url: &reqwest::Url) -> Option<u16> {
    let local = matches!(url.host_str(), Some("localhost" | "127.0.0.1"));
    let port = url.port()?;
    (url.scheme() == "https" && local && running().iter().any(|r| r.port == port)).then_some(port)
}

/// The identity to present when connecting to `url`, if it is one of our proxies.
pub(crate) fn identity_for(url: &reqwest::Url) -> Option<ClientCertPem> {
    let port = proxy_port_of(url)?;
    running()
        .iter()
        .find(|r| r.port == port)
        .map(|r| r.identity.clone())
}

/// `url` with its origin replaced by the system's when it names one of our proxies (for a
/// browser, which cannot present the identity); otherwise `None`.
pub(crate) fn system_url_for(url: &reqwest::Url) -> Option<String> {
    let port = proxy_port_of(url)?;
    let origin = running()
        .iter()
        .find(|r| r.port == port)
        .map(|r| r.system_origin.clone())?;
    let mut rest = url.path().to_string();
    if let Some(query) = url.query() {
        rest.push('?');
        rest.push_str(query);
    }
    Some(format!("{}{rest}", origin.trim_end_matches('/')))
}

/// File name of the keystore inside the work dir.
pub(crate) const KEYSTORE_FILE: &str = "proxy-client.p12";
/// Alias of the key entry in the keystore.
pub(crate) const KEYSTORE_ALIAS: &str = "adt-ls-proxy-client";
/// PBKDF2 iterations of the keystore's key encryption and MAC. The password is 192 random
/// bits, so key stretching adds nothing; a low count keeps the JVM's (and the simulator's
/// pure-JS) keystore load fast (10,000, the writer's default, cost the simulator over 1 s).
const KEYSTORE_ITERATIONS: u32 = 1000;
/// Subject CN of the client certificate.
const CLIENT_CN: &str = "adt-ls-native proxy client";

/// The client identity of one run.
#[derive(Clone, Debug)]
pub(crate) struct ProxyClientIdentity {
    /// The certificate the proxy accepts (and nothing else).
    pub cert_der: CertificateDer<'static>,
    /// Certificate and key as PEM, for our own connections to the proxy.
    pub pem: ClientCertPem,
    /// `<work_dir>/proxy-client.p12`.
    pub keystore_path: PathBuf,
    /// Random keystore password (registered for redaction; never logged).
    password: Hidden<String>,
}

impl ProxyClientIdentity {
    /// `-Djavax.net.ssl.keyStore=<path> -Djavax.net.ssl.keyStorePassword=<pw>
    /// -Djavax.net.ssl.keyStoreType=PKCS12`, quoted for HotSpot like the truststore options.
    pub(crate) fn java_tool_options(&self) -> String {
        let store = format!("-Djavax.net.ssl.keyStore={}", self.keystore_path.display());
        format!(
            "{} -Djavax.net.ssl.keyStorePassword={} -Djavax.net.ssl.keyStoreType=PKCS12",
            hotspot_quote(&store),
            self.password.as_str()
        )
    }

    #[cfg(test)]
    /// The keystore password (for tests and diagnostics that must prove redaction).
    pub(crate) fn password(&self) -> &str {
        &self.password
    }
}

/// Generate the identity and write its keystore into `work_dir`. Blocking (PBKDF2).
pub(crate) fn write_proxy_client_identity(work_dir: &Path) -> Result<ProxyClientIdentity> {
    let key = KeyPair::generate().map_err(identity_error)?;
    let mut params = CertificateParams::default();
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, CLIENT_CN);
    params.distinguished_name = name;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    let cert = params.self_signed(&key).map_err(identity_error)?;
    let cert_der = cert.der().clone();
    let key_der = key.serialize_der();

    let password = crate::kernel::ids::random_hex(24)?;
    crate::kernel::redact::register(&password);
    let p12_key = PrivateKey::from_der(&key_der).map_err(identity_error)?;
    let p12_cert = Certificate::from_der(cert_der.as_ref()).map_err(identity_error)?;
    let local_key_id = crate::kernel::ids::random_hex(8)?.into_bytes();
    let mut store = KeyStore::new();
    store.add_entry(
        KEYSTORE_ALIAS,
        KeyStoreEntry::PrivateKeyChain(PrivateKeyChain::new(local_key_id, p12_key, [p12_cert])),
    );
    let bytes = store
        .writer(&password)
        .encryption_iterations(KEYSTORE_ITERATIONS)
        .mac_iterations(KEYSTORE_ITERATIONS)
        .write()
        .map_err(identity_error)?;
    let keystore_path = work_dir.join(KEYSTORE_FILE);
    write_private_file(&keystore_path, &bytes)?;
    Ok(ProxyClientIdentity {
        cert_der,
        pem: ClientCertPem::new(cert.pem(), key.serialize_pem()),
        keystore_path,
        password: Hidden(password),
    })
}

fn identity_error(e: impl std::fmt::Display) -> Error {
    Error::new(format!(
        "Could not create the TLS proxy client identity: {e}"
    ))
}
