//! Test fixtures for the TLS module: a throw-away PKI (rcgen), an HTTPS backend that reports
//! what it saw (Host, headers, SNI, client certificate, streaming progress), a plain-HTTP
//! recorder (forward proxy / http backend), a verifying HTTPS test client, the proxy under
//! test started with a fresh certificate (and a runner for tests against the SAP backend
//! behind it), a log capture, temp dirs that clean up, and tool detection for
//! keytool/java/openssl.

use crate::kernel::test_dir::fresh_temp_dir;
use crate::kernel::test_task::{accept_loop, serve_http1, AbortOnDrop};
use crate::tls::cert::{generate_localhost_cert, LocalhostCert};
use crate::tls::proxy_target::Scheme;
use crate::tls::{start_tls_reverse_proxy, ProxyHandle, ProxyOptions, ProxyTarget};
use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Either, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::{HeaderMap, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use std::convert::Infallible;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, Notify};
use tokio::task::JoinHandle;

/// Every async test runs under this bound.
pub(super) const TEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Run `fut` under [`TEST_TIMEOUT`].
pub(super) async fn bounded<T>(fut: impl Future<Output = T>) -> T {
    match tokio::time::timeout(TEST_TIMEOUT, fut).await {
        Ok(v) => v,
        Err(_) => panic!("test exceeded {TEST_TIMEOUT:?}"),
    }
}

/// Run `fut` under [`TEST_TIMEOUT`] if `tool` runs (`tool probe_arg`); otherwise the test is
/// recorded as skipped and `fut` never runs.
pub(super) async fn bounded_with_tool(tool: &str, probe_arg: &str, fut: impl Future<Output = ()>) {
    if tool_available(tool, probe_arg) {
        bounded(fut).await;
    }
}

// ---------------------------------------------------------------- temp dirs and tools

/// A private temp dir removed on drop.
pub(super) struct TempDir(pub PathBuf);

impl TempDir {
    pub(super) fn new(tag: &str) -> Self {
        TempDir(fresh_temp_dir(&format!("tlsmod-test-{tag}")))
    }

    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// True when `tool <probe_arg>` runs; otherwise records a visible skip for the caller.
pub(super) use crate::kernel::test_skip::tool_available;

/// Run a command to completion; panics with its output on failure.
pub(super) fn run_ok(program: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(program)
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{program} {args:?} failed: {text}");
    text
}

// ---------------------------------------------------------------- log capture

pub(super) use crate::kernel::log::testing::{capture_logs, logged};

// ---------------------------------------------------------------- PKI

/// A test certificate authority.
pub(super) struct TestCa {
    issuer: Issuer<'static, KeyPair>,
    pub cert_pem: String,
}

/// A leaf certificate: PEM cert, PKCS#8 PEM key, DER cert.
pub(super) struct Leaf {
    pub cert_pem: String,
    pub key_pem: String,
    pub der: Vec<u8>,
}

impl TestCa {
    pub(super) fn new(name: &str) -> Self {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = dn(name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let cert = params.self_signed(&key).unwrap();
        TestCa {
            issuer: Issuer::new(params, key),
            cert_pem: cert.pem(),
        }
    }

    /// A leaf for the given SAN names (DNS names or IP addresses).
    pub(super) fn leaf(&self, common_name: &str, names: &[&str]) -> Leaf {
        let key = KeyPair::generate().unwrap();
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).unwrap();
        params.distinguished_name = dn(common_name);
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
            der: cert.der().to_vec(),
        }
    }
}

fn dn(common_name: &str) -> DistinguishedName {
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, common_name);
    name
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn der_certs(pem: &str) -> Vec<CertificateDer<'static>> {
    CertificateDer::pem_slice_iter(pem.as_bytes())
        .map(|c| c.unwrap())
        .collect()
}

// ---------------------------------------------------------------- bodies

/// A body fed chunk by chunk from a channel (for streaming tests).
pub(super) struct ChannelBody(pub mpsc::Receiver<Bytes>);

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b))))
    }
}

pub(super) type TestBody = Either<Full<Bytes>, ChannelBody>;

pub(super) fn full(text: impl Into<Bytes>) -> TestBody {
    Either::Left(Full::new(text.into()))
}

// ---------------------------------------------------------------- HTTPS backend

/// What the backend saw; also the hand-off points of the streaming tests.
#[derive(Default)]
pub(super) struct BackendState {
    pub connections: AtomicUsize,
    pub snis: Mutex<Vec<Option<String>>>,
    /// Notified by the test to let `/stream` send its tail.
    pub release_stream: Notify,
    /// Notified by the backend once `/upload` got its first chunk.
    pub upload_started: Notify,
}

/// The backend server; dropping it stops it.
pub(super) struct Backend {
    pub port: u16,
    pub state: Arc<BackendState>,
    _task: AbortOnDrop,
}

/// [`start_backend`] serving a `sap.backend.test` certificate issued by `ca`.
pub(super) async fn start_sap_backend(ca: &TestCa, client_ca: Option<&TestCa>) -> Backend {
    start_backend(
        &ca.leaf("sap.backend.test", &["sap.backend.test"]),
        client_ca,
    )
    .await
}

