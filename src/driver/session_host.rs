//! What a session takes from where it runs rather than from its own settings: the host state
//! (environment, temp dir, home, cwd), where its wire trace goes, and, under Node on Unix, the
//! JS thread that reads adt-ls's socket. The driver and the client carry it alike; the client
//! hands its own to the driver it starts.

use crate::kernel::host::HostEnv;
use std::path::PathBuf;
#[cfg(unix)]
use std::sync::Arc;

#[derive(Clone, Default)]
pub(crate) struct SessionHost {
    /// The host state to use; `None`: the OS's at start time.
    pub env: Option<HostEnv>,
    /// `trace.file`: append a redacted wire trace of each session here (docs/tracing.md);
    /// `None` falls back to `ADT_LS_NATIVE_TRACE` of the host environment.
    pub trace_file: Option<PathBuf>,
    /// Reads the socket instead of a reader task (the JS thread under Node, Unix only).
    #[cfg(unix)]
    pub read_host: Option<Arc<dyn crate::lsp::ReadHost>>,
}

impl SessionHost {
    /// The host state given, else the OS's now.
    pub(crate) fn env_or_os(&self) -> HostEnv {
        self.env.clone().unwrap_or_else(HostEnv::from_os)
    }
}
