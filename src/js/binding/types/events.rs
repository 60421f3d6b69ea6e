//! The payloads of the client's events (`client.on`) and of `onProgress` (docs/events.md).

use napi_derive::napi;

/// `connected` / `backendLive` as {@link AdtLsClient.health} reports them.
#[napi(object)]
pub struct HealthFlags {
    /// A destination is logged on.
    pub connected: bool,
    /// Connected and the SAP session was last found alive.
    pub backend_live: bool,
}

/// `logonState`: adt-ls's `adtLs/destinations/logonStateChanged` notification.
#[napi(object)]
pub struct LogonStateEvent {
    /// The adt-ls destination, e.g. `ADTLS`.
    pub destination_id: String,
    /// adt-ls's logon state, e.g. `connected` or `disconnected`.
    pub logon_state: String,
    /// adt-ls's message for the state, when it gave one (secrets masked).
    pub message: Option<String>,
}

/// `health`: `connected` or `backendLive` of {@link AdtLsClient.health} changed.
#[napi(object)]
pub struct HealthEvent {
    /// The flags before the change.
    pub previous: HealthFlags,
    /// The flags after it (what `health()` reports now).
    pub current: HealthFlags,
}

/// `relogon`: a re-logon started or ended (concurrent triggers share one attempt).
#[napi(object)]
pub struct RelogonEvent {
    /// `started`, then `succeeded` or `failed`.
    #[napi(ts_type = "'started' | 'succeeded' | 'failed'")]
    pub status: String,
    /// What triggered it: a call that found the session logged off, the keep-alive probe
    /// that found it dead, or `reconnect()`.
    #[napi(ts_type = "'call' | 'keepAlive' | 'reconnect'")]
    pub reason: String,
}

/// `exit`: the adt-ls process ended.
#[napi(object)]
pub struct ExitEvent {
    /// Its exit code; `null` when a signal ended it.
    #[napi(ts_type = "number | null")]
    pub code: f64,
    /// The signal that ended it (`SIGKILL` after `dispose()`), else `null`.
    #[napi(ts_type = "string | null")]
    pub signal: String,
    /// `true` when `dispose()` ended it; `false` for a crash or any other exit.
    pub expected: bool,
}

/// One report to `onProgress`: `progress` out of `total` when the total is known. From MCP
/// `notifications/progress` as sent; from LSP `$/progress`, `percentage` of `total: 100`
/// (`begin` without a percentage is `0` without total, `end` is `100` of `100`) with the
/// `message` (else the `begin` title).
#[napi(object)]
pub struct ProgressReport {
    /// Work done so far.
    pub progress: f64,
    /// The total, when known.
    pub total: Option<f64>,
    /// What is being done.
    pub message: Option<String>,
}
