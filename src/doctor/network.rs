//! The `--url` probe, step by step, each bounded by the timeout: DNS, TCP, the TLS handshake
//! with the presented chain, whether adt-ls's truststore trusts it, host-name match, and the
//! credential-free reentrance GET (401 is the healthy answer). With `--proxy` and
//! `--self-signed` it goes the engine's forward-proxy way instead: plain HTTP to the proxy,
//! absolute-form request, no TLS of ours. A failed step skips the ones that need it.

use super::certs;
use super::http_probe;
use super::report::Check;
use super::tls_probe;
use super::verdicts;
use rustls::pki_types::UnixTime;
use serde_json::{json, Map, Value};
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// What the probe needs.
pub(crate) struct ProbeOptions {
    pub url: String,
    pub self_signed: bool,
    /// Certificates adt-ls would trust (JRE `cacerts` plus extra CAs), DER.
    pub anchors: Vec<Vec<u8>>,
    /// How many of `anchors` came from `--extra-ca`.
    pub extra_ca_count: usize,
    pub proxy: Option<(String, u16)>,
    pub client: String,
    pub timeout: Duration,
}

/// Run the probe: the connection section and its checks.
pub(crate) async fn probe(opts: &ProbeOptions) -> (Value, Vec<Check>) {
    let mut section = Map::new();
    let mut checks = Vec::new();
    let Ok(url) = reqwest::Url::parse(&opts.url) else {
        checks.push(Check::fail(
            "url",
            format!("{} is not a URL", opts.url),
            "pass connection.systemUrl as https://host:port",
        ));
        return (Value::Object(section), checks);
    };
    let host = url.host_str().unwrap_or_default().to_string();
    let https = url.scheme() == "https";
    let port = url
        .port_or_known_default()
        .unwrap_or(if https { 443 } else { 80 });
    let authority = crate::tls::proxy_target::authority(
        host.trim_start_matches('[').trim_end_matches(']'),
        port,
    );
    section.insert("url".into(), json!(opts.url));
    section.insert("host".into(), json!(host));
    section.insert("port".into(), json!(port));
    section.insert("selfSigned".into(), json!(opts.self_signed));
    section.insert(
        "proxy".into(),
        json!(opts.proxy.as_ref().map(|(h, p)| format!("{h}:{p}"))),
    );
    section.insert("client".into(), json!(opts.client));
    section.insert("timeoutMs".into(), json!(opts.timeout.as_millis() as u64));

    let skip_rest = |checks: &mut Vec<Check>, from: &[&'static str], why: &str| {
        for id in from {
            checks.push(Check::skip(id, format!("not run: {why}")));
        }
    };
    let mut later: &[&'static str] = if https {
        &["tls", "trust", "hostname", "reentrance"]
    } else {
        &["reentrance"]
    };

    // connection.forwardProxy only acts through the localhost TLS proxy, which runs with
    // selfSigned; without it adt-ls connects directly, and so does this probe.
    let via_proxy = match (&opts.proxy, opts.self_signed) {
        (Some(p), true) => Some(p.clone()),
        (Some(_), false) => {
            checks.push(Check::warn("proxy", "connection.forwardProxy takes effect only with connection.selfSigned: true; without it adt-ls connects to the system directly, and so does this probe", "add --self-signed (connection.selfSigned: true) to go through the forward proxy"));
            None
        }
        (None, _) => None,
    };
    if via_proxy.is_some() {
        later = &["reentrance"];
    }

    // DNS: the proxy's name when the proxy is used (it resolves the system's name itself).
    let (dns_host, dns_port) = match &via_proxy {
        Some((h, p)) => (h.clone(), *p),
        None => (
            host.trim_start_matches('[')
                .trim_end_matches(']')
                .to_string(),
            port,
        ),
    };
    let Some(mut tcp) = reach(
        &dns_host,
        dns_port,
        via_proxy.is_some(),
        &mut section,
        &mut checks,
        opts.timeout,
    )
    .await
    else {
        let failed = checks.last().map(|c| c.id).unwrap_or_default();
        if failed == "dns" {
            skip_rest(&mut checks, &[&["tcp"], later].concat(), "DNS failed");
        } else {
            skip_rest(&mut checks, later, "TCP failed");
        }
        return (Value::Object(section), checks);
    };

    if let Some((proxy_host, proxy_port)) = &via_proxy {
        checks.push(Check::ok("proxy", format!("requests go to {} through the forward proxy {}, in absolute form (the proxy makes the connection to the system)", url.origin().ascii_serialization(), crate::tls::proxy_target::authority(proxy_host, *proxy_port))));
        for id in ["tls", "trust", "hostname"] {
            checks.push(Check::skip(
                id,
                "not run: the forward proxy makes the TLS connection to the system",
            ));
        }
        let target = format!(
            "{}{}",
            url.origin().ascii_serialization(),
            http_probe::reentrance_path(&opts.client)
        );
        let reentrance = reentrance(&mut tcp, &authority, &target, opts).await;
        section.insert("reentrance".into(), reentrance.0);
        checks.push(reentrance.1);
        return (Value::Object(section), checks);
    }

    if !https {
        checks.push(Check::warn(
            "tls",
            format!(
                "{} is plain HTTP: passwords and tickets cross the network unencrypted",
                opts.url
            ),
            "use the system's https:// URL",
        ));
        let path = http_probe::reentrance_path(&opts.client);
        let reentrance = reentrance(&mut tcp, &authority, &path, opts).await;
        section.insert("reentrance".into(), reentrance.0);
        checks.push(reentrance.1);
        return (Value::Object(section), checks);
    }

    // TLS.
    let mut hs = match bounded(opts.timeout, tls_probe::handshake(tcp, &host)).await {
        Ok(Ok(hs)) => hs,
        outcome => {
            let why = match outcome {
                Ok(Err(e)) => e,
                Err(ms) => format!("no handshake within {ms} ms"),
                Ok(Ok(_)) => String::new(),
            };
            checks.push(Check::fail("tls", format!("TLS handshake with {authority} failed: {why}"), "the port must speak TLS 1.2 or 1.3 (is it an http:// port? use the ICM's HTTPS port)"));
            skip_rest(
                &mut checks,
                &["trust", "hostname", "reentrance"],
                "the TLS handshake failed",
            );
            return (Value::Object(section), checks);
        }
    };
    let chain: Vec<Value> = hs.chain.iter().map(|c| certs::summarize(c)).collect();
    section.insert(
        "tls".into(),
        json!({
            "protocol": hs.protocol,
            "cipherSuite": hs.cipher_suite,
            "chain": chain,
        }),
    );
    checks.push(Check::ok(
        "tls",
        format!(
            "{} {}, {} certificate(s) presented",
            hs.protocol,
            hs.cipher_suite,
            hs.chain.len()
        ),
    ));

    let leaf_self_signed = chain
        .first()
        .and_then(|c| c["selfSigned"].as_bool())
        .unwrap_or(false);
    let trust = certs::check_trust(&hs.chain, &opts.anchors, UnixTime::now());
    section.insert(
        "trust".into(),
        json!({
            "trusted": trust.is_ok(),
            "anchors": opts.anchors.len(),
            "extraCaCerts": opts.extra_ca_count,
            "error": trust.as_ref().err(),
        }),
    );
    checks.push(verdicts::trust(
        &trust,
        opts.self_signed,
        leaf_self_signed,
        opts.extra_ca_count,
    ));

    let name = hs
        .chain
        .first()
        .map(|leaf| certs::check_host_name(leaf, &host));
    let sans = chain
        .first()
        .map(|c| c["subjectAltNames"].clone())
        .unwrap_or(Value::Null);
    section.insert(
        "hostName".into(),
        json!({
            "host": host,
            "matches": matches!(name, Some(Ok(()))),
            "error": name.as_ref().and_then(|n| n.as_ref().err()),
        }),
    );
    checks.push(verdicts::hostname(
        name.as_ref(),
        &host,
        &sans,
        opts.self_signed,
    ));

    let path = http_probe::reentrance_path(&opts.client);
    let reentrance = reentrance(&mut hs.stream, &authority, &path, opts).await;
    section.insert("reentrance".into(), reentrance.0);
    checks.push(reentrance.1);
    (Value::Object(section), checks)
}

