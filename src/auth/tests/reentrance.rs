//! The reentrance flow itself ("browser emulation"): Basic header, 307 followed to the
//! ticket listener with localhost -> 127.0.0.1, no header without credentials, the missing
//! Location error, sap-client, and HTTPS (insecure, extraCaCerts, verification failure).

use super::support::*;
use crate::auth::reentrance::perform_reentrance_logon;
use crate::auth::reentrance::Credentials;
use crate::auth::reentrance::{delivery_url, ticket_request_url};
use crate::auth::LogonContext;
use crate::kernel::error::Error;
use crate::tls::cert::generate_localhost_cert;
use base64::Engine as _;

const TICKET: &str = "TICKET-reentrance-0123456789";

fn basic() -> Credentials {
    Credentials::Basic {
        user: "DEVELOPER".into(),
        password: "Developer#1-flow".into(),
    }
}

/// The context that lets credentials go to `origin` only.
fn origin_only(origin: &str) -> LogonContext {
    LogonContext {
        credential_origins: vec![reqwest::Url::parse(origin).unwrap()],
        ..LogonContext::default()
    }
}

/// A Basic logon through the plain-http system on `port` under `ctx`, refused for the
/// credentials' origin: the error.
async fn refused_for_origin(port: u16, ctx: &LogonContext) -> Error {
    let e = perform_reentrance_logon(&logon_url("http", port), Some(basic()), ctx)
        .await
        .unwrap_err();
    assert!(
        e.has_code(crate::kernel::error::codes::CREDENTIALS_ORIGIN),
        "{e:?}"
    );
    e
}

fn expected_basic() -> String {
    let raw = base64::engine::general_purpose::STANDARD.encode("DEVELOPER:Developer#1-flow");
    format!("Basic {raw}")
}

#[tokio::test]
async fn basic_auth_follows_the_307_to_the_listener_on_127_0_0_1_and_the_ticket_arrives() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let want = expected_basic();
    let sap = TestServer::start(
        None,
        sap_endpoint(listener.port, TICKET, move |auth| {
            auth == Some(want.as_str())
        }),
    )
    .await;
    let url = logon_url("http", sap.port);
    perform_reentrance_logon(&url, Some(basic()), &LogonContext::default())
        .await
        .unwrap();

    let ticket_request = &sap.seen()[0];
    assert_eq!(
        ticket_request.header("authorization"),
        Some(expected_basic())
    );
    assert!(ticket_request
        .target
        .starts_with("/sap/bc/adt/core/http/reentranceticket?redirect-url="));
    assert_eq!(
        sap.seen().len(),
        1,
        "the redirect is not followed by the HTTP client"
    );

    let delivery = &listener.seen()[0];
    assert_eq!(
        delivery.target,
        format!("/adt/redirect?state=1&reentrance-ticket={TICKET}")
    );
    assert_eq!(
        delivery.header("host"),
        Some(format!("127.0.0.1:{}", listener.port))
    );
    assert_eq!(delivery.header("authorization"), None);
    assert_eq!(
        listener.seen().len(),
        1,
        "the listener's 302 is not followed"
    );
}

#[tokio::test]
async fn without_credentials_no_authorization_header_is_sent() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(
        None,
        sap_endpoint(listener.port, TICKET, |auth| auth.is_none()),
    )
    .await;
    perform_reentrance_logon(&logon_url("http", sap.port), None, &LogonContext::default())
        .await
        .unwrap();
    assert_eq!(sap.seen()[0].header("authorization"), None);
    assert_eq!(listener.wait_for(1).await.len(), 1);
}

#[tokio::test]
async fn bearer_sends_the_token() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(
        None,
        sap_endpoint(listener.port, TICKET, |auth| {
            auth == Some("Bearer tok-flow-123")
        }),
    )
    .await;
    let creds = Credentials::Bearer("tok-flow-123".into());
    perform_reentrance_logon(
        &logon_url("http", sap.port),
        Some(creds),
        &LogonContext::default(),
    )
    .await
    .unwrap();
    assert_eq!(listener.wait_for(1).await.len(), 1);
}

#[tokio::test]
async fn a_response_without_location_is_an_error_that_names_the_status_and_url() {
    let sap = TestServer::start(None, fixed(401, None)).await;
    let url = logon_url("http", sap.port);
    let e = perform_reentrance_logon(&url, Some(basic()), &LogonContext::default())
        .await
        .unwrap_err();
    assert_eq!(
        e.message,
        format!("reentrance: no redirect Location (status 401) from {url}")
    );
    assert!(!e.message.contains("Developer#1-flow"));
}

