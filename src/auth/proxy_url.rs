//! Logon URLs that name our TLS proxy, for handlers outside the engine (docs/decisions.md#d6). The
//! proxy serves adt-ls only (mutual TLS with adt-ls's per-run identity), so a browser or a
//! user's own `requestBrowserBasedLogon` handler (a `custom` strategy) could not open such
//! a URL: they get the same URL with the system's origin instead, and handle the system's
//! TLS themselves. The engine's own reentrance GETs keep the proxy URL (they present the
//! identity, and with `clientCert` the proxy presents the user's certificate upstream).

use super::destinations::LSP_REQUEST_BROWSER_LOGON;
use crate::driver::router::ServerRequestHandler;
use crate::kernel::future::BoxFuture;
use crate::tls::proxy_client::system_url_for;
use serde_json::Value;
use std::sync::Arc;

/// `url` with the system's origin when it names one of our running proxies.
pub(crate) fn for_browser(url: String) -> String {
    reqwest::Url::parse(&url)
        .ok()
        .and_then(|parsed| system_url_for(&parsed))
        .unwrap_or(url)
}

/// Every string in `value` that is a URL naming one of our proxies, rewritten by
/// [`for_browser`].
pub(crate) fn rewrite_proxy_urls(value: Value) -> Value {
    match value {
        Value::String(s) if s.starts_with("https://") => Value::String(for_browser(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(rewrite_proxy_urls).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, rewrite_proxy_urls(v)))
                .collect(),
        ),
        other => other,
    }
}

/// A user's handler for `method`; a `requestBrowserBasedLogon` handler sees proxy URLs
/// rewritten to the system's origin.
pub(crate) fn user_request_handler(
    method: &str,
    handler: Arc<dyn ServerRequestHandler>,
) -> Arc<dyn ServerRequestHandler> {
    if method == LSP_REQUEST_BROWSER_LOGON {
        Arc::new(BrowserFacing(handler))
    } else {
        handler
    }
}

struct BrowserFacing(Arc<dyn ServerRequestHandler>);

impl ServerRequestHandler for BrowserFacing {
    fn handle(&self, params: Option<Value>) -> BoxFuture<Result<Value, String>> {
        self.0.handle(params.map(rewrite_proxy_urls))
    }
}
