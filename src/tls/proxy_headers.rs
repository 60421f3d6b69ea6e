//! Header rules of the reverse proxy. End-to-end headers pass verbatim — `Host` included
//! (SAP builds the reentrance `logonUrl` from it), every `Set-Cookie` kept as its own line.
//! Hop-by-hop headers describe one connection and are dropped on both hops; hyper then frames
//! each hop's body itself (Content-Length when known, chunked otherwise). This is what Node
//! does implicitly and what hyper insists on.

use hyper::header::{HeaderMap, HeaderName, HeaderValue, CONNECTION, EXPECT, HOST};

/// Always connection-specific (RFC 9110 §7.6.1, plus the legacy `Proxy-Connection`).
const HOP_BY_HOP: [&str; 7] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "upgrade",
    "transfer-encoding",
];

/// Remove the hop-by-hop headers, including those the `Connection` header names. The
/// remaining headers keep their order (a plain `HeaderMap::remove` would reorder them).
pub(super) fn strip_hop_by_hop(headers: &mut HeaderMap) {
    strip(headers, &[]);
}

/// [`strip_hop_by_hop`], also dropping `also_drop`.
fn strip(headers: &mut HeaderMap, also_drop: &[HeaderName]) {
    let named: Vec<HeaderName> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|token| HeaderName::from_bytes(token.trim().as_bytes()).ok())
        .filter(|name| *name != HOST)
        .collect();
    let is_hop = |name: &HeaderName| {
        HOP_BY_HOP.contains(&name.as_str()) || named.contains(name) || also_drop.contains(name)
    };
    if !headers.keys().any(is_hop) {
        return;
    }
    let mut kept = HeaderMap::with_capacity(headers.len());
    let mut current: Option<HeaderName> = None;
    for (name, value) in std::mem::take(headers) {
        // `HeaderMap::into_iter` yields the name only with the first of its values.
        if let Some(name) = name {
            current = Some(name);
        }
        if let Some(name) = current.as_ref().filter(|n| !is_hop(n)) {
            kept.append(name.clone(), value);
        }
    }
    *headers = kept;
}

/// Headers for the upstream request. `Expect: 100-continue` was already answered to the
/// client by our server side, so it is not repeated upstream. `forced_host` overwrites Host
/// (forward-proxy mode).
pub(super) fn upstream_request_headers(headers: &mut HeaderMap, forced_host: Option<&str>) {
    strip(headers, &[EXPECT]);
    if let Some(host) = forced_host {
        if let Ok(value) = HeaderValue::from_str(host) {
            headers.insert(HOST, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (k, v) in pairs {
            headers.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        headers
    }

    #[test]
    fn hop_by_hop_and_connection_named_headers_go_end_to_end_ones_stay() {
        let mut h = map(&[
            ("host", "localhost:1234"),
            ("connection", "keep-alive, X-Private, host"),
            ("keep-alive", "timeout=5"),
            ("x-private", "1"),
            ("transfer-encoding", "chunked"),
            ("set-cookie", "a=1"),
            ("set-cookie", "b=2"),
            ("content-length", "5"),
            ("upgrade", "websocket"),
            ("te", "trailers"),
        ]);
        strip_hop_by_hop(&mut h);
        let names: Vec<&str> = h.keys().map(|k| k.as_str()).collect();
        assert_eq!(names, ["host", "set-cookie", "content-length"]);
        let cookies: Vec<&str> = h
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(cookies, ["a=1", "b=2"]);
        assert_eq!(h.get_all("set-cookie").iter().count(), 2);
    }

    #[test]
    fn forward_mode_overwrites_host_and_expect_is_dropped() {
        let mut h = map(&[("host", "localhost:1234"), ("expect", "100-continue")]);
        upstream_request_headers(&mut h, Some("sap.example.com:443"));
        assert_eq!(h.get("host").unwrap(), "sap.example.com:443");
        assert!(h.get("expect").is_none());
    }
}
