//! The HTTP side of the MCP Streamable HTTP transport (docs/wire.md#mcp-streamable-http): one POST per message
//! with the required headers, status handling, and reading the answer from an
//! `application/json` body or an incrementally parsed `text/event-stream`. Server->client
//! requests seen in a stream are answered by a separate POST on the pooled client, at most
//! [`McpLimits::max_concurrent_replies`] at a time (extra ones are dropped and logged);
//! `notifications/progress` with the current call's token goes to its progress sink. Bodies
//! and events are read within [`McpLimits`], and never parsed when nested too deeply
//! (`depth.rs`). What a stream's messages leave waiting on the JS thread (progress reports)
//! is charged to a backlog of the stream, and the next chunk is read only while it has room
//! ([`crate::bounds::backlog`]). Timeouts, cancellation and session policy live in `client.rs`; this
//! module only moves one exchange.

use super::depth::{self, Deep};
use super::errors;
use super::jsonrpc::{self, Incoming};
use super::limits::McpLimits;
use super::sse::SseParser;
use crate::bounds::backlog::{self, Backlog};
use crate::bounds::json_depth::{self, MAX_DEPTH};
use crate::kernel::error::{Error, Result};
use crate::kernel::log;
use crate::trace::{Direction, HttpMeta, Tracer};
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Method, RequestBuilder, Response, StatusCode, Url};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

const SESSION_HEADER: &str = "mcp-session-id";
const PROTOCOL_HEADER: &str = "mcp-protocol-version";
const ACCEPT_BOTH: &str = "application/json, text/event-stream";
const JSON_TYPE: &str = "application/json";
const SSE_TYPE: &str = "text/event-stream";

/// The session headers sent with a request (a snapshot of the client's state).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct SessionHeaders {
    pub session_id: Option<String>,
    pub protocol_version: Option<String>,
}

/// Why an exchange failed: a non-2xx status (kept apart because 404 drives the session
/// policy) or any other error.
#[derive(Debug)]
pub(super) enum Failure {
    Status(u16),
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Error(e)
    }
}

/// A validated JSON-RPC response plus, for `initialize`, the session id the HTTP response
/// carried, if any.
#[derive(Debug)]
pub(super) struct Answer {
    pub response: Value,
    pub session_id: Option<String>,
}

/// Host-name overrides for the HTTP client (tests simulate `localhost` resolving to ::1 and
/// 127.0.0.1 with it).
pub(super) type ResolveOverrides = Vec<(String, Vec<SocketAddr>)>;

/// The endpoint, the bearer token and the HTTP client; cheap to clone.
#[derive(Clone)]
pub(super) struct Transport {
    http: reqwest::Client,
    url: Url,
    auth: HeaderValue,
    /// Bound on the POST that answers a server->client request.
    reply_timeout: Duration,
    limits: McpLimits,
    /// Permits for answers to server->client requests in flight.
    replies: Arc<Semaphore>,
    /// The wire trace, when one is on (docs/tracing.md).
    trace: Option<Arc<Tracer>>,
}

