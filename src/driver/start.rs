//! The start sequence of a driver, step by step: a private data dir, the pipe listener, the
//! spawn, the wait for adt-ls to connect (racing its exit, the timeout and dispose), the LSP
//! connection, `initialize`, the version gate and `initialized`. Each step records what it
//! made in [`Made`], so a failed start releases exactly that.

use super::{
    disposed_during_start, exited, watch_for_exit, Driver, DriverOptions, ExitExplainer, Made,
    Session, TAIL_CHUNKS,
};
use crate::discovery::version;
use crate::kernel::error::{codes, Error, Result};
use crate::kernel::host::HostEnv;
use crate::kernel::identity::ClientInfo;
use crate::kernel::ids;
use crate::kernel::log;
use crate::lsp::{Connection, DirectWriter, Handlers};
use crate::process::pipe::{PipeGuard, PipeListener, Transport};
use crate::process::{args, child, dirs};
use crate::trace::Tracer;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// What adt-ls's connection to the pipe gives: the transport, the direct writer, the guard.
type Accepted = (Transport, Option<DirectWriter>, PipeGuard);

impl Driver {
    /// Start adt-ls and complete the LSP handshake; what is made is recorded in `made`
    /// until the returned session owns it.
    pub(super) async fn start_inner(
        &self,
        timeout: Duration,
        mut cancel: watch::Receiver<bool>,
        made: &mut Made,
    ) -> Result<Session> {
        let opts = &self.inner.opts;
        let host = opts.host.env_or_os();
        let temp = crate::safe_fs::temp::trusted_temp_dir(&host)?;
        let socket_base = crate::process::pipe::socket_base(&temp, &host)?;
        super::sweep_stale_dirs(&[&temp, &socket_base]);
        let (data_dir, owns_data_dir) = data_dir(opts, &temp, made)?;
        let mut listener = PipeListener::bind(&socket_base)?;
        let address = listener.address().to_string();
        made.socket_dir = listener.dir().map(PathBuf::from);
        let child = self.spawn(&data_dir, &address, &host, made)?;
        #[cfg(unix)]
        let fed = opts.host.read_host.is_some();
        #[cfg(not(unix))]
        let fed = false;
        let (transport, direct, pipe_guard) =
            accept(&mut listener, &child, fed, timeout, &mut cancel).await?;
        let tracer = open_tracer(opts, &host);
        made.tracer = tracer.clone();
        let conn = self.connect(transport, direct, &child, tracer.clone());
        made.conn = Some(conn.clone());
        watch_for_exit(conn.clone(), child.clone());
        let init = initialize(&conn, &opts.client_info, timeout, &mut cancel).await?;
        made.release();
        Ok(Session {
            conn,
            child,
            _pipe_guard: pipe_guard,
            pipe_address: address,
            socket_dir: listener.dir().map(PathBuf::from),
            data_dir,
            owns_data_dir,
            initialize_result: init,
            tracer,
        })
    }

    /// Spawn adt-ls on `data_dir`, told to connect to the pipe at `address`.
    fn spawn(
        &self,
        data_dir: &Path,
        address: &str,
        host: &HostEnv,
        made: &mut Made,
    ) -> Result<Arc<child::ChildProcess>> {
        let opts = &self.inner.opts;
        let data_dir_text = data_dir.to_string_lossy().into_owned();
        let argv = args::compose_spawn_args(&data_dir_text, address, &opts.extra_args);
        let child = Arc::new(child::spawn(
            &self.inner.bin_path,
            &argv,
            host.vars.as_deref(),
            &opts.extra_env,
        )?);
        made.child = Some(child.clone());
        Ok(child)
    }

    /// The LSP connection over the accepted transport, its messages routed to the driver's
    /// router and a closed pipe explained by the child's exit.
    fn connect(
        &self,
        transport: Transport,
        direct: Option<DirectWriter>,
        child: &Arc<child::ChildProcess>,
        tracer: Option<Arc<Tracer>>,
    ) -> Connection {
        let handlers = Handlers {
            router: self.inner.router.clone(),
            notifications: Some(self.inner.router.clone()),
            close_hook: Arc::new(ExitExplainer {
                child: child.clone(),
            }),
        };
        match transport {
            Transport::Stream(stream) => Connection::start_traced(stream, handlers, direct, tracer),
            #[cfg(unix)]
            Transport::Fed { writer, read_side } => {
                let (conn, feeder) = Connection::start_fed(writer, handlers, direct, tracer);
                match &self.inner.opts.host.read_host {
                    Some(host) => host.attach(read_side, feeder),
                    None => feeder.read_on_runtime(read_side),
                }
                conn
            }
        }
    }
}

