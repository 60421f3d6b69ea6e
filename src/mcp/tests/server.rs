//! A scriptable MCP-over-HTTP test server (a real hyper HTTP/1.1 server on loopback). Each
//! test gives it a handler that maps a recorded request to a [`Reply`]; the server records
//! every request and a few events (e.g. the client dropping a kept-open SSE stream). All
//! waits are bounded and everything stops when the server is dropped.

use crate::kernel::test_task::{accept_loop, serve_http1, AbortOnDrop};
use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::header::HeaderMap;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// Upper bound for anything the server keeps waiting on (hung replies, open streams).
const MAX_HOLD: Duration = Duration::from_secs(30);

type Body = UnsyncBoxBody<Bytes, Infallible>;

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub(super) struct Recorded {
    pub http_method: String,
    pub path: String,
    pub headers: HeaderMap,
    /// The body parsed as JSON (`Null` when empty or not JSON).
    pub body: Value,
}

impl Recorded {
    pub(super) fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    }
    /// The JSON-RPC method, or `DELETE`/`GET` for bodiless requests.
    pub(super) fn rpc_method(&self) -> String {
        match self.body.get("method").and_then(Value::as_str) {
            Some(m) => m.to_string(),
            None if self.http_method != "POST" => self.http_method.clone(),
            None => "<reply>".to_string(),
        }
    }
    pub(super) fn rpc_id(&self) -> Option<u64> {
        self.body.get("id").and_then(Value::as_u64)
    }
}

/// One piece of an SSE (or any streamed) body, sent after `delay`.
#[derive(Debug, Clone)]
pub(super) struct Chunk {
    pub delay: Duration,
    pub bytes: Vec<u8>,
}

pub(super) fn chunk(text: &str) -> Chunk {
    Chunk {
        delay: Duration::from_millis(15),
        bytes: text.as_bytes().to_vec(),
    }
}

