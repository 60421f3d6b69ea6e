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
    let mut found = Findings::default();
    let Some(target) = Target::parse(opts, &mut found.checks) else {
        return found.finish();
    };
    found.describe(opts, &target);
    let via_proxy = forward_proxy(opts, &mut found.checks);
    let Some(mut tcp) = found.connect(opts, &target, via_proxy.as_ref()).await else {
        return found.finish();
    };
    if let Some(proxy) = &via_proxy {
        found.through_proxy(&mut tcp, opts, &target, proxy).await;
    } else if !target.https {
        found.plain_http(&mut tcp, opts, &target).await;
    } else {
        found.over_tls(tcp, opts, &target).await;
    }
    found.finish()
}

/// The system the probe talks to, read from `--url`.
struct Target {
    url: reqwest::Url,
    /// As in the URL (IPv6 literals in brackets).
    host: String,
    https: bool,
    port: u16,
    /// `host:port` as a request's `Host`.
    authority: String,
}

impl Target {
    /// Parse `opts.url`; a `url` failure when it is not a URL.
    fn parse(opts: &ProbeOptions, checks: &mut Vec<Check>) -> Option<Target> {
        let Ok(url) = reqwest::Url::parse(&opts.url) else {
            checks.push(Check::fail(
                "url",
                format!("{} is not a URL", opts.url),
                "pass connection.systemUrl as https://host:port",
            ));
            return None;
        };
        let host = url.host_str().unwrap_or_default().to_string();
        let https = url.scheme() == "https";
        let port = url
            .port_or_known_default()
            .unwrap_or(if https { 443 } else { 80 });
        let authority = crate::tls::proxy_target::authority(bare_host(&host), port);
        Some(Target {
            url,
            host,
            https,
            port,
            authority,
        })
    }

    /// The checks after DNS and TCP that need the connection to the system.
    fn later_checks(&self, via_proxy: bool) -> &'static [&'static str] {
        if self.https && !via_proxy {
            &["tls", "trust", "hostname", "reentrance"]
        } else {
            &["reentrance"]
        }
    }
}

/// The host without the brackets of an IPv6 literal.
fn bare_host(host: &str) -> &str {
    host.trim_start_matches('[').trim_end_matches(']')
}

/// The forward proxy the probe goes through: `--proxy` only acts with `--self-signed`
/// (a `proxy` warning without it).
fn forward_proxy(opts: &ProbeOptions, checks: &mut Vec<Check>) -> Option<(String, u16)> {
    // connection.forwardProxy only acts through the localhost TLS proxy, which runs with
    // selfSigned; without it adt-ls connects directly, and so does this probe.
    match (&opts.proxy, opts.self_signed) {
        (Some(p), true) => Some(p.clone()),
        (Some(_), false) => {
            checks.push(Check::warn("proxy", "connection.forwardProxy takes effect only with connection.selfSigned: true; without it adt-ls connects to the system directly, and so does this probe", "add --self-signed (connection.selfSigned: true) to go through the forward proxy"));
            None
        }
        (None, _) => None,
    }
}

/// The connection section and the checks, in the order the steps produce them.
#[derive(Default)]
struct Findings {
    section: Map<String, Value>,
    checks: Vec<Check>,
}

impl Findings {
    fn finish(self) -> (Value, Vec<Check>) {
        (Value::Object(self.section), self.checks)
    }

