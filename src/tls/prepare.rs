//! Start-up TLS preparation for `createAdtLs` (docs/wire.md#startup-order step 4, `prepareAdtLsTls`):
//! decide whether adt-ls needs its own truststore, build it in the work dir, and hand back
//! the proxy certificate and the `JAVA_TOOL_OPTIONS` value.
//!
//! * `selfSigned`: a fresh localhost certificate (for the reverse proxy) imported as
//!   `adt-ls-proxy-localhost`, and — docs/decisions.md#d5-8, unlike the reference — the
//!   `extraCaCerts` too, as `ca-0`, `ca-1`, …; plus — docs/decisions.md#d6, unlike the reference —
//!   adt-ls's per-run client identity for the proxy (`proxy_client.rs`), whose keystore
//!   options join the truststore's in `JAVA_TOOL_OPTIONS`.
//! * only `extraCaCerts`: a truststore with `ca-0`, `ca-1`, …
//! * neither: nothing to do.
//!
//! Unlike the reference, the proxy's own key and certificate stay in memory (nothing needs
//! them on disk); the only key written is adt-ls's client identity keystore (0600).

use super::ca_file::read_ca_file;
use super::cert::{generate_localhost_cert, LocalhostCert};
use super::jre::resolve_jre_tools;
use super::proxy_client::{write_proxy_client_identity, ProxyClientIdentity};
use super::truststore::{build_truststore, java_tool_options, TrustedCert, TruststoreSource};
use super::{PROXY_CERT_ALIAS, TRUSTSTORE_FILE};
use crate::kernel::error::{Error, Result};
use std::path::{Path, PathBuf};

/// What the client needs after TLS preparation.
#[derive(Debug, Clone)]
pub(crate) struct AdtLsTls {
    /// The reverse proxy's certificate and key (only with `selfSigned`).
    pub proxy_cert: Option<LocalhostCert>,
    /// adt-ls's client identity towards the proxy (only with `selfSigned`).
    pub proxy_client: Option<ProxyClientIdentity>,
    /// The PEM texts of `extraCaCerts`, in order (also trusted by the proxy's upstream hop
    /// and the reentrance GETs when they verify, docs/decisions.md#d5-8).
    pub extra_ca_pems: Vec<Vec<u8>>,
    /// `<work_dir>/truststore.p12` (the tests read it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub trust_store_path: PathBuf,
    /// Value for adt-ls's `JAVA_TOOL_OPTIONS`.
    pub java_tool_options: String,
    /// How the JRE `cacerts` was read (the tests read it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub source: TruststoreSource,
}

/// Prepare the truststore for adt-ls, or return `None` when neither `self_signed` nor
/// `extra_ca_files` asks for one. Fails like the reference when the bundled JRE is missing.
pub(crate) async fn prepare_adt_ls_tls(
    adt_ls_bin: &Path,
    work_dir: &Path,
    self_signed: bool,
    extra_ca_files: &[PathBuf],
) -> Result<Option<AdtLsTls>> {
    if !self_signed && extra_ca_files.is_empty() {
        return Ok(None);
    }
    let adt_ls_bin = adt_ls_bin.to_path_buf();
    let work_dir = work_dir.to_path_buf();
    let extra_ca_files = extra_ca_files.to_vec();
    tokio::task::spawn_blocking(move || {
        prepare_blocking(&adt_ls_bin, &work_dir, self_signed, &extra_ca_files)
    })
    .await
    .map_err(|e| Error::new(format!("TLS preparation task failed: {e}")))?
    .map(Some)
}

/// The bytes of `connection.extraCaCerts[index]`: readable, and holding at least one
/// certificate; errors name the option, the index and the path.
fn checked_ca_file(index: usize, path: &Path) -> Result<Vec<u8>> {
    let option = format!("connection.extraCaCerts[{index}]");
    let pem = read_ca_file(path).map_err(|mut e| {
        let rest = e
            .message
            .strip_prefix("extraCaCerts: ")
            .unwrap_or(&e.message);
        e.message = format!("{option}: {rest}");
        e
    })?;
    let what = format!("{option}: {}", path.display());
    super::pem::parse_certificates(&pem, &what).map_err(|e| {
        let mut e = e;
        e.message = format!(
            "{} (expected PEM \"-----BEGIN CERTIFICATE-----\" blocks or one DER certificate)",
            e.message
        );
        e
    })?;
    Ok(pem)
}

fn prepare_blocking(
    adt_ls_bin: &Path,
    work_dir: &Path,
    self_signed: bool,
    extra_ca_files: &[PathBuf],
) -> Result<AdtLsTls> {
    let tools = resolve_jre_tools(adt_ls_bin)?;
    let mut extra_ca_pems = Vec::with_capacity(extra_ca_files.len());
    for (index, path) in extra_ca_files.iter().enumerate() {
        extra_ca_pems.push(checked_ca_file(index, path)?);
    }
    let proxy_cert = if self_signed {
        Some(generate_localhost_cert()?)
    } else {
        None
    };
    let mut trusted = Vec::with_capacity(extra_ca_pems.len() + 1);
    if let Some(cert) = &proxy_cert {
        trusted.push(TrustedCert::new(PROXY_CERT_ALIAS, cert.cert_pem.clone()));
    }
    for (index, pem) in extra_ca_pems.iter().enumerate() {
        trusted.push(TrustedCert::new(format!("ca-{index}"), pem.clone()));
    }
    let trust_store_path = work_dir.join(TRUSTSTORE_FILE);
    let source = build_truststore(
        &tools.cacerts,
        Some(&tools.keytool),
        &trust_store_path,
        &trusted,
    )?;
    let proxy_client = if self_signed {
        Some(write_proxy_client_identity(work_dir)?)
    } else {
        None
    };
    let mut java = java_tool_options(&trust_store_path);
    if let Some(identity) = &proxy_client {
        java.push(' ');
        java.push_str(&identity.java_tool_options());
    }
    Ok(AdtLsTls {
        proxy_cert,
        proxy_client,
        extra_ca_pems,
        java_tool_options: java,
        trust_store_path,
        source,
    })
}
