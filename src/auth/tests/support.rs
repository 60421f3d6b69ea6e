//! Test fixtures for the logon engine: a recording `LspRequester`, a log capture, small
//! HTTP(S) servers (the SAP reentrance endpoint and adt-ls's ticket listener) that record
//! what they receive, and fakes of the user's interactive callbacks and token providers.

use crate::auth::strategy::{InteractiveUi, PromptField, TokenProvider};
use crate::kernel::error::{Error, Result};
use crate::kernel::future::BoxFuture;
use crate::kernel::test_task::{accept_loop, serve_http1, AbortOnDrop};
use crate::lsp::LspRequester;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{HeaderMap, Request, Response, StatusCode};
use serde_json::Value;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

/// Upper bound for every wait in these tests.
pub(super) const WAIT: Duration = Duration::from_secs(10);

/// Poll `check` until it holds or [`WAIT`] runs out.
pub(super) async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !check() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// ---------------------------------------------------------------- LSP requester

/// Records every request; answers with `answer(method, params)`, or never when it is `None`.
pub(super) struct RecordingRequester {
    pub sent: Mutex<Vec<(String, Option<Value>)>>,
    answer: Option<Value>,
}

impl RecordingRequester {
    pub(super) fn answering(answer: Value) -> Self {
        RecordingRequester {
            sent: Mutex::new(Vec::new()),
            answer: Some(answer),
        }
    }

    pub(super) fn silent() -> Self {
        RecordingRequester {
            sent: Mutex::new(Vec::new()),
            answer: None,
        }
    }

    pub(super) fn last(&self) -> (String, Option<Value>) {
        self.sent
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("a request")
    }
}

impl LspRequester for RecordingRequester {
    fn send_request(&self, method: &str, params: Option<Value>) -> BoxFuture<Result<Value>> {
        self.sent.lock().unwrap().push((method.to_string(), params));
        match self.answer.clone() {
            Some(v) => Box::pin(async move { Ok(v) }),
            None => Box::pin(std::future::pending()),
        }
    }
}

// ---------------------------------------------------------------- log capture

pub(super) use crate::kernel::log::testing::{all_logged, capture_logs, logged};

// ---------------------------------------------------------------- HTTP servers

/// One request a test server received.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    /// Path and query.
    pub target: String,
    pub headers: HeaderMap,
}

impl Seen {
    pub(super) fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
}

pub(super) type Reply = Arc<dyn Fn(Seen) -> BoxFuture<Response<Full<Bytes>>> + Send + Sync>;

/// A tiny HTTP/1.1 server on 127.0.0.1 (HTTPS when given a certificate).
pub(super) struct TestServer {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    _task: AbortOnDrop,
}

impl TestServer {
    pub(super) async fn start(
        tls: Option<&crate::tls::cert::LocalhostCert>,
        reply: Reply,
    ) -> TestServer {
        let acceptor = tls.map(tls_acceptor);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let loop_seen = seen.clone();
        let task = accept_loop(listener, move |tcp| {
            let (reply, seen, acceptor) = (reply.clone(), loop_seen.clone(), acceptor.clone());
            async move {
                let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                    let (reply, seen) = (reply.clone(), seen.clone());
                    async move {
                        let request = Seen {
                            target: req
                                .uri()
                                .path_and_query()
                                .map_or("/".to_string(), |p| p.to_string()),
                            headers: req.headers().clone(),
                        };
                        seen.lock().unwrap().push(request.clone());
                        Ok::<_, Infallible>(reply(request).await)
                    }
                });
                match acceptor {
                    Some(acceptor) => {
                        if let Ok(tls) = acceptor.accept(tcp).await {
                            serve_http1(tls, service).await;
                        }
                    }
                    None => serve_http1(tcp, service).await,
                }
            }
        });
        TestServer {
            port,
            seen,
            _task: task,
        }
    }

    pub(super) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Wait until at least `n` requests arrived; returns them.
    pub(super) async fn wait_for(&self, n: usize) -> Vec<Seen> {
        eventually(&format!("{n} request(s) on port {}", self.port), || {
            self.seen.lock().unwrap().len() >= n
        })
        .await;
        self.seen()
    }
}

