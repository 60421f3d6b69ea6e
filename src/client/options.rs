//! `createAdtLs` options as the engine sees them (docs/wire.md#startup-order), the reference's guards
//! (validated before anything is allocated), and adt-ls-native's additions (timeouts, extra
//! environment for adt-ls).

use crate::auth::Strategy;
use crate::driver::{SessionHost, DEFAULT_REQUEST_TIMEOUT, DEFAULT_START_TIMEOUT};
use crate::kernel::error::{Error, Result};
use crate::mcp::lifecycle::DEFAULT_MCP_PORT;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub(crate) const DEFAULT_DESTINATION_ID: &str = "ADTLS";
pub(crate) const DEFAULT_PROBE_PATTERN: &str = "CL_ABAP_TYPEDESCR";
pub(crate) const DEFAULT_PROBE_TYPE: &str = "CLAS/OC";
/// Bound on `ensureLoggedOn` (the reference has none; docs/decisions.md#d5-3).
pub(crate) const DEFAULT_LOGON_TIMEOUT: Duration = Duration::from_secs(300);
/// Period of the activity-gated keep-alive probe.
pub(crate) const DEFAULT_KEEP_ALIVE_INTERVAL: Duration = Duration::from_millis(180_000);

pub(crate) const BOTH_OR_NEITHER: &str =
    "Provide connection and auth together, or omit both for foundation mode.";
pub(crate) const CLIENT_CERT_NEEDS_PROXY: &str =
    "clientCert auth requires connection.selfSigned — the reverse proxy presents the client cert to the backend.";

/// The liveness probe: an object known to exist.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Probe {
    pub pattern: String,
    pub types: Vec<String>,
}

impl Default for Probe {
    fn default() -> Self {
        Probe {
            pattern: DEFAULT_PROBE_PATTERN.to_string(),
            types: vec![DEFAULT_PROBE_TYPE.to_string()],
        }
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct ConnectionOptions {
    pub system_url: String,
    pub client: Option<String>,
    pub language: Option<String>,
    pub self_signed: bool,
    pub extra_ca_certs: Vec<PathBuf>,
    pub forward_proxy: Option<(String, u16)>,
    pub probe: Option<Probe>,
}

#[derive(Clone)]
pub(crate) struct ClientOptions {
    /// `adtLs.path`: an explicit binary (must be a file).
    pub adt_ls_path: Option<String>,
    /// `adtLs.extraArgs`: placed before adt-ls's own arguments.
    pub extra_args: Vec<String>,
    /// `adtLs.extraEnv` (adt-ls-native): more environment for adt-ls.
    pub extra_env: Vec<(String, String)>,
    pub connection: Option<ConnectionOptions>,
    pub auth: Option<Arc<Strategy>>,
    pub destination_id: Option<String>,
    pub mcp_port: i64,
    pub keep_alive: bool,
    /// `keepAlive.intervalMs` (adt-ls-native): the keep-alive period, default 180 s.
    pub keep_alive_interval: Duration,
    pub start_timeout: Duration,
    pub request_timeout: Duration,
    pub mcp_timeout: Duration,
    pub logon_timeout: Duration,
    /// Host state, `trace.file` (adt-ls-native) and socket reader, handed to the driver.
    pub host: SessionHost,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            adt_ls_path: None,
            extra_args: Vec::new(),
            extra_env: Vec::new(),
            connection: None,
            auth: None,
            destination_id: None,
            mcp_port: i64::from(DEFAULT_MCP_PORT),
            keep_alive: true,
            keep_alive_interval: DEFAULT_KEEP_ALIVE_INTERVAL,
            start_timeout: DEFAULT_START_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            mcp_timeout: crate::mcp::DEFAULT_TIMEOUT,
            logon_timeout: DEFAULT_LOGON_TIMEOUT,
            host: SessionHost::default(),
        }
    }
}

impl ClientOptions {
    /// The reference's guards and the security checks of `connection.systemUrl`
    /// ([`crate::options::values`]), checked before any resource exists.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.connection.is_some() != self.auth.is_some() {
            return Err(Error::new(BOTH_OR_NEITHER));
        }
        if let Some(conn) = &self.connection {
            crate::options::values::system_url(&conn.system_url)?;
        }
        if let (Some(conn), Some(auth)) = (&self.connection, &self.auth) {
            if auth.client_cert().is_some() && !conn.self_signed {
                return Err(Error::new(CLIENT_CERT_NEEDS_PROXY));
            }
        }
        Ok(())
    }

    /// The destination id when connecting.
    pub(crate) fn destination(&self) -> Option<String> {
        self.connection.as_ref().map(|_| {
            self.destination_id
                .clone()
                .unwrap_or_else(|| DEFAULT_DESTINATION_ID.to_string())
        })
    }
}
