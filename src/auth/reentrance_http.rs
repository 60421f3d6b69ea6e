//! The HTTP side of the reentrance flow: one reqwest client per logon (no proxy, never
//! following redirects, every request bounded) whose TLS either skips verification
//! (`insecure`, the reference's `rejectUnauthorized: false`) or trusts the Mozilla roots
//! plus `extraCaCerts` (docs/decisions.md#d5-8), and a GET that drains the body and reports the
//! status and `Location`. Error texts never carry a URL's query (it may hold a ticket).

use super::strategy::LogonContext;
use crate::kernel::error::{codes, Error, Result};
use crate::tls::upstream_client_config;
use reqwest::header::{HeaderValue, AUTHORIZATION, LOCATION};
use reqwest::{Client, Url};
use std::time::Duration;

/// Bound on each GET of the flow, body included.
pub(crate) const REENTRANCE_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What a GET returned.
pub(super) struct GetOutcome {
    pub status: u16,
    pub location: Option<String>,
}

/// The client for one logon whose ticket request goes to `target`. When `target` is our own
/// TLS proxy, the client presents adt-ls's per-run identity, which the proxy requires
/// (docs/decisions.md#d6).
pub(super) fn reentrance_client(
    ctx: &LogonContext,
    timeout: Duration,
    target: &Url,
) -> Result<Client> {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // reqwest asks for the process default; losing an install race is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    let identity = crate::tls::proxy_client::identity_for(target);
    let tls = upstream_client_config(ctx.insecure, &ctx.extra_ca_pems, identity.as_ref())?;
    Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .tls_backend_preconfigured(tls)
        .build()
        .map_err(|e| Error::new(format!("reentrance: cannot create the HTTP client: {e}")))
}

/// GET `url` (with an optional `Authorization` value), drain the body, and return the
/// status and `Location`. `what` names the request in errors.
pub(super) async fn get(
    client: &Client,
    url: &Url,
    authorization: Option<&str>,
    what: &str,
    timeout: Duration,
) -> Result<GetOutcome> {
    let mut request = client.get(url.clone());
    if let Some(value) = authorization {
        let mut header = HeaderValue::from_str(value).map_err(|_| {
            Error::coded(
                codes::INVALID_ARG,
                "reentrance: the credentials cannot be sent in an HTTP header",
            )
        })?;
        header.set_sensitive(true);
        request = request.header(AUTHORIZATION, header);
    }
    let mut response = request
        .send()
        .await
        .map_err(|e| request_error(e, what, timeout))?;
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .filter(|l| !l.is_empty());
    while let Some(_chunk) = response
        .chunk()
        .await
        .map_err(|e| request_error(e, what, timeout))?
    {}
    Ok(GetOutcome { status, location })
}

/// `scheme://host:port/path` of a URL: safe to show, the query may hold a ticket.
pub(super) fn without_query(url: &Url) -> String {
    let mut shown = url.clone();
    shown.set_query(None);
    shown.set_fragment(None);
    let _ = shown.set_password(None);
    shown.to_string()
}

fn request_error(e: reqwest::Error, what: &str, timeout: Duration) -> Error {
    if e.is_timeout() {
        return Error::coded(
            codes::TIMEOUT,
            format!("{what} timed out after {}ms", timeout.as_millis()),
        );
    }
    Error::new(format!("{what} failed: {}", error_chain(&e.without_url())))
}

/// An error and its causes, `a: b: c`, without repeats.
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = vec![e.to_string()];
    let mut source = e.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}