fn tls_acceptor(cert: &crate::tls::cert::LocalhostCert) -> tokio_rustls::TlsAcceptor {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let certs = crate::tls::pem::parse_certificates(cert.cert_pem.as_bytes(), "cert").unwrap();
    let key = crate::tls::pem::parse_private_key(cert.key_pem.as_bytes(), "key").unwrap();
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

pub(super) fn response(status: u16, location: Option<&str>, body: &str) -> Response<Full<Bytes>> {
    let mut builder = Response::builder().status(StatusCode::from_u16(status).unwrap());
    if let Some(location) = location {
        builder = builder.header("location", location);
    }
    builder
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

/// A fixed reply.
pub(super) fn fixed(status: u16, location: Option<String>) -> Reply {
    Arc::new(move |_| {
        let r = response(status, location.as_deref(), "body to drain");
        Box::pin(async move { r })
    })
}

/// adt-ls's ticket listener: 302 for `/adt/redirect`; the answer is withheld until `gate`
/// opens (as adt-ls withholds it until the browser-logon reply was sent).
pub(super) fn ticket_listener(gate: Option<tokio::sync::watch::Receiver<bool>>) -> Reply {
    Arc::new(move |_| {
        let gate = gate.clone();
        Box::pin(async move {
            if let Some(mut gate) = gate {
                let _ = tokio::time::timeout(WAIT, gate.wait_for(|open| *open)).await;
            }
            response(302, Some("http://localhost/adt/success"), "")
        })
    })
}

/// A reply that never comes (for "the handler does not wait" tests).
pub(super) fn never() -> Reply {
    Arc::new(|_| Box::pin(std::future::pending()))
}

/// The SAP reentrance endpoint: with any credential accepted by `accept`, 307 to the
/// listener at `listener_port` carrying `ticket`; otherwise 401 without Location.
pub(super) fn sap_endpoint(
    listener_port: u16,
    ticket: &str,
    accept: impl Fn(Option<&str>) -> bool + Send + Sync + 'static,
) -> Reply {
    let location =
        format!("http://localhost:{listener_port}/adt/redirect?state=1&reentrance-ticket={ticket}");
    Arc::new(move |seen: Seen| {
        let r = if accept(seen.header("authorization").as_deref()) {
            response(307, Some(&location), "redirecting")
        } else {
            response(401, None, "unauthorized")
        };
        Box::pin(async move { r })
    })
}

/// A logon URL shaped like adt-ls's, on `port`.
pub(super) fn logon_url(scheme: &str, port: u16) -> String {
    format!(
        "{scheme}://127.0.0.1:{port}/sap/bc/adt/core/http/reentranceticket?redirect-url=http%3A%2F%2Flocalhost%3A1%2Fadt%2Fredirect&_=1"
    )
}

/// `requestBrowserBasedLogon` params carrying `url`.
pub(super) fn browser_logon_params(url: &str) -> Value {
    serde_json::json!({"id": "A4H", "title": "Logon to A4H", "params": [{"field": {"key": "logonUrl", "value": url}}]})
}

// ---------------------------------------------------------------- user callbacks

/// The user's interactive callbacks: `open_url` records and then never resolves (or
/// fails); `prompt_field` answers from a map (a missing key answers `None`).
pub(super) struct FakeUi {
    pub opened: Mutex<Vec<String>>,
    pub asked: Mutex<Vec<PromptField>>,
    pub answers: Option<HashMap<String, String>>,
    pub open_fails: bool,
}

impl FakeUi {
    pub(super) fn new(answers: Option<&[(&str, &str)]>) -> FakeUi {
        FakeUi {
            opened: Mutex::new(Vec::new()),
            asked: Mutex::new(Vec::new()),
            answers: answers.map(|a| {
                a.iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            }),
            open_fails: false,
        }
    }
}

impl InteractiveUi for FakeUi {
    fn open_url(&self, url: String) -> BoxFuture<Result<()>> {
        self.opened.lock().unwrap().push(url);
        if self.open_fails {
            Box::pin(async { Err(Error::new("no browser available")) })
        } else {
            Box::pin(std::future::pending())
        }
    }

    fn prompt_field(&self, field: PromptField) -> Option<BoxFuture<Result<Option<String>>>> {
        let answers = self.answers.as_ref()?;
        let answer = answers.get(&field.key).cloned();
        self.asked.lock().unwrap().push(field);
        Some(Box::pin(async move { Ok(answer) }))
    }

    fn has_prompt(&self) -> bool {
        self.answers.is_some()
    }
}

/// A token provider that counts its calls and answers `tok-<n>` (or fails).
pub(super) struct CountingTokens {
    pub calls: AtomicUsize,
    pub fail: bool,
}

impl TokenProvider for CountingTokens {
    fn token(&self) -> BoxFuture<Result<String>> {
        let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        let fail = self.fail;
        Box::pin(async move {
            if fail {
                Err(Error::new("token endpoint unreachable"))
            } else {
                Ok(format!("bearer-token-{n}"))
            }
        })
    }
}

/// A handler that answers `null`.
pub(super) struct NullHandler;

impl crate::driver::router::ServerRequestHandler for NullHandler {
    fn handle(&self, _params: Option<Value>) -> BoxFuture<std::result::Result<Value, String>> {
        Box::pin(async { Ok(Value::Null) })
    }
}