    /// A `skip` check for each of `ids`, saying why.
    fn skip(&mut self, ids: &[&'static str], why: &str) {
        for id in ids {
            self.checks.push(Check::skip(id, format!("not run: {why}")));
        }
    }

    /// What the probe was asked: the target and the options.
    fn describe(&mut self, opts: &ProbeOptions, target: &Target) {
        let section = &mut self.section;
        section.insert("url".into(), json!(opts.url));
        section.insert("host".into(), json!(target.host));
        section.insert("port".into(), json!(target.port));
        section.insert("selfSigned".into(), json!(opts.self_signed));
        section.insert(
            "proxy".into(),
            json!(opts.proxy.as_ref().map(|(h, p)| format!("{h}:{p}"))),
        );
        section.insert("client".into(), json!(opts.client));
        section.insert("timeoutMs".into(), json!(opts.timeout.as_millis() as u64));
    }

    /// DNS and TCP, to the proxy when it is used (it resolves the system's name itself);
    /// on a failure the checks that need the connection are skipped.
    async fn connect(
        &mut self,
        opts: &ProbeOptions,
        target: &Target,
        via_proxy: Option<&(String, u16)>,
    ) -> Option<TcpStream> {
        let (dns_host, dns_port) = match via_proxy {
            Some((h, p)) => (h.clone(), *p),
            None => (bare_host(&target.host).to_string(), target.port),
        };
        let reached = reach(
            &dns_host,
            dns_port,
            via_proxy.is_some(),
            &mut self.section,
            &mut self.checks,
            opts.timeout,
        )
        .await;
        if reached.is_none() {
            let later = target.later_checks(via_proxy.is_some());
            let failed = self.checks.last().map(|c| c.id).unwrap_or_default();
            if failed == "dns" {
                self.skip(&[&["tcp"], later].concat(), "DNS failed");
            } else {
                self.skip(later, "TCP failed");
            }
        }
        reached
    }

    /// Through the forward proxy: an absolute-form reentrance GET; the TLS checks are the
    /// proxy's.
    async fn through_proxy(
        &mut self,
        tcp: &mut TcpStream,
        opts: &ProbeOptions,
        target: &Target,
        (proxy_host, proxy_port): &(String, u16),
    ) {
        let origin = target.url.origin().ascii_serialization();
        self.checks.push(Check::ok("proxy", format!("requests go to {} through the forward proxy {}, in absolute form (the proxy makes the connection to the system)", origin, crate::tls::proxy_target::authority(proxy_host, *proxy_port))));
        self.skip(
            &["tls", "trust", "hostname"],
            "the forward proxy makes the TLS connection to the system",
        );
        let absolute = format!("{origin}{}", http_probe::reentrance_path(&opts.client));
        self.probe_reentrance(tcp, opts, target, &absolute).await;
    }

    /// Plain HTTP: a `tls` warning, then the reentrance GET.
    async fn plain_http(&mut self, tcp: &mut TcpStream, opts: &ProbeOptions, target: &Target) {
        self.checks.push(Check::warn(
            "tls",
            format!(
                "{} is plain HTTP: passwords and tickets cross the network unencrypted",
                opts.url
            ),
            "use the system's https:// URL",
        ));
        let path = http_probe::reentrance_path(&opts.client);
        self.probe_reentrance(tcp, opts, target, &path).await;
    }

    /// HTTPS: the handshake, trust, host name, then the reentrance GET over TLS.
    async fn over_tls(&mut self, tcp: TcpStream, opts: &ProbeOptions, target: &Target) {
        let Some(mut hs) = self.handshake(tcp, opts, target).await else {
            return;
        };
        let chain: Vec<Value> = hs.chain.iter().map(|c| certs::summarize(c)).collect();
        self.record_tls(&hs, &chain);
        self.trust(&hs, &chain, opts);
        self.host_name(&hs, &chain, opts, target);
        let path = http_probe::reentrance_path(&opts.client);
        self.probe_reentrance(&mut hs.stream, opts, target, &path)
            .await;
    }

    /// The TLS handshake within the timeout; on a failure the checks after it are skipped.
    async fn handshake(
        &mut self,
        tcp: TcpStream,
        opts: &ProbeOptions,
        target: &Target,
    ) -> Option<tls_probe::Handshake<TcpStream>> {
        let why = match bounded(opts.timeout, tls_probe::handshake(tcp, &target.host)).await {
            Ok(Ok(hs)) => return Some(hs),
            Ok(Err(e)) => e,
            Err(ms) => format!("no handshake within {ms} ms"),
        };
        self.checks.push(Check::fail(
            "tls",
            format!("TLS handshake with {} failed: {why}", target.authority),
            "the port must speak TLS 1.2 or 1.3 (is it an http:// port? use the ICM's HTTPS port)",
        ));
        self.skip(
            &["trust", "hostname", "reentrance"],
            "the TLS handshake failed",
        );
        None
    }

    /// The negotiated protocol and the presented chain (`chain`: its summaries).
    fn record_tls(&mut self, hs: &tls_probe::Handshake<TcpStream>, chain: &[Value]) {
        self.section.insert(
            "tls".into(),
            json!({
                "protocol": hs.protocol,
                "cipherSuite": hs.cipher_suite,
                "chain": chain,
            }),
        );
        self.checks.push(Check::ok(
            "tls",
            format!(
                "{} {}, {} certificate(s) presented",
                hs.protocol,
                hs.cipher_suite,
                hs.chain.len()
            ),
        ));
    }

    /// Whether adt-ls's truststore trusts the presented chain.
    fn trust(
        &mut self,
        hs: &tls_probe::Handshake<TcpStream>,
        chain: &[Value],
        opts: &ProbeOptions,
    ) {
        let leaf_self_signed = chain
            .first()
            .and_then(|c| c["selfSigned"].as_bool())
            .unwrap_or(false);
        let trust = certs::check_trust(&hs.chain, &opts.anchors, UnixTime::now());
        self.section.insert(
            "trust".into(),
            json!({
                "trusted": trust.is_ok(),
                "anchors": opts.anchors.len(),
                "extraCaCerts": opts.extra_ca_count,
                "error": trust.as_ref().err(),
            }),
        );
        self.checks.push(verdicts::trust(
            &trust,
            opts.self_signed,
            leaf_self_signed,
            opts.extra_ca_count,
        ));
    }

    /// Whether the leaf certificate names the host.
    fn host_name(
        &mut self,
        hs: &tls_probe::Handshake<TcpStream>,
        chain: &[Value],
        opts: &ProbeOptions,
        target: &Target,
    ) {
        let host = &target.host;
        let name = hs
            .chain
            .first()
            .map(|leaf| certs::check_host_name(leaf, host));
        let sans = chain
            .first()
            .map(|c| c["subjectAltNames"].clone())
            .unwrap_or(Value::Null);
        self.section.insert(
            "hostName".into(),
            json!({
                "host": host,
                "matches": matches!(name, Some(Ok(()))),
                "error": name.as_ref().and_then(|n| n.as_ref().err()),
            }),
        );
        self.checks.push(verdicts::hostname(
            name.as_ref(),
            host,
            &sans,
            opts.self_signed,
        ));
    }

    /// The reentrance GET of `request_target` and its verdict.
    async fn probe_reentrance<S>(
        &mut self,
        io: &mut S,
        opts: &ProbeOptions,
        target: &Target,
        request_target: &str,
    ) where
        S: AsyncRead + AsyncWrite + Unpin,
    {
        let (section, check) = reentrance(io, &target.authority, request_target, opts).await;
        self.section.insert("reentrance".into(), section);
        self.checks.push(check);
    }
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
