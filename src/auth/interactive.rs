//! The `interactive` strategy's `requestBrowserBasedLogon` handler: hand the logon URL to
//! the user's `openUrl`, wait for it (its promise, when it returns one), then answer `true`;
//! with no URL answer `false` (docs/decisions.md#d5-9). The wait ends after
//! [`OPEN_URL_WAIT`] at the latest: adt-ls answers the browser's redirect only after our
//! answer, so an `openUrl` that waits for the whole logon would otherwise never settle
//! (docs/decisions.md#d9-9). A failing `openUrl` is logged as a warning, never left unhandled.
//! A URL naming our TLS proxy is handed over with the system's origin instead: the proxy
//! serves adt-ls only (docs/decisions.md#d6), and a browser handles the system's TLS itself.

use super::logon_url::extract_logon_url;
use super::strategy::InteractiveUi;
use crate::driver::router::ServerRequestHandler;
use crate::kernel::future::BoxFuture;
use crate::kernel::log;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// How long the handler waits for `openUrl` before it answers adt-ls anyway.
pub(crate) const OPEN_URL_WAIT: Duration = Duration::from_secs(10);

pub(crate) struct BrowserLogonHandler {
    ui: Arc<dyn InteractiveUi>,
    wait: Duration,
}

impl BrowserLogonHandler {
    pub(crate) fn new(ui: Arc<dyn InteractiveUi>) -> Self {
        BrowserLogonHandler {
            ui,
            wait: OPEN_URL_WAIT,
        }
    }

    /// Wait at most `wait` for `openUrl` instead of [`OPEN_URL_WAIT`].
    #[cfg(test)]
    pub(crate) fn with_open_url_wait(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }
}

impl ServerRequestHandler for BrowserLogonHandler {
    fn handle(&self, params: Option<Value>) -> BoxFuture<Result<Value, String>> {
        let params = params.unwrap_or(Value::Null);
        let Some(url) = extract_logon_url(&params) else {
            log::warn("requestBrowserBasedLogon: could not find logonUrl in params");
            return Box::pin(async { Ok(Value::Bool(false)) });
        };
        let url = super::proxy_url::for_browser(url);
        let opened = self.ui.open_url(url);
        let wait = self.wait;
        Box::pin(async move {
            match tokio::time::timeout(wait, opened).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => log::warn(format!("interactive openUrl failed: {}", e.message)),
                Err(_) => log::warn(format!(
                    "interactive openUrl has not settled after {}ms; telling adt-ls the browser is open (resolve openUrl once the browser shows the page: adt-ls completes the logon only after this answer)",
                    wait.as_millis()
                )),
            }
            Ok(Value::Bool(true))
        })
    }
}