impl Transport {
    pub(super) fn new(
        base_url: &str,
        token: &str,
        reply_timeout: Duration,
        limits: McpLimits,
        resolve: ResolveOverrides,
    ) -> Result<Self> {
        let url = Url::parse(base_url)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .ok_or_else(|| {
                Error::coded(
                    crate::kernel::error::codes::INVALID_ARG,
                    format!("Invalid adt-ls MCP endpoint URL: {base_url}"),
                )
            })?;
        let mut auth = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
            Error::coded(
                crate::kernel::error::codes::INVALID_ARG,
                "Invalid adt-ls MCP token: not a valid HTTP header value",
            )
        })?;
        auth.set_sensitive(true);
        Ok(Transport {
            http: build_http_client(resolve)?,
            url,
            auth,
            reply_timeout,
            limits,
            replies: Arc::new(Semaphore::new(limits.max_concurrent_replies)),
            trace: None,
        })
    }

    /// This transport recording every message to `trace`.
    pub(super) fn traced(mut self, trace: Option<Arc<Tracer>>) -> Self {
        self.trace = trace;
        self
    }

    fn trace_out(&self, body: &Value, headers: &SessionHeaders) {
        if let Some(trace) = &self.trace {
            let http = HttpMeta {
                session_id: headers.session_id.clone(),
                ..HttpMeta::default()
            };
            trace.mcp(Direction::Out, body, Some(http));
        }
    }

    fn trace_in(&self, msg: &Value, status: u16, session_id: Option<&str>) {
        if let Some(trace) = &self.trace {
            let http = HttpMeta {
                status: Some(status),
                session_id: session_id.map(str::to_string),
                ..HttpMeta::default()
            };
            trace.mcp(Direction::In, msg, Some(http));
        }
    }

    fn trace_status(&self, method: &'static str, status: u16, headers: &SessionHeaders) {
        if let Some(trace) = &self.trace {
            let http = HttpMeta {
                method: Some(method),
                status: Some(status),
                session_id: headers.session_id.clone(),
            };
            trace.mcp_http(Direction::In, http);
        }
    }

    fn post(&self, headers: &SessionHeaders, body: &Value) -> RequestBuilder {
        self.with_headers(self.http.post(self.url.clone()), headers)
            .header(CONTENT_TYPE, JSON_TYPE)
            .body(body.to_string())
    }

    /// Trace `body` going out and POST it; a failure to send is reported for `method`.
    async fn send_post(
        &self,
        method: &str,
        body: &Value,
        headers: &SessionHeaders,
    ) -> Result<Response> {
        self.trace_out(body, headers);
        self.post(headers, body)
            .send()
            .await
            .map_err(|e| errors::send_failed(method, &e))
    }

    fn with_headers(&self, builder: RequestBuilder, headers: &SessionHeaders) -> RequestBuilder {
        let mut map = HeaderMap::new();
        map.insert(AUTHORIZATION, self.auth.clone());
        map.insert(ACCEPT, HeaderValue::from_static(ACCEPT_BOTH));
        for (name, value) in [
            (SESSION_HEADER, &headers.session_id),
            (PROTOCOL_HEADER, &headers.protocol_version),
        ] {
            // Values came from a server header that was visible ASCII, or from our constants.
            if let Some(value) = value.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
                map.insert(name, value);
            }
        }
        builder.headers(map)
    }

    /// POST a request and wait for the response with id `id`; see the module documentation.
    pub(super) async fn request(
        &self,
        method: &str,
        id: u64,
        body: &Value,
        headers: &SessionHeaders,
    ) -> std::result::Result<Answer, Failure> {
        let response = self.send_post(method, body, headers).await?;
        let status = response.status();
        if !status.is_success() {
            self.trace_status("POST", status.as_u16(), headers);
            return Err(Failure::Status(status.as_u16()));
        }
        // Only initialize allocates a session; later responses' headers are not consulted.
        let session_id = if method == "initialize" {
            session_id_of(&response, method)?
        } else {
            None
        };
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let media_type = content_type
            .as_deref()
            .map(|t| t.split(';').next().unwrap_or_default().trim());
        let seen = (
            status.as_u16(),
            session_id.as_deref().or(headers.session_id.as_deref()),
        );
        let response = match media_type {
            Some(JSON_TYPE) => {
                let msg = read_json(response, method, id, self.limits.max_body_bytes).await?;
                self.trace_in(&msg, seen.0, seen.1);
                msg
            }
            Some(SSE_TYPE) => self.read_sse(response, method, id, headers, seen).await?,
            _ => return Err(errors::unsupported_content_type(content_type.as_deref()).into()),
        };
        Ok(Answer {
            response,
            session_id,
        })
    }

    /// POST a notification; it must be accepted with HTTP 202.
    pub(super) async fn notify(
        &self,
        method: &str,
        headers: &SessionHeaders,
    ) -> std::result::Result<(), Failure> {
        self.notify_body(method, &jsonrpc::notification_body(method), headers)
            .await
    }

    /// POST the notification `body` (named `method` in errors); HTTP 202 expected.
    pub(super) async fn notify_body(
        &self,
        method: &str,
        body: &Value,
        headers: &SessionHeaders,
    ) -> std::result::Result<(), Failure> {
        let response = self.send_post(method, body, headers).await?;
        let status = response.status();
        self.trace_status("POST", status.as_u16(), headers);
        if !status.is_success() {
            return Err(Failure::Status(status.as_u16()));
        }
        if status != StatusCode::ACCEPTED {
            return Err(errors::not_accepted(method, status.as_u16()).into());
        }
        Ok(())
    }

    /// DELETE the session; 2xx, 404 and 405 are fine.
    pub(super) async fn delete(&self, headers: &SessionHeaders) -> Result<()> {
        let response = self
            .with_headers(self.http.request(Method::DELETE, self.url.clone()), headers)
            .send()
            .await
            .map_err(|e| errors::close_failed(&e))?;
        let status = response.status();
        self.trace_status("DELETE", status.as_u16(), headers);
        if status.is_success() || status.as_u16() == 404 || status.as_u16() == 405 {
            Ok(())
        } else {
            Err(errors::close_status(status.as_u16()))
        }
    }

    /// Read SSE events until the one answering `id`; the stream is dropped at once then.
    async fn read_sse(
        &self,
        response: Response,
        method: &str,
        id: u64,
        headers: &SessionHeaders,
        (status, session_id): (u16, Option<&str>),
    ) -> Result<Value> {
        let mut body = response.bytes_stream();
        let mut parser = SseParser::with_limit(self.limits.max_event_bytes);
        let backlog = Backlog::new(backlog::DEFAULT_LIMITS);
        loop {
            backlog.room().await;
            let Some(chunk) = body.next().await else {
                break;
            };
            let chunk = chunk.map_err(|e| errors::send_failed(method, &e))?;
            let events = parser
                .try_feed(&chunk)
                .map_err(|e| errors::event_too_large(method, e.limit))?;
            for data in events {
                if json_depth::exceeds(data.as_bytes(), MAX_DEPTH) {
                    match depth::deep_event(data.as_bytes(), method, id) {
                        Deep::Fail(e) => return Err(e),
                        Deep::Refuse(reply) => self.reply_in_background(reply, headers),
                        Deep::Skip => {}
                    }
                    continue;
                }
                let payload: Value =
                    serde_json::from_str(&data).map_err(|_| errors::sse_not_json(method, &data))?;
                let charge = backlog.charge(data.len());
                let routed: Result<Option<Value>> = backlog::dispatching(charge, || {
                    for msg in jsonrpc::messages_of(payload) {
                        self.trace_in(&msg, status, session_id);
                        if let Some(answer) = self.route(msg, method, id, headers)? {
                            return Ok(Some(answer));
                        }
                    }
                    Ok(None)
                });
                if let Some(answer) = routed? {
                    return Ok(answer);
                }
            }
        }
        Err(errors::stream_ended())
    }

    /// Handle one message from a stream: our answer is returned, anything else is handled
    /// (server requests answered) or skipped.
    fn route(
        &self,
        msg: Value,
        method: &str,
        id: u64,
        headers: &SessionHeaders,
    ) -> Result<Option<Value>> {
        match jsonrpc::classify(&msg, id) {
            Incoming::Ours if jsonrpc::is_valid_response(&msg, id) => Ok(Some(msg)),
            Incoming::Ours => Err(errors::mismatched_response()),
            Incoming::ServerRequest { method: asked } => {
                log::debug(format!(
                    "adt-ls MCP {method}: answering server request {asked}"
                ));
                self.answer_server_request(&msg, headers);
                Ok(None)
            }
            Incoming::Notification {
                method: "notifications/progress",
            } if progress_for_us(&msg) => Ok(None),
            Incoming::Notification { method: note } => {
                log::debug(format!("adt-ls MCP {method}: skipped notification {note}"));
                Ok(None)
            }
            Incoming::Other => {
                log::debug(format!(
                    "adt-ls MCP {method}: skipped a message that is not our response"
                ));
                Ok(None)
            }
        }
    }

    /// Answer a server->client request with a separate POST, in the background (bounded).
    fn answer_server_request(&self, request: &Value, headers: &SessionHeaders) {
        self.reply_in_background(jsonrpc::reply_to_server_request(request), headers);
    }

    /// POST `reply` to a server->client request in the background (bounded).
    fn reply_in_background(&self, reply: Value, headers: &SessionHeaders) {
        let Ok(permit) = self.replies.clone().try_acquire_owned() else {
            log::debug(format!(
                "adt-ls MCP: {} answers to server requests in flight; this one is dropped",
                self.limits.max_concurrent_replies
            ));
            return;
        };
        self.trace_out(&reply, headers);
        let transport = self.clone();
        let headers = headers.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let sent = transport.post(&headers, &reply).send();
            match tokio::time::timeout(transport.reply_timeout, sent).await {
                Ok(Ok(r)) if r.status().is_success() => {}
                Ok(Ok(r)) => log::debug(format!(
                    "adt-ls MCP reply to a server request: HTTP {}",
                    r.status().as_u16()
                )),
                Ok(Err(e)) => {
                    log::debug(format!("adt-ls MCP reply to a server request failed: {e}"))
                }
                Err(_) => log::debug("adt-ls MCP reply to a server request timed out"),
            }
        });
    }
}

