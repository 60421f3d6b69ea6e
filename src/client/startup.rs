//! `createAdtLs` startup in the reference's order (docs/wire.md#startup-order): guards, binary, a private work
//! dir, (TLS), adt-ls, the isolated destination store, (logon), adt-ls's MCP server with port
//! fallback and the MCP session, (warm-up and keep-alive). A failure at any step releases
//! everything made so far (docs/decisions.md#d5-17): MCP session, adt-ls, proxy, work dir.

use super::connect_session::{self, PreparedTls};
use super::options::ClientOptions;
use super::state::State;
use super::{Client, Inner};
use crate::discovery::{self, DiscoverOptions};
use crate::driver::{Driver, DriverOptions};
use crate::kernel::error::Result;
use crate::kernel::identity::ClientInfo;
use crate::kernel::ids;
use crate::kernel::log;
use crate::mcp::lifecycle::{
    effective_port_and_token, start_mcp_server, start_with_fallback, DEFAULT_PORT_ATTEMPTS,
};
use crate::mcp::{McpClient, McpClientOptions};
use crate::process::{dirs, reaper};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tokio::sync::watch;

const LEGEND_MISSING: &str =
    "adt-ls advertised no semanticTokens legend — navigation.semanticTokens will not resolve type names";

/// What startup has made so far.
#[derive(Default)]
struct Made {
    work_base: Option<PathBuf>,
    driver: Option<Driver>,
    mcp: Option<McpClient>,
    proxy: Option<crate::tls::proxy::ProxyHandle>,
}

impl Made {
    async fn release(self) {
        if let Some(mcp) = self.mcp {
            mcp.shutdown();
            let _ = mcp.close().await;
        }
        if let Some(driver) = self.driver {
            driver.dispose().await;
            driver.clear_handlers();
        }
        if let Some(proxy) = self.proxy {
            proxy.close().await;
        }
        if let Some(dir) = self.work_base {
            crate::safe_fs::remove_dir_all_quiet(&dir);
            reaper::untrack_path(&dir);
        }
    }
}

pub(super) async fn create(opts: ClientOptions) -> Result<Client> {
    opts.validate()?;
    let host = opts.host.env_or_os();
    let bin = discovery::resolve_adt_ls_path(&DiscoverOptions {
        explicit_path: opts.adt_ls_path.clone(),
        ..DiscoverOptions::from_host(&host)
    })?;
    let temp = crate::safe_fs::temp::trusted_temp_dir(&host)?;
    crate::driver::sweep_stale_dirs(&[&temp]);
    let work_base = dirs::make_temp_dir(&temp, crate::process::owner::CLIENT_PREFIX, 4)?;
    let mut made = Made {
        work_base: Some(work_base.clone()),
        ..Made::default()
    };
    match build(opts, bin, work_base, &mut made).await {
        Ok(client) => Ok(client),
        Err(e) => {
            made.release().await;
            Err(e)
        }
    }
}

async fn build(
    opts: ClientOptions,
    bin: PathBuf,
    work_base: PathBuf,
    made: &mut Made,
) -> Result<Client> {
    let destination = opts.destination();
    let logon_failures = connect_session::LogonFailures::default();
    let Reach {
        tls,
        extra_env,
        system_url,
    } = Reach::prepare(&opts, &bin, &work_base, made).await?;
    let driver = new_driver(&opts, bin, &work_base, extra_env, made);
    let events = super::events::EventBus::default();
    forward_logon_events(&driver, &events);
    let init = driver.start(opts.start_timeout).await?;
    let exit = driver.exit_watch();
    let store = work_base.join("destinations.json");
    crate::auth::destinations::initialize_service(&driver, &store.to_string_lossy()).await?;

    let connected = match (&opts.connection, &destination, &system_url) {
        (Some(conn), Some(dest), Some(url)) => {
            connect_session::logon(&opts, conn, dest, url, &driver, &tls, &logon_failures).await?;
            true
        }
        _ => false,
    };

    let (mcp, mcp_port) = start_mcp(&opts, &driver).await?;
    made.mcp = Some(mcp.clone());
    if let (true, Some(dest)) = (connected, &destination) {
        crate::mcp::lifecycle::set_mcp_destination(&driver, dest).await?;
    }
    log_ready(mcp_port, &init);

    let (disposed_tx, _) = watch::channel(false);
    let client = Client::from_inner(Inner {
        driver,
        mcp,
        mcp_port,
        work_base,
        destination,
        probe: opts
            .connection
            .as_ref()
            .and_then(|c| c.probe.clone())
            .unwrap_or_default(),
        init,
        state: State::new(connected, events.clone()),
        events,
        exit,
        relogon_flight: Default::default(),
        objects: Default::default(),
        disposed_tx,
        background: Mutex::new(Vec::new()),
        proxy: Mutex::new(made.proxy.take()),
        logon_failures,
        opts,
    });
    // From here the client owns everything.
    made.driver = None;
    made.mcp = None;
    made.work_base = None;
    watch_exit(&client);
    if connected {
        connect_session::warm_up(&client).await;
    }
    Ok(client)
}