/// Size of the tail `/stream` sends after the release.
pub(super) const STREAM_TAIL: usize = 4 * 1024 * 1024;

/// An HTTPS backend on 127.0.0.1 serving `leaf`; with `client_ca`, it requires a client
/// certificate issued by that CA.
pub(super) async fn start_backend(leaf: &Leaf, client_ca: Option<&TestCa>) -> Backend {
    let builder = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match client_ca {
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in der_certs(&ca.cert_pem) {
                roots.add(c).unwrap();
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider(),
            )
            .build()
            .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(leaf.key_pem.as_bytes()).unwrap();
    let config = builder
        .with_single_cert(der_certs(&leaf.cert_pem), key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let state = Arc::new(BackendState::default());
    let loop_state = state.clone();
    let task = accept_loop(listener, move |tcp| {
        let acceptor = acceptor.clone();
        let state = loop_state.clone();
        async move {
            let Ok(tls) = acceptor.accept(tcp).await else {
                return;
            };
            state.connections.fetch_add(1, Ordering::SeqCst);
            let (_, session) = tls.get_ref();
            let sni = session.server_name().map(str::to_string);
            let peer = session
                .peer_certificates()
                .and_then(|c| c.first())
                .map(|c| base64::engine::general_purpose::STANDARD.encode(c.as_ref()));
            state.snis.lock().unwrap().push(sni.clone());
            let service = hyper::service::service_fn(move |req| {
                let state = state.clone();
                let sni = sni.clone();
                let peer = peer.clone();
                async move { Ok::<_, Infallible>(backend_route(req, state, sni, peer).await) }
            });
            serve_http1(tls, service).await;
        }
    });
    Backend {
        port,
        state,
        _task: task,
    }
}

async fn backend_route(
    req: Request<Incoming>,
    state: Arc<BackendState>,
    sni: Option<String>,
    peer: Option<String>,
) -> Response<TestBody> {
    let path = req
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    match req.uri().path() {
        "/headers" => {
            let text: String = req
                .headers()
                .iter()
                .map(|(k, v)| format!("{k}: {}\n", v.to_str().unwrap_or("?")))
                .collect();
            Response::new(full(text))
        }
        "/cookies" => Response::builder()
            .status(StatusCode::CREATED)
            .header("set-cookie", "SAP_SESSIONID=abc; path=/")
            .header("set-cookie", "sap-usercontext=sap-client=001; path=/")
            .header("x-backend", "yes")
            .body(full("cookies"))
            .unwrap(),
        "/whoami" => Response::new(full(format!(
            "sni={};peer={}",
            sni.as_deref().unwrap_or("none"),
            peer.as_deref().unwrap_or("none")
        ))),
        "/stream" => {
            let (tx, rx) = mpsc::channel(4);
            tokio::spawn(async move {
                let _ = tx.send(Bytes::from_static(b"first\n")).await;
                let released =
                    tokio::time::timeout(Duration::from_secs(10), state.release_stream.notified())
                        .await
                        .is_ok();
                if !released {
                    let _ = tx.send(Bytes::from_static(b"TIMEOUT")).await;
                    return;
                }
                let chunk = Bytes::from(vec![b'x'; 64 * 1024]);
                for _ in 0..STREAM_TAIL / chunk.len() {
                    if tx.send(chunk.clone()).await.is_err() {
                        return;
                    }
                }
            });
            Response::new(Either::Right(ChannelBody(rx)))
        }
        "/upload" => {
            let mut body = req.into_body();
            let mut total = 0usize;
            let mut first = true;
            while let Some(frame) = body.frame().await {
                let Ok(frame) = frame else { break };
                if let Some(data) = frame.data_ref() {
                    total += data.len();
                    if first {
                        first = false;
                        state.upload_started.notify_one();
                    }
                }
            }
            Response::new(full(format!("bytes={total}")))
        }
        _ => Response::new(full(format!("ok:{path}"))),
    }
}

// ---------------------------------------------------------------- plain-HTTP recorder

/// One request as a plain-HTTP server saw it.
#[derive(Debug, Clone)]
pub(super) struct Recorded {
    pub request_line: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The recording server; dropping it stops it.
pub(super) struct Recorder {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Recorded>>>,
    _task: AbortOnDrop,
}

/// A hand-written HTTP/1.1 server (so nothing normalises what arrives) that records each
/// request and answers `200 via-plain`, keeping connections alive.
pub(super) async fn start_recorder() -> Recorder {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let sink = requests.clone();
    let task = accept_loop(listener, move |tcp| serve_recorded(tcp, sink.clone()));
    Recorder {
        port,
        requests,
        _task: task,
    }
}

async fn serve_recorded(tcp: TcpStream, sink: Arc<Mutex<Vec<Recorded>>>) {
    let mut reader = BufReader::new(tcp);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).await.unwrap_or(0) == 0 {
            return;
        }
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let length: usize = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).await.is_err() {
            return;
        }
        sink.lock().unwrap().push(Recorded {
            request_line: request_line.trim_end().to_string(),
            headers,
            body,
        });
        let answer =
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 9\r\n\r\nvia-plain";
        if reader.get_mut().write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
}

// ---------------------------------------------------------------- HTTPS test client

/// An HTTP/1.1 client connection to the proxy that verifies its certificate for
/// `localhost` against `trusted_pem`.
pub(super) struct TestClient {
    sender: hyper::client::conn::http1::SendRequest<TestBody>,
    pub host_header: String,
    port: u16,
    trusted_pem: String,
    _driver: JoinHandle<()>,
}

impl TestClient {
    pub(super) async fn connect(port: u16, trusted_pem: &str) -> TestClient {
        let mut roots = rustls::RootCertStore::empty();
        for c in der_certs(trusted_pem) {
            roots.add(c).unwrap();
        }
        let config = rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let name = ServerName::try_from("localhost").unwrap();
        let tls = connector.connect(name, tcp).await.unwrap();
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
            .await
            .unwrap();
        let driver = tokio::spawn(async move {
            let _ = conn.await;
        });
        TestClient {
            sender,
            host_header: format!("localhost:{port}"),
            port,
            trusted_pem: trusted_pem.to_string(),
            _driver: driver,
        }
    }

    /// One more connection to the same port, trusting the same certificate.
    pub(super) async fn another(&self) -> TestClient {
        TestClient::connect(self.port, &self.trusted_pem).await
    }

    /// Send a request (Host = `localhost:<port>` unless given) and return the live response.
    pub(super) async fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: TestBody,
    ) -> Response<Incoming> {
        let mut builder = Request::builder().method(method).uri(path);
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            builder = builder.header("host", self.host_header.as_str());
        }
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        self.sender.ready().await.unwrap();
        self.sender
            .send_request(builder.body(body).unwrap())
            .await
            .unwrap()
    }

    /// GET `path` and read the whole body as text.
    pub(super) async fn get(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
    ) -> (StatusCode, HeaderMap, String) {
        let response = self.send("GET", path, headers, full("")).await;
        let (parts, body) = response.into_parts();
        let bytes = body.collect().await.unwrap().to_bytes();
        (
            parts.status,
            parts.headers,
            String::from_utf8_lossy(&bytes).into_owned(),
        )
    }
}

