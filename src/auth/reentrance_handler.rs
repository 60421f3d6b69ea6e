//! The `requestBrowserBasedLogon` handler of the headless strategies (basic, bearer,
//! clientCert). It resolves the credential (a bearer token provider is called and awaited,
//! bounded by the request timeout), answers `true`, and runs the reentrance GETs in the
//! background: adt-ls's ticket listener answers the delivery only after it has that reply, so
//! awaiting the GETs first would deadlock (docs/wire.md#reentrance-logon). Failures are logged
//! and told to the context's failure listener.

use super::logon_url::extract_logon_url;
use super::reentrance::{perform_reentrance_logon_within, Credentials};
use super::reentrance_http::REENTRANCE_REQUEST_TIMEOUT;
use super::strategy::{LogonContext, TokenSource};
use crate::driver::router::ServerRequestHandler;
use crate::kernel::error::Result;
use crate::kernel::future::BoxFuture;
use crate::kernel::{log, redact};
use serde_json::Value;
use std::time::Duration;

/// Which credential the handler sends.
#[derive(Clone)]
enum Auth {
    /// Client certificate: the TLS proxy authenticates, no header.
    None,
    Basic {
        user: String,
        password: String,
    },
    /// Resolved at every logon.
    Bearer(TokenSource),
}

#[derive(Clone)]
pub(crate) struct ReentranceHandler {
    auth: Auth,
    ctx: LogonContext,
    timeout: Duration,
}

impl ReentranceHandler {
    /// Basic credentials (the password is registered for redaction).
    pub(crate) fn basic(
        user: impl Into<String>,
        password: impl Into<String>,
        ctx: LogonContext,
    ) -> Self {
        let password = password.into();
        redact::register(&password);
        Self::with_auth(
            Auth::Basic {
                user: user.into(),
                password,
            },
            ctx,
        )
    }

    /// A bearer token or a provider asked at every logon.
    pub(crate) fn bearer(token: TokenSource, ctx: LogonContext) -> Self {
        if let TokenSource::Value(value) = &token {
            redact::register(value);
        }
        Self::with_auth(Auth::Bearer(token), ctx)
    }

    /// No credentials (client certificate via the TLS proxy).
    pub(crate) fn without_credentials(ctx: LogonContext) -> Self {
        Self::with_auth(Auth::None, ctx)
    }

    fn with_auth(auth: Auth, ctx: LogonContext) -> Self {
        ReentranceHandler {
            auth,
            ctx,
            timeout: REENTRANCE_REQUEST_TIMEOUT,
        }
    }

    #[cfg(test)]
    /// Bound each GET of the background flow by `timeout` instead of the default 30 s.
    pub(crate) fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn is_bearer(&self) -> bool {
        matches!(self.auth, Auth::Bearer(_))
    }

    /// The credential to send now: a bearer provider is called (and its promise awaited) here,
    /// bounded by the request timeout.
    async fn credentials(&self) -> Result<Option<Credentials>> {
        Ok(match &self.auth {
            Auth::None => None,
            Auth::Basic { user, password } => Some(Credentials::Basic {
                user: user.clone(),
                password: password.clone(),
            }),
            Auth::Bearer(source) => {
                let token = tokio::time::timeout(self.timeout, resolve_token(source))
                    .await
                    .map_err(|_| {
                        crate::kernel::error::Error::coded(
                            crate::kernel::error::codes::TIMEOUT,
                            format!(
                                "the bearer token provider did not answer within {}ms",
                                self.timeout.as_millis()
                            ),
                        )
                    })??;
                Some(Credentials::Bearer(token))
            }
        })
    }

    /// Log a failure of the flow and tell the failure listener.
    fn report(&self, e: crate::kernel::error::Error) {
        let prefix = if self.is_bearer() {
            "bearer reentrance logon failed"
        } else {
            "reentrance logon failed"
        };
        let e = super::logon_error::classify(e.prefixed(&format!("{prefix}: ")));
        log::warn(&e.message);
        if let Some(listener) = &self.ctx.on_failure {
            listener(e);
        }
    }
}

/// The token to send now (a provider is called every time).
async fn resolve_token(source: &TokenSource) -> Result<String> {
    let token = match source {
        TokenSource::Value(value) => value.clone(),
        TokenSource::Provider(provider) => provider.token().await?,
    };
    redact::register(&token);
    Ok(token)
}

impl ServerRequestHandler for ReentranceHandler {
    fn handle(&self, params: Option<Value>) -> BoxFuture<std::result::Result<Value, String>> {
        let params = params.unwrap_or(Value::Null);
        let Some(logon_url) = extract_logon_url(&params) else {
            log::warn(if self.is_bearer() {
                "requestBrowserBasedLogon: no logonUrl in params"
            } else {
                "requestBrowserBasedLogon: could not find logonUrl in params"
            });
            return Box::pin(async { Ok(Value::Bool(false)) });
        };
        let job = self.clone();
        Box::pin(async move {
            // The credential first (a bearer provider runs before adt-ls hears `true`, as the
            // reference calls it), then the reply; the GETs must not hold the reply up.
            let creds = match job.credentials().await {
                Ok(creds) => creds,
                Err(e) => {
                    job.report(e);
                    return Ok(Value::Bool(true));
                }
            };
            tokio::spawn(async move {
                let flow =
                    perform_reentrance_logon_within(&logon_url, creds, &job.ctx, job.timeout);
                if let Err(e) = flow.await {
                    job.report(e);
                }
            });
            Ok(Value::Bool(true))
        })
    }
}