/// No proxy, no redirects; the ring crypto provider is installed if none is (reqwest would
/// panic without one, even for plain HTTP).
/// Hand a `notifications/progress` to the current call's sink when it issued the token.
fn progress_for_us(msg: &Value) -> bool {
    let Some(sink) = crate::kernel::progress::current() else {
        return false;
    };
    let Some(params) = msg.get("params") else {
        return false;
    };
    let owned = params
        .get("progressToken")
        .and_then(crate::kernel::progress::token_key)
        .is_some_and(|t| sink.owns(&t));
    match crate::kernel::progress::Report::from_mcp(params) {
        Some(report) if owned => {
            sink.report(report);
            true
        }
        _ => false,
    }
}

fn build_http_client(resolve: ResolveOverrides) -> Result<reqwest::Client> {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Losing a race with another installer is fine: a provider is installed either way.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    let mut builder = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none());
    for (host, addrs) in &resolve {
        builder = builder.resolve_to_addrs(host, addrs);
    }
    builder
        .build()
        .map_err(|e| Error::new(format!("adt-ls MCP: cannot create the HTTP client: {e}")))
}

/// The `Mcp-Session-Id` response header; absent or empty means "no session".
fn session_id_of(response: &Response, method: &str) -> Result<Option<String>> {
    match response.headers().get(SESSION_HEADER) {
        None => Ok(None),
        Some(value) => {
            let text = value
                .to_str()
                .map_err(|_| errors::invalid_session_header(method))?;
            Ok(Some(text.to_string()).filter(|s| !s.is_empty()))
        }
    }
}

/// Read a whole `application/json` body (at most `limit` bytes) and pick our response.
async fn read_json(response: Response, method: &str, id: u64, limit: usize) -> Result<Value> {
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(errors::body_too_large(method, limit));
    }
    let mut bytes = Vec::new();
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| errors::send_failed(method, &e))?;
        if bytes.len() + chunk.len() > limit {
            return Err(errors::body_too_large(method, limit));
        }
        bytes.extend_from_slice(&chunk);
    }
    if json_depth::exceeds(&bytes, MAX_DEPTH) {
        return Err(errors::too_deep(method, "the response body"));
    }
    let payload: Value =
        serde_json::from_slice(&bytes).map_err(|_| errors::body_not_json(method, &bytes))?;
    jsonrpc::response_from_body(payload, id)
}
