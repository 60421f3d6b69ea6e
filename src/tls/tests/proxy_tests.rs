//! The reverse proxy over real sockets: direct TLS upstream (insecure and verified), Host
//! and header handling, Set-Cookie, streaming both ways, mutual TLS, SNI, forward-proxy
//! mode, plain-http targets, the 502 answer, keep-alive pairing, close() and drop.

use super::support::*;
use crate::kernel::log::Level;
use crate::tls::cert::generate_localhost_cert;
use crate::tls::proxy_target::Scheme;
use crate::tls::{start_tls_reverse_proxy, ClientCertPem, ProxyOptions, ProxyTarget};
use bytes::Bytes;
use http_body_util::{BodyExt, Either};
use hyper::StatusCode;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwards_to_an_https_backend_with_a_foreign_self_signed_name() {
    through_sap_proxy(async |backend, proxy, client| {
        assert_eq!(proxy.url, format!("https://localhost:{}", proxy.port));
        let (status, _, body) = client.get("/hello?x=1", &[]).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "ok:/hello?x=1"));
        let expected = format!(
            "tls-proxy: https://localhost:{} → https://127.0.0.1:{}",
            proxy.port, backend.port
        );
        assert_eq!(logged(Level::Info, &expected), vec![expected.clone()]);
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_and_end_to_end_headers_pass_verbatim_hop_by_hop_ones_do_not() {
    through_sap_proxy(async |_, proxy, client| {
        let (_, _, seen) = client
            .get(
                "/headers",
                &[
                    ("authorization", "Basic dXNlcjpwdw=="),
                    ("x-csrf-token", "fetch"),
                    ("x-multi", "one"),
                    ("x-multi", "two"),
                    ("connection", "keep-alive, x-private"),
                    ("x-private", "secret-hop"),
                    ("keep-alive", "timeout=5"),
                    ("te", "trailers"),
                ],
            )
            .await;
        let lines: Vec<&str> = seen.lines().collect();
        assert_eq!(
            lines[0],
            format!("host: localhost:{}", proxy.port),
            "{seen}"
        );
        assert!(
            lines.contains(&"authorization: Basic dXNlcjpwdw=="),
            "{seen}"
        );
        assert!(lines.contains(&"x-csrf-token: fetch"), "{seen}");
        let multi: Vec<&&str> = lines.iter().filter(|l| l.starts_with("x-multi")).collect();
        assert_eq!(multi, [&"x-multi: one", &"x-multi: two"]);
        for hop in [
            "x-private",
            "keep-alive",
            "te:",
            "connection: keep-alive, x-private",
        ] {
            assert!(
                !lines.iter().any(|l| l.starts_with(hop)),
                "{hop} leaked: {seen}"
            );
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_and_every_set_cookie_come_back() {
    through_sap_proxy(async |_, _, client| {
        let (status, headers, body) = client.get("/cookies", &[]).await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(body, "cookies");
        let cookies: Vec<&str> = headers
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(
            cookies,
            [
                "SAP_SESSIONID=abc; path=/",
                "sap-usercontext=sap-client=001; path=/"
            ]
        );
        assert_eq!(headers.get("x-backend").unwrap(), "yes");
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn response_bodies_stream_without_buffering() {
    through_sap_proxy(async |backend, _, client| {
        let mut body = client
            .send("GET", "/stream", &[], full(""))
            .await
            .into_body();
        // The backend holds the tail back until we have seen the head: a buffering proxy
        // would deliver nothing here (and the backend would give up with TIMEOUT).
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(&first[..], b"first\n");
        backend.state.release_stream.notify_one();
        let rest = body.collect().await.unwrap().to_bytes();
        assert_eq!(rest.len(), STREAM_TAIL);
        assert!(!rest.windows(7).any(|w| w == b"TIMEOUT"));
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_bodies_stream_without_buffering() {
    through_sap_proxy(async |backend, _, client| {
        let (tx, rx) = mpsc::channel(4);
        let state = backend.state.clone();
        let feeder = tokio::spawn(async move {
            tx.send(Bytes::from_static(b"head")).await.unwrap();
            // Only after the backend has the first chunk do we send the rest.
            tokio::time::timeout(Duration::from_secs(10), state.upload_started.notified())
                .await
                .expect("first request chunk did not reach the backend before the body ended");
            let chunk = Bytes::from(vec![b'y'; 64 * 1024]);
            for _ in 0..64 {
                tx.send(chunk.clone()).await.unwrap();
            }
        });
        let response = client
            .send(
                "POST",
                "/upload",
                &[("content-type", "application/octet-stream")],
                Either::Right(ChannelBody(rx)),
            )
            .await;
        let text = response.into_body().collect().await.unwrap().to_bytes();
        feeder.await.unwrap();
        assert_eq!(
            String::from_utf8_lossy(&text),
            format!("bytes={}", 4 + 64 * 64 * 1024)
        );
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutual_tls_presents_the_client_certificate() {
    bounded(async {
        let server_ca = TestCa::new("Backend Test CA");
        let client_ca = TestCa::new("Client Test CA");
        let backend = start_sap_backend(&server_ca, Some(&client_ca)).await;
        let user = client_ca.leaf("DEVELOPER", &[]);
        let (status, _, body) = get_through_proxy(
            local_https(backend.port),
            |o| {
                o.client_cert = Some(ClientCertPem::new(
                    user.cert_pem.clone(),
                    user.key_pem.clone(),
                ));
            },
            "/whoami",
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let expected = {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode(&user.der)
        };
        assert!(body.ends_with(&format!(";peer={expected}")), "{body}");

        // Without the certificate the backend refuses: the proxy answers 502.
        let (status, _, body) =
            get_through_proxy(local_https(backend.port), |_| {}, "/whoami").await;
        assert_eq!(status, StatusCode::BAD_GATEWAY);
        assert!(body.starts_with("reverse-proxy upstream error: "), "{body}");
    })
    .await
}

/// `openssl <args…> -in <input> -out <output>`: Ok, or what the tool printed when it failed.
fn openssl_in_out(args: &[&str], input: &Path, output: &Path) -> Result<(), String> {
    let out = std::process::Command::new("openssl")
        .args(args)
        .arg("-in")
        .arg(input)
        .arg("-out")
        .arg(output)
        .output()
        .unwrap();
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "openssl {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines)] // a key of each format made with openssl, then a proxy run with each
async fn client_keys_in_pkcs1_and_sec1_work_too() {
    bounded_with_tool("openssl", "version", async {
        let dir = TempDir::new("keys");
        let server_ca = TestCa::new("Backend Test CA");
        let client_ca = TestCa::new("Client Test CA");
        let backend = start_sap_backend(&server_ca, Some(&client_ca)).await;
        // SEC1: convert rcgen's PKCS#8 P-256 key.
        let user = client_ca.leaf("EC USER", &[]);
        let p8 = dir.path().join("ec.p8.pem");
        std::fs::write(&p8, &user.key_pem).unwrap();
        let sec1 = dir.path().join("ec.sec1.pem");
        openssl_in_out(&["ec"], &p8, &sec1).unwrap();
        let sec1_pem = std::fs::read_to_string(&sec1).unwrap();
        assert!(sec1_pem.contains("BEGIN EC PRIVATE KEY"), "{sec1_pem}");
        // PKCS#1: an RSA key from openssl, certified by the test CA via a CSR-less re-sign
        // is not possible with rcgen+ring, so the RSA cert is self-issued by openssl and the
        // backend is told to trust it as its own CA.
        let rsa_key = dir.path().join("rsa.pem");
        let rsa_cert = dir.path().join("rsa-cert.pem");
        run_ok(
            "openssl",
            &[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                rsa_key.to_str().unwrap(),
                "-out",
                rsa_cert.to_str().unwrap(),
                "-days",
                "1",
                "-subj",
                "/CN=RSA USER",
            ],
        );
        let rsa_pkcs1 = dir.path().join("rsa.pkcs1.pem");
        if openssl_in_out(&["rsa", "-traditional"], &rsa_key, &rsa_pkcs1).is_err() {
            // OpenSSL 1.x writes PKCS#1 by default and has no -traditional.
            openssl_in_out(&["rsa"], &rsa_key, &rsa_pkcs1).unwrap();
        }
        let pkcs1_pem = std::fs::read_to_string(&rsa_pkcs1).unwrap();
        assert!(pkcs1_pem.contains("BEGIN RSA PRIVATE KEY"), "{pkcs1_pem}");

        let (status, _, body) = get_through_proxy(
            local_https(backend.port),
            |o| {
                o.client_cert = Some(ClientCertPem::new(user.cert_pem.clone(), sec1_pem.clone()));
            },
            "/whoami",
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");

        // The PKCS#1 key is parsed and presented (the backend rejects the unknown issuer,
        // which proves the certificate was sent).
        let rsa_cert_pem = std::fs::read_to_string(&rsa_cert).unwrap();
        let (status, _, body) = get_through_proxy(
            local_https(backend.port),
            |o| {
                o.client_cert = Some(ClientCertPem::new(rsa_cert_pem.clone(), pkcs1_pem.clone()));
            },
            "/whoami",
        )
        .await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{body}");
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verified_upstream_trusts_extra_cas_only() {
    bounded(async {
        let ca = TestCa::new("Corporate Test CA");
        let backend = start_backend(
            &ca.leaf("sap.backend.test", &["sap.backend.test", "127.0.0.1"]),
            None,
        )
        .await;
        let (status, _, body) = get_through_proxy(
            local_https(backend.port),
            |o| {
                o.insecure_upstream = false;
                o.extra_ca_pems = vec![ca.cert_pem.clone().into_bytes()];
            },
            "/hello",
        )
        .await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "ok:/hello"));

        let (status, _, body) = get_through_proxy(
            local_https(backend.port),
            |o| o.insecure_upstream = false,
            "/hello",
        )
        .await;
        assert_eq!(status, StatusCode::BAD_GATEWAY);
        assert!(body.contains("invalid peer certificate"), "{body}");
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sni_is_the_target_name_and_absent_for_ip_targets() {
    bounded(async {
        let ca = TestCa::new("Backend Test CA");
        let backend = start_backend(&ca.leaf("localhost", &["localhost"]), None).await;
        // `localhost` may resolve to ::1 first; the backend listens on 127.0.0.1 only, so
        // this also exercises trying every resolved address.
        let (_, _, body) = get_through_proxy(
            ProxyTarget::new("localhost", backend.port, Scheme::Https),
            |_| {},
            "/whoami",
        )
        .await;
        assert!(body.starts_with("sni=localhost;"), "{body}");

        let (_, _, body) = get_through_proxy(local_https(backend.port), |_| {}, "/whoami").await;
        assert!(body.starts_with("sni=none;"), "{body}");
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forward_proxy_mode_sends_absolute_form_over_plain_http() {
    bounded(async {
        let forward = start_recorder().await;
        let target = ProxyTarget::from_system_url("https://sap.example.test:44300").unwrap();
        let (proxy, mut client) = start_proxy_with_client(target, |o| {
            o.forward_proxy = Some(("127.0.0.1".into(), forward.port));
            // Ignored in forward-proxy mode.
            o.client_cert = Some(ClientCertPem::new("not used", "not used"));
        })
        .await;
        let (status, _, body) = client.get("/sap/bc/adt/discovery?x=1", &[("x-custom", "1")]).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "via-plain"));
        let seen = forward.requests.lock().unwrap().clone();
        assert_eq!(seen.len(), 1);
        assert_eq!(
            seen[0].request_line,
            "GET https://sap.example.test:44300/sap/bc/adt/discovery?x=1 HTTP/1.1"
        );
        assert_eq!(seen[0].header("host"), Some("sap.example.test:44300"));
        assert_eq!(seen[0].header("x-custom"), Some("1"));
        let expected = format!(
            "tls-proxy: https://localhost:{} → https://sap.example.test:44300 via forward-proxy 127.0.0.1:{}",
            proxy.port, forward.port
        );
        assert_eq!(logged(Level::Info, &expected).len(), 1);
        proxy.close().await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_targets_get_origin_form_and_verbatim_host() {
    bounded(async {
        let plain = start_recorder().await;
        let target =
            ProxyTarget::from_system_url(&format!("http://127.0.0.1:{}", plain.port)).unwrap();
        let (proxy, mut client) = start_proxy_with_client(target, |_| {}).await;
        let response = client
            .send(
                "POST",
                "/sap/bc/adt/x",
                &[("content-type", "text/plain")],
                full("hello body"),
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        let seen = plain.requests.lock().unwrap().clone();
        assert_eq!(seen[0].request_line, "POST /sap/bc/adt/x HTTP/1.1");
        assert_eq!(
            seen[0].header("host"),
            Some(format!("localhost:{}", proxy.port).as_str())
        );
        assert_eq!(seen[0].body, b"hello body");
        proxy.close().await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_upstream_gives_the_reference_502() {
    bounded(async {
        let closed_port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let (proxy, mut client) = start_proxy_with_client(local_https(closed_port), |_| {}).await;
        let (status, headers, body) = client.get("/hello", &[]).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY);
        assert_eq!(headers.get("content-type").unwrap(), "text/plain");
        let message = format!("connect ECONNREFUSED 127.0.0.1:{closed_port}");
        assert_eq!(body, format!("reverse-proxy upstream error: {message}"));
        assert_eq!(
            logged(Level::Warn, &message),
            vec![format!("tls-proxy: upstream error: {message}")]
        );
        // The client connection stays usable after a 502.
        let (status, _, _) = client.get("/again", &[]).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY);
        proxy.close().await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_upstream_connection_serves_a_kept_alive_client_connection() {
    through_sap_proxy(async |backend, _, client| {
        for i in 0..5 {
            let (status, _, body) = client.get(&format!("/n{i}"), &[]).await;
            assert_eq!((status, body), (StatusCode::OK, format!("ok:/n{i}")));
        }
        assert_eq!(backend.state.connections.load(Ordering::SeqCst), 1);
        let mut second = client.another().await;
        second.get("/other", &[]).await;
        assert_eq!(backend.state.connections.load(Ordering::SeqCst), 2);
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn close_frees_the_port_and_ends_open_connections() {
    bounded(async {
        let (_backend, proxy, mut idle) = sap_backend_behind_proxy().await;
        let port = proxy.port;
        idle.get("/warm", &[]).await;
        // A request whose response never completes keeps a connection busy.
        let mut busy = idle.another().await;
        let stuck = busy.send("GET", "/stream", &[], full("")).await;

        let started = Instant::now();
        proxy.close().await;
        assert!(started.elapsed() < crate::tls::proxy::CLOSE_GRACE + Duration::from_secs(2));
        std::net::TcpListener::bind(("127.0.0.1", port)).expect("port still in use after close()");
        // The busy exchange was cut, not completed.
        let rest = stuck.into_body().collect().await;
        assert!(rest.is_err() || rest.unwrap().to_bytes().len() < STREAM_TAIL);
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_handle_stops_the_proxy() {
    bounded(async {
        let (proxy, _cert) = start_proxy(local_https(9), |_| {}).await;
        let port = proxy.port;
        drop(proxy);
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "port {port} still bound after drop"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bind_host_is_configurable_and_bad_material_is_rejected() {
    bounded(async {
        let (proxy, _cert) =
            start_proxy(local_https(9), |o| o.bind_host = "localhost".into()).await;
        proxy.close().await;
        let cert = generate_localhost_cert().unwrap();
        let opts = ProxyOptions::new(
            cert.cert_pem.clone(),
            "no key here".to_string(),
            local_https(9),
        );
        let err = start_tls_reverse_proxy(opts).await.unwrap_err();
        assert_eq!(err.message, "proxy key: no private key found");
        let mut opts =
            ProxyOptions::new(cert.cert_pem.clone(), cert.key_pem.clone(), local_https(9));
        assert!(
            !format!("{opts:?}").contains(cert.key_pem.as_str()),
            "Debug leaks the key"
        );
        opts.client_cert = Some(ClientCertPem::new(
            cert.cert_pem.clone(),
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        ));
        let err = start_tls_reverse_proxy(opts).await.unwrap_err();
        assert!(err.message.starts_with("clientCert"), "{}", err.message);
        assert!(!err.message.contains("AAAA"));
    })
    .await
}