// ---------------------------------------------------------------- proxy under test

/// The target `https://127.0.0.1:<port>`.
pub(super) fn local_https(port: u16) -> ProxyTarget {
    ProxyTarget::new("127.0.0.1", port, Scheme::Https)
}

/// The reverse proxy to `target` with a fresh localhost certificate and the options as
/// `tweak` sets them; logs are captured from here on.
pub(super) async fn start_proxy(
    target: ProxyTarget,
    tweak: impl FnOnce(&mut ProxyOptions),
) -> (ProxyHandle, LocalhostCert) {
    capture_logs();
    let cert = generate_localhost_cert().unwrap();
    let mut opts = ProxyOptions::new(cert.cert_pem.clone(), cert.key_pem.clone(), target);
    tweak(&mut opts);
    let proxy = start_tls_reverse_proxy(opts).await.unwrap();
    (proxy, cert)
}

/// [`start_proxy`] and one client connection to it that trusts the proxy's certificate.
pub(super) async fn start_proxy_with_client(
    target: ProxyTarget,
    tweak: impl FnOnce(&mut ProxyOptions),
) -> (ProxyHandle, TestClient) {
    let (proxy, cert) = start_proxy(target, tweak).await;
    let client = TestClient::connect(proxy.port, &cert.cert_pem).await;
    (proxy, client)
}

/// A `sap.backend.test` backend of its own CA, a proxy to it with the default options, and
/// one client of that proxy.
pub(super) async fn sap_backend_behind_proxy() -> (Backend, ProxyHandle, TestClient) {
    let backend = start_sap_backend(&TestCa::new("Backend Test CA"), None).await;
    let (proxy, client) = start_proxy_with_client(local_https(backend.port), |_| {}).await;
    (backend, proxy, client)
}

/// Runs `test`, under [`TEST_TIMEOUT`], on [`sap_backend_behind_proxy`]'s backend, proxy and
/// client; the proxy is closed after it.
pub(super) async fn through_sap_proxy(
    test: impl AsyncFnOnce(&Backend, &ProxyHandle, &mut TestClient),
) {
    bounded(async {
        let (backend, proxy, mut client) = sap_backend_behind_proxy().await;
        test(&backend, &proxy, &mut client).await;
        proxy.close().await;
    })
    .await
}

/// One GET of `path` through a proxy started for it by [`start_proxy`], closed afterwards.
pub(super) async fn get_through_proxy(
    target: ProxyTarget,
    tweak: impl FnOnce(&mut ProxyOptions),
    path: &str,
) -> (StatusCode, HeaderMap, String) {
    let (proxy, mut client) = start_proxy_with_client(target, tweak).await;
    let answer = client.get(path, &[]).await;
    proxy.close().await;
    answer
}