/// How adt-ls reaches the system: the TLS setup of `connection` (truststore, and with
/// selfSigned the localhost proxy, recorded in `made`), the environment it gives adt-ls
/// and the URL adt-ls logs on to (the proxy's, when there is one).
struct Reach {
    tls: PreparedTls,
    extra_env: Vec<(String, String)>,
    system_url: Option<String>,
}

impl Reach {
    async fn prepare(
        opts: &ClientOptions,
        bin: &Path,
        work_base: &Path,
        made: &mut Made,
    ) -> Result<Reach> {
        let mut extra_env = opts.extra_env.clone();
        let mut system_url = opts.connection.as_ref().map(|c| c.system_url.clone());
        let mut tls = PreparedTls::default();
        if let Some(conn) = &opts.connection {
            tls = connect_session::prepare_tls(opts, conn, bin, work_base).await?;
            if let Some(java) = tls.java_tool_options.clone() {
                extra_env.push(("JAVA_TOOL_OPTIONS".to_string(), java));
            }
            if let Some(proxy) = tls.proxy.take() {
                system_url = Some(proxy.url.clone());
                made.proxy = Some(proxy);
            }
        }
        Ok(Reach {
            tls,
            extra_env,
            system_url,
        })
    }
}

/// The driver of adt-ls, its data dir inside `work_base` (recorded in `made`).
fn new_driver(
    opts: &ClientOptions,
    bin: PathBuf,
    work_base: &Path,
    extra_env: Vec<(String, String)>,
    made: &mut Made,
) -> Driver {
    let driver = Driver::new(
        bin,
        DriverOptions {
            data_dir: Some(work_base.join("data")),
            extra_env,
            extra_args: opts.extra_args.clone(),
            client_info: ClientInfo::default(),
            request_timeout: opts.request_timeout,
            host: opts.host.clone(),
        },
    );
    made.driver = Some(driver.clone());
    driver
}

/// Emit adt-ls's logon state changes as client events.
fn forward_logon_events(driver: &Driver, events: &super::events::EventBus) {
    let bus = events.clone();
    driver.add_notification_listener(
        crate::auth::destinations::LSP_LOGON_STATE_CHANGED,
        std::sync::Arc::new(move |params| {
            if let Some(event) =
                super::events::ClientEvent::from_logon_notification(params.as_ref())
            {
                bus.emit(event);
            }
        }),
    );
}

/// Log where the MCP server listens, and warn when adt-ls advertised no token legend.
fn log_ready(mcp_port: i64, init: &serde_json::Value) {
    log::info(format!(
        "adt-ls MCP federated on {}",
        mcp_endpoint(mcp_port)
    ));
    if init
        .pointer("/capabilities/semanticTokensProvider/legend")
        .is_none()
    {
        log::warn(LEGEND_MISSING);
    }
}

/// Emit `exit` (not expected) when adt-ls ends while the client is not disposed.
fn watch_exit(client: &Client) {
    let Some(mut exit) = client.inner().exit.clone() else {
        return;
    };
    let weak = std::sync::Arc::downgrade(&client.inner_arc());
    let task = tokio::spawn(async move {
        let Ok(status) = exit.wait_for(Option::is_some).await.map(|s| *s) else {
            return;
        };
        let Some(inner) = weak.upgrade() else { return };
        if inner.state.is_disposed() {
            return;
        }
        inner.events.emit(super::events::ClientEvent::Exit {
            code: status.and_then(|s| s.code),
            signal: status.and_then(|s| s.signal_text()),
            expected: false,
        });
    });
    client.inner().keep_background(task);
}

/// Start adt-ls's MCP server (port fallback from `mcpPort`) and open the MCP session.
async fn start_mcp(opts: &ClientOptions, driver: &Driver) -> Result<(McpClient, i64)> {
    let token = ids::random_hex(24)?;
    crate::kernel::redact::register(&token);
    let started = start_with_fallback(
        |port| start_mcp_server(driver, json!(port), &token),
        opts.mcp_port,
        DEFAULT_PORT_ATTEMPTS,
        |port| {
            log::warn(format!("adt-ls MCP port {port} busy — trying {}", port + 1));
            async {}
        },
    )
    .await?;
    let (port, token) = effective_port_and_token(&started, opts.mcp_port, &token);
    let mcp = McpClient::new_traced(
        &mcp_endpoint(port),
        &token,
        ClientInfo::default(),
        McpClientOptions {
            timeout: opts.mcp_timeout,
            ..McpClientOptions::default()
        },
        driver.tracer(),
    )?;
    if let Err(e) = mcp.connect().await {
        mcp.shutdown();
        let _ = mcp.close().await;
        return Err(e);
    }
    Ok((mcp, port))
}

/// adt-ls's MCP endpoint: the IP literal its server binds (127.0.0.1), never `localhost`,
/// which may resolve to `::1` first where another local user can listen and would receive
/// the bearer token (docs/decisions.md#d6; the reference dials `http://localhost:<port>/mcp`).
pub(super) fn mcp_endpoint(port: i64) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}
