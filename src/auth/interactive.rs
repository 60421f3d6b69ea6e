//! The `interactive` strategy's `requestBrowserBasedLogon` handler: hand the logon URL to
//! the user's `openUrl` without waiting for it and answer `true`; with no URL answer
//! `false` (docs/decisions.md#d5-9). A failing `openUrl` is logged as a warning, never left unhandled.
//! A URL naming our TLS proxy is handed over with the system's origin instead: the proxy
//! serves adt-ls only (docs/decisions.md#d6), and a browser handles the system's TLS itself.

use super::logon_url::extract_logon_url;
use super::strategy::InteractiveUi;
use crate::driver::router::ServerRequestHandler;
use crate::log;
use crate::lsp::BoxFuture;
use serde_json::Value;
use std::sync::Arc;

pub struct BrowserLogonHandler {
    ui: Arc<dyn InteractiveUi>,
}

impl BrowserLogonHandler {
    pub fn new(ui: Arc<dyn InteractiveUi>) -> Self {
        BrowserLogonHandler { ui }
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
        let ui = self.ui.clone();
        Box::pin(async move {
            tokio::spawn(async move {
                if let Err(e) = ui.open_url(url).await {
                    log::warn(format!("interactive openUrl failed: {}", e.message));
                }
            });
            Ok(Value::Bool(true))
        })
    }
}
