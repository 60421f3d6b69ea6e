//! Headless reentrance-ticket logon, "browser emulation" (docs/wire.md#reentrance-logon): GET the logonUrl
//! with the credentials and without following redirects, expect a redirect whose
//! `Location` carries the ticket to adt-ls's local listener, then deliver it there (first
//! `localhost` replaced by `127.0.0.1`, no credentials, status ignored). The logonUrl must
//! be the destination's own origin over TLS ([`super::origin`]). Passwords, tokens
//! and tickets are registered for redaction and never appear in errors.

use super::origin::check_credential_origin;
use super::reentrance_http::{get, reentrance_client, without_query, GetOutcome};
use super::strategy::LogonContext;
use crate::kernel::error::{Error, Result};
use crate::kernel::redact;
use base64::Engine as _;
use reqwest::Url;
use std::time::Duration;

/// The credential sent with the ticket request. `None` where a credential is optional means
/// the client-certificate case: the TLS proxy authenticates, no header is sent.
#[derive(Clone, PartialEq)]
pub(crate) enum Credentials {
    Basic { user: String, password: String },
    Bearer(String),
}

impl Credentials {
    /// The `Authorization` header value.
    pub(crate) fn authorization(&self) -> String {
        match self {
            Credentials::Basic { user, password } => {
                let pair = format!("{user}:{password}");
                format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(pair)
                )
            }
            Credentials::Bearer(token) => format!("Bearer {token}"),
        }
    }

    /// Mask the secret (and its header form) wherever it might appear later.
    pub(crate) fn register_secrets(&self) {
        match self {
            Credentials::Basic { password, .. } => redact::register(password),
            Credentials::Bearer(token) => redact::register(token),
        }
        redact::register(&self.authorization());
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Basic { user, .. } => write!(f, "Basic {{ user: {user:?}, .. }}"),
            Credentials::Bearer(_) => f.write_str("Bearer(..)"),
        }
    }
}

#[cfg(test)]
/// Run the flow once, each GET bounded by [`REENTRANCE_REQUEST_TIMEOUT`].
pub(crate) async fn perform_reentrance_logon(
    logon_url: &str,
    creds: Option<Credentials>,
    ctx: &LogonContext,
) -> Result<()> {
    perform_reentrance_logon_within(
        logon_url,
        creds,
        ctx,
        super::reentrance_http::REENTRANCE_REQUEST_TIMEOUT,
    )
    .await
}

/// [`perform_reentrance_logon`] with an explicit bound per GET.
pub(crate) async fn perform_reentrance_logon_within(
    logon_url: &str,
    creds: Option<Credentials>,
    ctx: &LogonContext,
    timeout: Duration,
) -> Result<()> {
    if let Some(creds) = &creds {
        creds.register_secrets();
    }
    let ticket_url = ticket_request_url(logon_url, ctx.sap_client.as_deref())?;
    check_credential_origin(&ticket_url, &ctx.credential_origins)?;
    let client = reentrance_client(ctx, timeout, &ticket_url)?;
    let authorization = creds.as_ref().map(Credentials::authorization);
    let GetOutcome { status, location } = get(
        &client,
        &ticket_url,
        authorization.as_deref(),
        &format!("reentrance: GET {logon_url}"),
        timeout,
    )
    .await?;
    let Some(location) = location else {
        return Err(Error::new(format!(
            "reentrance: no redirect Location (status {status}) from {logon_url}"
        )));
    };
    register_ticket(&location);
    let delivery_url = delivery_url(&ticket_url, &location)?;
    let what = format!(
        "reentrance: ticket delivery to {}",
        without_query(&delivery_url)
    );
    get(&client, &delivery_url, None, &what, timeout).await?;
    Ok(())
}

/// The logonUrl, with `sap-client=<client>` added when a client is known and the URL has
/// none (SAP issues the ticket for that client).
pub fn ticket_request_url(logon_url: &str, sap_client: Option<&str>) -> Result<Url> {
    let mut url = Url::parse(logon_url)
        .map_err(|e| Error::new(format!("reentrance: invalid logonUrl {logon_url}: {e}")))?;
    if let Some(client) = sap_client.filter(|c| !c.is_empty()) {
        if !url.query_pairs().any(|(key, _)| key == "sap-client") {
            url.query_pairs_mut().append_pair("sap-client", client);
        }
    }
    Ok(url)
}

/// Where to deliver the ticket: the `Location` (resolved against the ticket request, in case
/// it is relative) with its first `localhost` replaced by `127.0.0.1`, because adt-ls's
/// listener binds IPv4 loopback only.
pub fn delivery_url(ticket_url: &Url, location: &str) -> Result<Url> {
    let rewritten = location.replacen("localhost", "127.0.0.1", 1);
    ticket_url.join(&rewritten).map_err(|e| {
        Error::new(format!(
            "reentrance: unusable redirect Location from {}: {e}",
            without_query(ticket_url)
        ))
    })
}

/// Register the `reentrance-ticket` query value (raw and decoded) for redaction.
fn register_ticket(location: &str) {
    let query = location.split_once('?').map_or("", |(_, q)| q);
    let query = query.split('#').next().unwrap_or("");
    for pair in query.split('&') {
        if let Some(raw) = pair.strip_prefix("reentrance-ticket=") {
            redact::register(raw);
        }
    }
    if let Ok(url) = Url::parse(location) {
        for (key, value) in url.query_pairs() {
            if key == "reentrance-ticket" {
                redact::register(&value);
            }
        }
    }
}
