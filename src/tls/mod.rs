//! TLS plumbing between adt-ls and an SAP system (docs/wire.md#tls): the in-process `CN=localhost`
//! proxy certificate, the bundled JRE's tools, the JVM truststore (written natively as
//! PKCS#12), the `JAVA_TOOL_OPTIONS` value that points adt-ls at it, and the localhost TLS
//! reverse proxy (direct or via a forward proxy). Nothing here knows about N-API.

pub(crate) mod accept_any;
pub(crate) mod ca_file;
pub(crate) mod cert;
pub mod jks;
pub(crate) mod jre;
pub(crate) mod keytool;
pub mod pem;
pub(crate) mod prepare;
mod private_file;
pub(crate) mod proxy;
pub(crate) mod proxy_client;
mod proxy_client_auth;
pub(crate) mod proxy_conn;
mod proxy_headers;
pub(crate) mod proxy_target;
mod proxy_upstream;
pub(crate) mod signature_checks;
pub mod truststore;
pub(crate) mod upstream_tls;

#[cfg(test)]
mod tests;

pub(crate) use prepare::prepare_adt_ls_tls;
pub(crate) use proxy::{start_tls_reverse_proxy, ProxyHandle, ProxyOptions};
pub(crate) use proxy_target::ProxyTarget;
pub(crate) use upstream_tls::{upstream_client_config, ClientCertPem};

/// Password of every truststore the engine writes (and of the JRE `cacerts` it reads).
pub(crate) const TRUSTSTORE_PASSWORD: &str = "changeit";
/// Truststore alias of the proxy's localhost certificate.
pub(crate) const PROXY_CERT_ALIAS: &str = "adt-ls-proxy-localhost";
/// File name of the truststore inside the work dir.
pub(crate) const TRUSTSTORE_FILE: &str = "truststore.p12";

/// The one crypto provider the TLS module uses (explicit, so nothing depends on a
/// process-wide default having been installed).
pub(crate) fn crypto_provider() -> std::sync::Arc<rustls::crypto::CryptoProvider> {
    std::sync::Arc::new(rustls::crypto::ring::default_provider())
}
