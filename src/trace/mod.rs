//! Redacted wire traces (docs/tracing.md): a [`Tracer`] appends one JSON object per line for
//! every LSP and MCP message the engine sends or receives, after masking secrets
//! ([`secrets`]). It is opened per adt-ls session (driver start) and closed by dispose; a
//! failed write is logged once and ends tracing without disturbing the client. With no
//! tracer configured the connection holds `None` and pays a single branch per message.

mod correlate;
mod format;
pub(crate) mod secrets;
mod writer;

pub(crate) use format::{Channel, Direction, HttpMeta};

use crate::kernel::error::Result;
use crate::kernel::host::HostEnv;
use correlate::Correlator;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use writer::TraceFile;

/// The environment variable naming a trace file when no `trace` option is given.
pub(crate) const TRACE_ENV: &str = "ADT_LS_NATIVE_TRACE";

/// The trace file to use: the option when given, else [`TRACE_ENV`] when set and non-empty;
/// a relative path is taken from the host's `process.cwd()`.
pub(crate) fn resolve_target(option: Option<PathBuf>, host: &HostEnv) -> Option<PathBuf> {
    let path = option.or_else(|| {
        host.var(TRACE_ENV)
            .filter(|v| !v.trim().is_empty())
            .map(PathBuf::from)
    })?;
    Some(match &host.cwd {
        Some(cwd) if path.is_relative() => cwd.join(path),
        _ => path,
    })
}

/// Appends redacted messages to one trace file; shared by the LSP connection and the MCP
/// transport of one session.
pub(crate) struct Tracer {
    /// Tells this session's lines apart when several clients append to one file.
    session: String,
    started: Instant,
    file: TraceFile,
    correlation: Mutex<Correlator>,
}

impl Tracer {
    /// Open (create 0600, or append to) `path` and write the session's header line.
    pub(crate) fn open(path: &Path) -> Result<Arc<Tracer>> {
        Self::over(TraceFile::open(path)?)
    }

    fn over(file: TraceFile) -> Result<Arc<Tracer>> {
        let tracer = Tracer {
            session: crate::kernel::ids::short_id()?,
            started: Instant::now(),
            file,
            correlation: Mutex::new(Correlator::default()),
        };
        tracer.file.write_line(format::header_line(&tracer.session));
        Ok(Arc::new(tracer))
    }

    /// Record one LSP message as framed (the JSON body). An unparsable body is recorded as
    /// text, redacted.
    pub(crate) fn lsp(&self, dir: Direction, body: &[u8]) {
        if !self.file.is_open() {
            return;
        }
        let msg = match serde_json::from_slice::<Value>(body) {
            Ok(v) => v,
            Err(_) => Value::String(crate::kernel::redact::redact(&String::from_utf8_lossy(
                body,
            ))),
        };
        self.record(Channel::Lsp, dir, Some(msg), None);
    }

    /// Record one MCP JSON-RPC message (with the HTTP status / session id where known).
    pub(crate) fn mcp(&self, dir: Direction, msg: &Value, http: Option<HttpMeta>) {
        if !self.file.is_open() {
            return;
        }
        self.record(Channel::Mcp, dir, Some(msg.clone()), http);
    }

    /// Record an HTTP exchange of the MCP transport that carried no JSON-RPC message (a
    /// non-2xx status, the session's DELETE).
    pub(crate) fn mcp_http(&self, dir: Direction, http: HttpMeta) {
        if !self.file.is_open() {
            return;
        }
        self.record(Channel::Mcp, dir, None, Some(http));
    }

    fn record(&self, ch: Channel, dir: Direction, msg: Option<Value>, http: Option<HttpMeta>) {
        let elapsed = self.started.elapsed();
        let (method, msg) = match msg {
            Some(mut msg) => {
                let context = self.lock_correlation().observe(ch, dir, &msg);
                secrets::redact_message(&mut msg, &context);
                (context.method, Some(msg))
            }
            None => (None, None),
        };
        let line = format::message_line(&format::Entry {
            session: &self.session,
            elapsed,
            ch,
            dir,
            method: method.as_deref(),
            msg: msg.as_ref(),
            http: http.as_ref(),
        });
        self.file.write_line(line);
    }

    fn lock_correlation(&self) -> std::sync::MutexGuard<'_, Correlator> {
        self.correlation.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Flush and close the file; later records are dropped. Idempotent.
    pub(crate) fn close(&self) {
        self.file.close();
    }

    #[cfg(test)]
    /// True until closed or a write failed.
    pub(crate) fn is_open(&self) -> bool {
        self.file.is_open()
    }
}

#[cfg(test)]
mod tests;
