//! URL and origin handling: the `systemUrl` (`src/tls/proxy_target.rs`) and the reentrance
//! `logonUrl` (`src/auth/logon_url.rs`, `src/auth/reentrance.rs`). The input is up to three
//! LF-separated strings: a URL, a redirect `Location`, a SAP client. Invariants: no panic;
//! an accepted `systemUrl` has a host and round-trips through its own origin; a logon URL
//! found in a payload is an http(s) run holding the ticket path; a known SAP client
//! is always present in the ticket request.
#![no_main]

use adt_ls_native::fuzzing::extract_logon_url;
use adt_ls_native::fuzzing::{delivery_url, ticket_request_url};
use adt_ls_native::fuzzing::ProxyTarget;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\n');
    let url = parts.next().unwrap_or_default();
    let location = parts.next().unwrap_or_default();
    let client = parts.next();

    if let Ok(target) = ProxyTarget::from_system_url(url) {
        assert!(!target.host.is_empty());
        let authority = target.authority();
        assert!(
            !authority.contains(['/', '@', '?', '#']),
            "authority {authority:?}"
        );
        let again = ProxyTarget::from_system_url(&target.origin());
        assert_eq!(
            again.ok(),
            Some(target.clone()),
            "origin {} does not round-trip",
            target.origin()
        );
    }

    let structured = json!({"params": [{"field": {"key": "logonUrl", "value": url}}]});
    assert_eq!(extract_logon_url(&structured).as_deref(), Some(url));
    if let Some(found) = extract_logon_url(&json!({"message": text})) {
        assert!(
            found.starts_with("http:") || found.starts_with("https:"),
            "{found:?}"
        );
        assert!(found.contains("reentranceticket"));
        assert!(!found.contains(['"', '\\']));
    }

    if let Ok(ticket) = ticket_request_url(url, client) {
        if client.is_some_and(|c| !c.is_empty()) {
            assert!(ticket.query_pairs().any(|(k, _)| k == "sap-client"));
        }
        let _ = delivery_url(&ticket, location);
    }
});