#[tokio::test]
async fn sap_client_is_added_when_known_and_absent() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(None, sap_endpoint(listener.port, TICKET, |_| true)).await;
    let ctx = LogonContext {
        sap_client: Some("100".into()),
        ..LogonContext::default()
    };
    perform_reentrance_logon(&logon_url("http", sap.port), None, &ctx)
        .await
        .unwrap();
    let target = &sap.seen()[0].target;
    assert!(target.ends_with("&_=1&sap-client=100"), "{target}");

    // A URL that already names a client is left alone.
    let with_client = format!("{}&sap-client=200", logon_url("http", sap.port));
    perform_reentrance_logon(&with_client, None, &ctx)
        .await
        .unwrap();
    let target = &sap.seen()[1].target;
    assert!(target.ends_with("&sap-client=200"), "{target}");
    assert_eq!(target.matches("sap-client").count(), 1);
}

#[test]
fn url_helpers() {
    let u = ticket_request_url("https://h:1/p?redirect-url=x%2Fy", Some("001")).unwrap();
    assert_eq!(
        u.as_str(),
        "https://h:1/p?redirect-url=x%2Fy&sap-client=001"
    );
    let u = ticket_request_url("https://h:1/p", None).unwrap();
    assert_eq!(u.as_str(), "https://h:1/p");
    assert!(ticket_request_url("not a url", None).is_err());

    let base = ticket_request_url("https://h:1/p", None).unwrap();
    let d = delivery_url(&base, "http://localhost:9/adt/redirect?t=localhost").unwrap();
    assert_eq!(d.as_str(), "http://127.0.0.1:9/adt/redirect?t=localhost");
    let d = delivery_url(&base, "/adt/redirect?t=1").unwrap();
    assert_eq!(d.as_str(), "https://h:1/adt/redirect?t=1");
}

#[tokio::test]
async fn https_self_signed_works_insecure_and_with_the_ca_but_fails_verified_without_it() {
    let cert = generate_localhost_cert().unwrap();
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(Some(&cert), sap_endpoint(listener.port, TICKET, |_| true)).await;
    let url = logon_url("https", sap.port);

    let insecure = LogonContext {
        insecure: true,
        ..LogonContext::default()
    };
    perform_reentrance_logon(&url, Some(basic()), &insecure)
        .await
        .unwrap();
    assert_eq!(listener.wait_for(1).await.len(), 1);

    let verified = LogonContext::default();
    let e = perform_reentrance_logon(&url, Some(basic()), &verified)
        .await
        .unwrap_err();
    assert!(
        e.message
            .starts_with(&format!("reentrance: GET {url} failed: ")),
        "{}",
        e.message
    );
    assert!(
        e.message.to_lowercase().contains("certificate"),
        "{}",
        e.message
    );
    assert_eq!(listener.seen().len(), 1);

    let with_ca = LogonContext {
        extra_ca_pems: vec![cert.cert_pem.clone().into_bytes()],
        ..LogonContext::default()
    };
    perform_reentrance_logon(&url, Some(basic()), &with_ca)
        .await
        .unwrap();
    assert_eq!(listener.wait_for(2).await.len(), 2);
}

#[tokio::test]
async fn a_failed_delivery_names_the_listener_but_never_the_ticket() {
    // A listener port with nobody behind it.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let sap = TestServer::start(None, sap_endpoint(closed, TICKET, |_| true)).await;
    let e = perform_reentrance_logon(&logon_url("http", sap.port), None, &LogonContext::default())
        .await
        .unwrap_err();
    assert!(
        e.message.starts_with(&format!(
            "reentrance: ticket delivery to http://127.0.0.1:{closed}/adt/redirect failed: "
        )),
        "{}",
        e.message
    );
    assert!(!e.message.contains(TICKET));
}

#[tokio::test]
async fn credentials_go_only_to_the_destinations_origin_and_nothing_is_sent_elsewhere() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let foreign = TestServer::start(None, sap_endpoint(listener.port, TICKET, |_| true)).await;
    let ctx = origin_only("https://sap.example.com");
    let e = refused_for_origin(foreign.port, &ctx).await;
    assert!(
        e.message.contains("no credentials were sent"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("Developer#1-flow"));
    assert!(
        foreign.seen().is_empty(),
        "nothing reached the foreign host"
    );

    // Plain http to the system's own host and port is refused when the system is https.
    let own = TestServer::start(None, sap_endpoint(listener.port, TICKET, |_| true)).await;
    let ctx = origin_only(&format!("https://127.0.0.1:{}", own.port));
    refused_for_origin(own.port, &ctx).await;
    assert!(own.seen().is_empty());

    // An http:// system accepts its own origin.
    let ctx = origin_only(&format!("http://127.0.0.1:{}", own.port));
    perform_reentrance_logon(&logon_url("http", own.port), Some(basic()), &ctx)
        .await
        .unwrap();
    assert_eq!(own.seen().len(), 1);
}
