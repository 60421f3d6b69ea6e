//! Connected mode (docs/wire.md#startup-order steps 4 and 7, docs/wire.md#resilience): TLS material and the
//! localhost proxy, strategy registration, the destination, `ensureLoggedOn` with its
//! `getLogonInfo` fallback, and afterwards the session upkeep: re-logon, the liveness probe,
//! revive-if-dead and the activity-gated keep-alive.

use super::options::{ClientOptions, ConnectionOptions};
use super::Client;
use crate::auth::destinations::{self, DestinationConfig, LogonInfo};
use crate::auth::{FailureListener, LogonContext};
use crate::driver::Driver;
use crate::kernel::error::{Error, Result};
use crate::kernel::log;
use crate::tls::{self, ProxyHandle, ProxyOptions, ProxyTarget};
use serde_json::{json, Value};
use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

pub(super) const ACTIVITY_WINDOW: Duration = Duration::from_millis(900_000);
const SESSION_DEAD: &str = "SAP session appears dead (liveness probe empty) — forcing re-logon";

/// Background logon failures (the headless ticket flow), numbered so that a waiter only
/// sees the ones that happen while it waits.
#[derive(Clone)]
pub(crate) struct LogonFailures {
    tx: Arc<watch::Sender<(u64, Error)>>,
}

impl Default for LogonFailures {
    fn default() -> Self {
        LogonFailures {
            tx: Arc::new(watch::channel((0, Error::new(""))).0),
        }
    }
}

impl LogonFailures {
    /// The listener strategies report to.
    pub(crate) fn listener(&self) -> FailureListener {
        let tx = self.tx.clone();
        Arc::new(move |error| {
            tx.send_modify(|(n, e)| {
                *n += 1;
                *e = error;
            })
        })
    }

    /// Run `fut`; `Err(reason)` if a logon failure is reported before it finishes.
    pub(crate) async fn race<T>(
        &self,
        fut: impl Future<Output = T>,
    ) -> std::result::Result<T, Error> {
        let mut rx = self.tx.subscribe();
        tokio::select! {
            out = fut => Ok(out),
            changed = rx.changed() => match changed {
                Ok(()) => Err(rx.borrow().1.clone()),
                Err(_) => Err(Error::new("the logon was abandoned")),
            },
        }
    }
}

/// What TLS preparation produced.
#[derive(Default)]
pub(super) struct PreparedTls {
    pub java_tool_options: Option<String>,
    pub proxy: Option<ProxyHandle>,
    pub extra_ca_pems: Vec<Vec<u8>>,
}

/// The truststore (selfSigned and/or extraCaCerts) and, with selfSigned, the reverse proxy.
pub(super) async fn prepare_tls(
    opts: &ClientOptions,
    conn: &ConnectionOptions,
    bin: &Path,
    work_base: &Path,
) -> Result<PreparedTls> {
    let Some(prepared) =
        tls::prepare_adt_ls_tls(bin, work_base, conn.self_signed, &conn.extra_ca_certs).await?
    else {
        return Ok(PreparedTls::default());
    };
    let mut out = PreparedTls {
        java_tool_options: Some(prepared.java_tool_options.clone()),
        proxy: None,
        extra_ca_pems: prepared.extra_ca_pems.clone(),
    };
    if let (true, Some(cert)) = (conn.self_signed, prepared.proxy_cert) {
        let mut proxy = ProxyOptions::new(
            cert.cert_pem,
            cert.key_pem,
            ProxyTarget::from_system_url(&conn.system_url)?,
        );
        proxy.extra_ca_pems = prepared.extra_ca_pems;
        proxy.forward_proxy = conn.forward_proxy.clone();
        proxy.client_cert = opts.auth.as_ref().and_then(|a| a.client_cert().cloned());
        proxy.client_auth = prepared.proxy_client;
        out.proxy = Some(tls::start_tls_reverse_proxy(proxy).await?);
    }
    Ok(out)
}