/// The credential-free GET of the reentrance endpoint.
/// `target` is the path, or the absolute URL when talking to a forward proxy.
async fn reentrance<S>(
    io: &mut S,
    authority: &str,
    target: &str,
    opts: &ProbeOptions,
) -> (Value, Check)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let outcome = bounded(opts.timeout, http_probe::get(io, authority, target)).await;
    let status = match &outcome {
        Ok(Ok(code)) => Some(*code),
        _ => None,
    };
    let section = json!({ "target": target, "status": status });
    let check = verdicts::reentrance(&outcome);
    (section, check)
}

/// DNS, then TCP to the first address that accepts; pushes the `dns` and `tcp` checks
/// (the last one pushed is the one that failed) and the addresses into `section`.
async fn reach(
    host: &str,
    port: u16,
    is_proxy: bool,
    section: &mut Map<String, Value>,
    checks: &mut Vec<Check>,
    timeout: Duration,
) -> Option<TcpStream> {
    let what = if is_proxy {
        "the forward proxy"
    } else {
        "the system"
    };
    let addrs = match bounded(timeout, tokio::net::lookup_host((host, port))).await {
        Ok(Ok(addrs)) => addrs.collect::<Vec<SocketAddr>>(),
        Ok(Err(e)) => {
            let field = if is_proxy {
                "--proxy (connection.forwardProxy)"
            } else {
                "connection.systemUrl"
            };
            checks.push(Check::fail(
                "dns",
                format!("{host} ({what}) does not resolve: {e}"),
                format!("check the host name in {field} (typo? VPN not connected?) and this machine's DNS"),
            ));
            return None;
        }
        Err(ms) => {
            checks.push(Check::fail(
                "dns",
                format!("resolving {host} took longer than {ms} ms"),
                "check this machine's DNS servers (or raise --timeout-ms)",
            ));
            return None;
        }
    };
    let shown: Vec<String> = addrs.iter().map(|a| a.ip().to_string()).collect();
    section.insert("addresses".into(), json!(shown));
    checks.push(Check::ok(
        "dns",
        format!("{host} ({what}) resolves to {}", shown.join(", ")),
    ));
    match connect_any(&addrs, timeout).await {
        Ok((stream, peer)) => {
            section.insert("connectedTo".into(), json!(peer.to_string()));
            checks.push(Check::ok("tcp", format!("connected to {what} at {peer}")));
            Some(stream)
        }
        Err(e) => {
            let fix = if is_proxy {
                "check the proxy's host and port (--proxy / connection.forwardProxy)".to_string()
            } else {
                format!("check the port in connection.systemUrl ({port}: the ICM's HTTP(S) port, e.g. 443 or 44300) and that no firewall blocks it; behind a forward proxy use connection.forwardProxy with connection.selfSigned")
            };
            checks.push(Check::fail(
                "tcp",
                format!(
                    "cannot connect to {what} at {}: {e}",
                    crate::tls::proxy_target::authority(host, port)
                ),
                fix,
            ));
            None
        }
    }
}

/// Connect to the first address that accepts, each attempt within `timeout`.
async fn connect_any(
    addrs: &[SocketAddr],
    timeout: Duration,
) -> Result<(TcpStream, SocketAddr), String> {
    let mut last = "no address".to_string();
    for addr in addrs {
        match bounded(timeout, TcpStream::connect(addr)).await {
            Ok(Ok(stream)) => return Ok((stream, *addr)),
            Ok(Err(e)) => last = e.to_string(),
            Err(ms) => last = format!("no answer within {ms} ms"),
        }
    }
    Err(last)
}

/// `fut` within `timeout`; `Err(milliseconds)` when it took longer.
async fn bounded<F: Future>(timeout: Duration, fut: F) -> Result<F::Output, u128> {
    tokio::time::timeout(timeout, fut)
        .await
        .map_err(|_| timeout.as_millis())
}