/// The data dir: the configured one (kept on dispose), or a fresh one in `temp` that the
/// driver owns (recorded in `made`). The flag says whether the driver owns it.
fn data_dir(
    opts: &DriverOptions,
    temp: &crate::safe_fs::Dir,
    made: &mut Made,
) -> Result<(PathBuf, bool)> {
    let (data_dir, owns_data_dir) = match &opts.data_dir {
        Some(d) => (dirs::create_private_dir_all(d)?, false),
        None => {
            let name = format!("{}{}", crate::process::owner::DATA_PREFIX, ids::short_id()?);
            (dirs::create_owned_dir(temp, &name)?, true)
        }
    };
    if owns_data_dir {
        made.owned_dir = Some(data_dir.clone());
    }
    Ok((data_dir, owns_data_dir))
}

/// Wait for adt-ls to connect to the pipe (`fed`: the connection's owner reads the socket
/// itself), racing adt-ls's exit, the clock and dispose().
async fn accept(
    listener: &mut PipeListener,
    child: &child::ChildProcess,
    fed: bool,
    timeout: Duration,
    cancel: &mut watch::Receiver<bool>,
) -> Result<Accepted> {
    let mut exit = child.exit_watch();
    tokio::select! {
        accepted = listener.accept_child(child.pid(), fed) => accepted,
        _ = exited(&mut exit) => {
            child.wait_output_drained(Duration::from_millis(300)).await;
            let code = child.exit_info().map(|i| i.code_text()).unwrap_or_else(|| "null".into());
            Err(Error::coded(
                codes::CONNECTION_CLOSED,
                format!("adt-ls exited (code {code}) before LSP connect.\n{}", child.output().last(TAIL_CHUNKS)),
            ))
        }
        _ = tokio::time::sleep(timeout) => {
            Err(Error::coded(codes::TIMEOUT, format!("adt-ls LSP connect timed out after {}ms", timeout.as_millis())))
        }
        _ = cancelled(cancel) => Err(disposed_during_start()),
    }
}

/// `initialize` (racing dispose()), the version gate BEFORE `initialized`, then
/// `initialized`; the `initialize` result.
async fn initialize(
    conn: &Connection,
    info: &ClientInfo,
    timeout: Duration,
    cancel: &mut watch::Receiver<bool>,
) -> Result<Value> {
    let params = initialize_params(info);
    let init = tokio::select! {
        r = conn.request("initialize", Some(params), Some(timeout)) => r.map_err(|e| {
            if e.has_code(codes::TIMEOUT) {
                Error::coded(codes::TIMEOUT, format!("adt-ls initialize timed out after {}ms", timeout.as_millis()))
            } else {
                e
            }
        })?,
        _ = cancelled(cancel) => return Err(disposed_during_start()),
    };
    let server_version = init
        .pointer("/serverInfo/version")
        .and_then(Value::as_str)
        .map(str::to_string);
    version::assert_supported_adt_ls_version(server_version.as_deref())?;
    conn.notify("initialized", Some(json!({}))).await?;
    if let Some(v) = &server_version {
        if let Some(warning) = version::not_verified_warning(v) {
            log::warn(warning);
        }
    }
    let name = init
        .pointer("/serverInfo/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    log::info(format!(
        "adt-ls ready: {name} {}",
        server_version.as_deref().unwrap_or("")
    ));
    Ok(init)
}

/// Open the session's wire trace when one is configured; a file that cannot be opened is
/// logged and the session runs untraced (tracing never breaks the client).
fn open_tracer(opts: &DriverOptions, host: &HostEnv) -> Option<Arc<Tracer>> {
    let path = crate::trace::resolve_target(opts.host.trace_file.clone(), host)?;
    match Tracer::open(&path) {
        Ok(tracer) => Some(tracer),
        Err(e) => {
            log::warn(format!("trace: {e}; tracing is off for this session"));
            None
        }
    }
}

fn initialize_params(info: &ClientInfo) -> Value {
    json!({
        "processId": std::process::id(),
        "clientInfo": info.to_json(),
        "rootUri": null,
        "workspaceFolders": null,
        "capabilities": {},
        "initializationOptions": {"userAgentInfos": [info.to_json()]},
    })
}

async fn cancelled(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|c| *c).await;
}