pub(super) fn chunk_bytes(bytes: &[u8]) -> Chunk {
    Chunk {
        delay: Duration::from_millis(15),
        bytes: bytes.to_vec(),
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub(super) enum Reply {
    /// A complete body with a status and headers.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// A streamed 200 body; `keep_open` holds the stream open after the last chunk.
    Stream {
        headers: Vec<(String, String)>,
        chunks: Vec<Chunk>,
        keep_open: bool,
    },
    /// Never answer (until the server is dropped or `MAX_HOLD` passes).
    Hang,
    /// Answer with the inner reply after a delay.
    Delayed(Duration, Box<Reply>),
}

impl Reply {
    pub(super) fn status(status: u16) -> Reply {
        Reply::Full {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }
    pub(super) fn json(value: Value) -> Reply {
        Reply::json_with(200, value, &[])
    }
    pub(super) fn json_with(status: u16, value: Value, headers: &[(&str, &str)]) -> Reply {
        let mut all = vec![("content-type".to_string(), "application/json".to_string())];
        all.extend(headers.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Reply::Full {
            status,
            headers: all,
            body: value.to_string().into_bytes(),
        }
    }
    /// `{"jsonrpc":"2.0","id":<id>,"result":<result>}` as JSON.
    pub(super) fn result(id: Option<u64>, result: Value) -> Reply {
        Reply::json(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }
    pub(super) fn raw(content_type: Option<&str>, body: &str) -> Reply {
        Reply::Full {
            status: 200,
            headers: content_type
                .map(|t| vec![("content-type".to_string(), t.to_string())])
                .unwrap_or_default(),
            body: body.as_bytes().to_vec(),
        }
    }
    pub(super) fn sse(chunks: Vec<Chunk>, keep_open: bool) -> Reply {
        Reply::Stream {
            headers: vec![("content-type".to_string(), "text/event-stream".to_string())],
            chunks,
            keep_open,
        }
    }
}

/// An SSE event carrying `value` as one `data:` line.
pub(super) fn sse_event(value: &Value) -> String {
    format!("data: {value}\n\n")
}

type Handler = dyn Fn(&Recorded) -> Reply + Send + Sync;

struct Shared {
    requests: Mutex<Vec<Recorded>>,
    events: Mutex<Vec<(String, Instant)>>,
    handler: Box<Handler>,
}

/// The running server; dropping it stops everything.
pub(super) struct TestServer {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    _accept_task: AbortOnDrop,
}

impl TestServer {
    /// Start on 127.0.0.1 with `handler`.
    pub(super) async fn start(
        handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> Self {
        Self::start_on("127.0.0.1:0", handler).await
    }

    /// Start on `bind` (e.g. `[::1]:0`); `None` when that address cannot be bound.
    pub(super) async fn try_start_on(
        bind: &str,
        handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> Option<Self> {
        let listener = TcpListener::bind(bind).await.ok()?;
        Some(Self::serve(listener, handler))
    }

    pub(super) async fn start_on(
        bind: &str,
        handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> Self {
        match Self::try_start_on(bind, handler).await {
            Some(server) => server,
            None => panic!("cannot bind the test server on {bind}"),
        }
    }

    fn serve(
        listener: TcpListener,
        handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let addr = match listener.local_addr() {
            Ok(addr) => addr,
            Err(e) => panic!("test server has no address: {e}"),
        };
        let shared = Arc::new(Shared {
            requests: Mutex::new(Vec::new()),
            events: Mutex::new(Vec::new()),
            handler: Box::new(handler),
        });
        let for_loop = Arc::clone(&shared);
        let accept_task = accept_loop(listener, move |stream| {
            let shared = Arc::clone(&for_loop);
            async move {
                let service = service_fn(move |req| handle(Arc::clone(&shared), req));
                serve_http1(stream, service).await;
            }
        });
        TestServer {
            addr,
            shared,
            _accept_task: accept_task,
        }
    }

    /// `http://127.0.0.1:<port>/mcp` (or the bound address).
    pub(super) fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    pub(super) fn port(&self) -> u16 {
        self.addr.port()
    }

    pub(super) fn requests(&self) -> Vec<Recorded> {
        lock(&self.shared.requests).clone()
    }

    /// Requests whose JSON-RPC method (or HTTP method for bodiless ones) is `method`.
    pub(super) fn requests_for(&self, method: &str) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.rpc_method() == method)
            .collect()
    }

    pub(super) fn events(&self) -> Vec<(String, Instant)> {
        lock(&self.shared.events).clone()
    }

    /// Wait (bounded) until `done(requests)` holds; returns whether it did.
    pub(super) async fn wait_until(
        &self,
        within: Duration,
        done: impl Fn(&[Recorded]) -> bool,
    ) -> bool {
        let deadline = Instant::now() + within;
        loop {
            if done(&self.requests()) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The requests for `method` as soon as there is one, polled for up to two seconds
    /// (empty when none came).
    pub(super) async fn wait_requests_for(&self, method: &str) -> Vec<Recorded> {
        for _ in 0..200 {
            let seen = self.requests_for(method);
            if !seen.is_empty() {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Vec::new()
    }

    /// Wait (bounded) for an event named `name`.
    pub(super) async fn wait_event(&self, name: &str, within: Duration) -> Option<Instant> {
        let deadline = Instant::now() + within;
        loop {
            if let Some((_, at)) = self.events().into_iter().find(|(n, _)| n == name) {
                return Some(at);
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

async fn handle(shared: Arc<Shared>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let (parts, body) = req.into_parts();
    let bytes = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let recorded = Recorded {
        http_method: parts.method.to_string(),
        path: parts.uri.path().to_string(),
        headers: parts.headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    };
    lock(&shared.requests).push(recorded.clone());
    let reply = (shared.handler)(&recorded);
    Ok(respond(shared, reply, recorded).await)
}

async fn respond(shared: Arc<Shared>, mut reply: Reply, recorded: Recorded) -> Response<Body> {
    while let Reply::Delayed(delay, inner) = reply {
        tokio::time::sleep(delay).await;
        reply = *inner;
    }
    match reply {
        Reply::Delayed(..) => build(500, &[], Full::new(Bytes::new()).boxed_unsync()),
        Reply::Hang => {
            tokio::time::sleep(MAX_HOLD).await;
            build(500, &[], Full::new(Bytes::new()).boxed_unsync())
        }
        Reply::Full {
            status,
            headers,
            body,
        } => build(
            status,
            &headers,
            Full::new(Bytes::from(body)).boxed_unsync(),
        ),
        Reply::Stream {
            headers,
            chunks,
            keep_open,
        } => {
            let (tx, rx) = mpsc::channel::<Bytes>(16);
            let label = format!("sse-closed:{}", recorded.rpc_method());
            tokio::spawn(async move {
                for piece in chunks {
                    tokio::time::sleep(piece.delay).await;
                    if tx.send(Bytes::from(piece.bytes)).await.is_err() {
                        lock(&shared.events).push((label, Instant::now()));
                        return;
                    }
                }
                if keep_open {
                    lock(&shared.events).push(("sse-all-sent".to_string(), Instant::now()));
                    if tokio::time::timeout(MAX_HOLD, tx.closed()).await.is_ok() {
                        lock(&shared.events).push((label, Instant::now()));
                    }
                }
            });
            let stream = futures_util::stream::unfold(rx, |mut rx| async move {
                rx.recv()
                    .await
                    .map(|bytes| (Ok::<_, Infallible>(Frame::data(bytes)), rx))
            });
            build(200, &headers, StreamBody::new(stream).boxed_unsync())
        }
    }
}

fn build(status: u16, headers: &[(String, String)], body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    for (name, value) in headers {
        if let (Ok(name), Ok(value)) = (
            hyper::header::HeaderName::from_bytes(name.as_bytes()),
            hyper::header::HeaderValue::from_str(value),
        ) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

// ---- a scripted adt-ls-like MCP endpoint -------------------------------------------------

/// The usual `initialize` answer (with `version` and an optional session header).
pub(super) fn initialize_reply(req: &Recorded, version: &str, session: Option<&str>) -> Reply {
    let body = json!({
        "jsonrpc": "2.0",
        "id": req.rpc_id(),
        "result": {
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {"name": "ADT MCP Server", "version": "1.0.0"}
        }
    });
    match session {
        Some(id) => Reply::json_with(200, body, &[("mcp-session-id", id)]),
        None => Reply::json(body),
    }
}

/// A handler answering `initialize` with `version`/`session`, the initialized notification
/// with the status `initialized`, and passing everything else (DELETE too) to `rest`.
pub(super) fn handshake(
    version: &'static str,
    session: Option<&'static str>,
    initialized: u16,
    rest: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
) -> impl Fn(&Recorded) -> Reply + Send + Sync + 'static {
    move |req: &Recorded| match req.rpc_method().as_str() {
        "initialize" => initialize_reply(req, version, session),
        "notifications/initialized" => Reply::status(initialized),
        _ => rest(req),
    }
}

/// A handler whose first `initialize` is answered by `first` and every later one by `later`,
/// the initialized notification with 202 and everything else with the status `other`; and
/// the count of `initialize` requests seen.
pub(super) fn first_initialize_apart(
    first: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    later: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    other: u16,
) -> (
    Arc<AtomicUsize>,
    impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
) {
    let inits = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&inits);
    let handler = move |req: &Recorded| match req.rpc_method().as_str() {
        "initialize" if seen.fetch_add(1, Ordering::SeqCst) == 0 => first(req),
        "initialize" => later(req),
        "notifications/initialized" => Reply::status(202),
        _ => Reply::status(other),
    };
    (inits, handler)
}

/// A handler answering the lifecycle (initialize with `version`/`session`, initialized 202,
/// DELETE 200) and passing everything else to `rest`.
pub(super) fn mcp(
    version: &'static str,
    session: Option<&'static str>,
    rest: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
) -> impl Fn(&Recorded) -> Reply + Send + Sync + 'static {
    handshake(version, session, 202, move |req| {
        match req.rpc_method().as_str() {
            "DELETE" => Reply::status(200),
            _ => rest(req),
        }
    })
}

/// A server running the lifecycle (`2025-06-18`, session `sid`) that passes every other
/// request to `reply`.
pub(super) async fn serve(
    reply: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
) -> TestServer {
    TestServer::start(mcp("2025-06-18", Some("sid"), reply)).await
}