/// Register the strategy, create the destination and log on; fails with the reference's text
/// when the state does not reach `connected`.
pub(super) async fn logon(
    opts: &ClientOptions,
    conn: &ConnectionOptions,
    dest: &str,
    system_url: &str,
    driver: &Driver,
    tls: &PreparedTls,
    failures: &LogonFailures,
) -> Result<()> {
    let strategy = opts
        .auth
        .as_ref()
        .ok_or_else(|| Error::new(super::options::BOTH_OR_NEITHER))?;
    let ctx = LogonContext {
        insecure: conn.self_signed,
        extra_ca_pems: tls.extra_ca_pems.clone(),
        sap_client: Some(conn.client.clone().unwrap_or_else(|| "001".to_string())),
        on_failure: Some(failures.listener()),
        // Credentials go to the system's own origin or the proxy fronting it, nowhere else.
        credential_origins: [conn.system_url.as_str(), system_url]
            .iter()
            .filter_map(|u| reqwest::Url::parse(u).ok())
            .collect(),
    };
    strategy.register(driver, &ctx).await?;
    destinations::create_destination(
        driver,
        &DestinationConfig {
            id: dest.to_string(),
            system_url: system_url.to_string(),
            user: strategy.user.clone(),
            client: conn.client.clone(),
            language: conn.language.clone(),
        },
    )
    .await?;
    let first = match failures
        .race(destinations::ensure_logged_on(
            driver,
            dest,
            opts.logon_timeout,
        ))
        .await
    {
        Ok(result) => result?,
        Err(reason) => return Err(not_connected_because(dest, &reason)),
    };
    let mut info = LogonInfo::parse(&first).unwrap_or_default();
    if !info.is_connected() {
        if let Some(second) = destinations::get_logon_info(driver, dest)
            .await
            .ok()
            .as_ref()
            .and_then(LogonInfo::parse)
        {
            info = second;
        }
    }
    if info.is_connected() {
        Ok(())
    } else {
        Err(not_connected(dest, &info))
    }
}

/// The logon failure `reason` reported in the reference's words; its code is kept.
fn not_connected_because(dest: &str, reason: &Error) -> Error {
    Error {
        message: format!(
            "Logon to {dest} did not reach 'connected' (disconnected: {}).",
            reason.message
        ),
        code: reason.code.clone(),
        data: None,
        extra: reason.extra.clone(),
    }
    .with_cause(reason.message.clone())
    .with_detail("destination", dest)
}

fn not_connected(dest: &str, info: &LogonInfo) -> Error {
    let state = if info.logon_state.is_empty() {
        "no logon result".to_string()
    } else {
        info.logon_state.clone()
    };
    let detail = match info.message.as_deref() {
        Some(m) if !m.is_empty() => format!(": {m}"),
        _ => String::new(),
    };
    let e = Error::new(format!(
        "Logon to {dest} did not reach 'connected' ({state}{detail})."
    ));
    crate::auth::logon_error::classify_or(e, crate::kernel::error::codes::LOGON_FAILED)
        .with_detail("destination", dest)
}

/// One re-logon: `ensureLoggedOn` then `setDestination`; `true` when connected afterwards.
pub(super) async fn relogon_once(client: &Client, dest: &str) -> bool {
    let inner = client.inner();
    let attempt = destinations::ensure_logged_on(&inner.driver, dest, inner.opts.logon_timeout);
    let ok = match inner.logon_failures.race(attempt).await {
        Ok(Ok(info)) if LogonInfo::parse(&info).is_some_and(|i| i.is_connected()) => {
            crate::mcp::lifecycle::set_mcp_destination(&inner.driver, dest)
                .await
                .is_ok()
        }
        _ => false,
    };
    inner.state.set_connected(ok);
    ok
}

/// The liveness probe on the raw driver (not activity, no retry): live iff it finds something.
pub(super) async fn probe_live(client: &Client) -> bool {
    let inner = client.inner();
    let Some(dest) = inner.destination.clone() else {
        return false;
    };
    let params = json!({
        "destination": dest,
        "pattern": inner.probe.pattern,
        "maxResults": 1,
        "types": inner.probe.types,
    });
    let live = match inner
        .driver
        .request("adtLs/repository/quickSearch", Some(params), None)
        .await
    {
        Ok(result) => has_references(&result),
        Err(_) => false,
    };
    inner.state.set_backend_live(live);
    live
}

/// `true` when `result.references` is a non-empty array.
pub(super) fn has_references(result: &Value) -> bool {
    result
        .get("references")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty())
}

/// If the probe finds the session dead, re-logon; `true` when that revived it.
pub(super) async fn revive_if_dead(client: &Client) -> bool {
    if probe_live(client).await {
        return false;
    }
    log::warn(SESSION_DEAD);
    client
        .relogon(super::events::RelogonReason::KeepAlive)
        .await
}

/// The warm-up probe and, unless disabled, the keep-alive loop.
pub(super) async fn warm_up(client: &Client) {
    probe_live(client).await;
    if !client.inner().opts.keep_alive {
        return;
    }
    let period = client.inner().opts.keep_alive_interval;
    let weak = Arc::downgrade(&client.inner_arc());
    let task = tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        loop {
            tick.tick().await;
            let Some(inner) = weak.upgrade() else { return };
            let client = Client::from_arc(inner);
            if client.inner().state.is_disposed() {
                return;
            }
            if client.inner().state.idle_for() > ACTIVITY_WINDOW {
                continue;
            }
            revive_if_dead(&client).await;
        }
    });
    client.inner().keep_background(task);
}
