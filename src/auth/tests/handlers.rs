//! The headless `requestBrowserBasedLogon` handler: `true` at once while the flow runs in
//! the background (the listener withholds its answer until then, as adt-ls does), `false`
//! and a warning without a URL, the bearer provider asked at every logon and awaited before
//! the answer (bounded), background failures only logged, and no secret in any log line.

use super::support::*;
use crate::auth::reentrance_handler::ReentranceHandler;
use crate::auth::{LogonContext, TokenSource};
use crate::driver::router::ServerRequestHandler;
use crate::kernel::log::Level;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const TICKET: &str = "TICKET-handler-abcdef";

async fn answer(handler: &dyn ServerRequestHandler, params: Value) -> Value {
    tokio::time::timeout(Duration::from_millis(500), handler.handle(Some(params)))
        .await
        .expect("the handler answers at once")
        .expect("the handler does not fail")
}

#[tokio::test]
async fn answers_true_at_once_and_the_ticket_is_delivered_after_the_reply() {
    capture_logs();
    let (open_gate, gate) = tokio::sync::watch::channel(false);
    let listener = TestServer::start(None, ticket_listener(Some(gate))).await;
    let sap = TestServer::start(None, sap_endpoint(listener.port, TICKET, |a| a.is_some())).await;
    let handler = ReentranceHandler::basic("DEVELOPER", "pw-handler-flow", LogonContext::default());

    let reply = answer(&handler, browser_logon_params(&logon_url("http", sap.port))).await;
    assert_eq!(reply, json!(true));
    // As adt-ls: the delivery is answered only once the reply was sent.
    open_gate.send_replace(true);
    let delivered = listener.wait_for(1).await;
    assert!(delivered[0].target.contains(TICKET));
}

#[tokio::test]
async fn answers_true_even_while_the_sap_request_is_still_hanging() {
    let sap = TestServer::start(None, never()).await;
    let handler = ReentranceHandler::basic("U", "pw-hanging", LogonContext::default())
        .with_request_timeout(Duration::from_secs(2));
    let reply = answer(&handler, browser_logon_params(&logon_url("http", sap.port))).await;
    assert_eq!(reply, json!(true));
    assert_eq!(
        sap.wait_for(1).await.len(),
        1,
        "the background GET is in flight"
    );
}

#[tokio::test]
async fn answers_false_and_warns_without_a_url() {
    capture_logs();
    let handler = ReentranceHandler::without_credentials(LogonContext::default());
    assert_eq!(answer(&handler, json!({"params": []})).await, json!(false));
    assert!(!logged(
        Level::Warn,
        "requestBrowserBasedLogon: could not find logonUrl in params"
    )
    .is_empty());
    // A missing params object is the same.
    assert_eq!(
        tokio::time::timeout(Duration::from_millis(500), handler.handle(None))
            .await
            .unwrap()
            .unwrap(),
        json!(false)
    );

    let bearer = ReentranceHandler::bearer(
        TokenSource::Value("tok-no-url".into()),
        LogonContext::default(),
    );
    assert_eq!(answer(&bearer, json!({})).await, json!(false));
    assert!(!logged(
        Level::Warn,
        "requestBrowserBasedLogon: no logonUrl in params"
    )
    .is_empty());
}

#[tokio::test]
async fn the_bearer_provider_is_asked_at_every_logon() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(None, sap_endpoint(listener.port, TICKET, |a| a.is_some())).await;
    let tokens = Arc::new(CountingTokens {
        calls: AtomicUsize::new(0),
        fail: false,
    });
    let handler = ReentranceHandler::bearer(
        TokenSource::Provider(tokens.clone()),
        LogonContext::default(),
    );
    assert_eq!(
        tokens.calls.load(Ordering::SeqCst),
        0,
        "not at registration"
    );
    let params = browser_logon_params(&logon_url("http", sap.port));
    assert_eq!(answer(&handler, params.clone()).await, json!(true));
    listener.wait_for(1).await;
    assert_eq!(answer(&handler, params).await, json!(true));
    listener.wait_for(2).await;
    assert_eq!(tokens.calls.load(Ordering::SeqCst), 2);
    let auths: Vec<_> = sap
        .seen()
        .iter()
        .map(|s| s.header("authorization"))
        .collect();
    assert_eq!(
        auths,
        vec![
            Some("Bearer bearer-token-1".to_string()),
            Some("Bearer bearer-token-2".to_string())
        ]
    );
}

/// A token provider that answers when the test says so (never, without a sender).
struct GatedTokens(std::sync::Mutex<Option<tokio::sync::oneshot::Receiver<()>>>);

impl crate::auth::TokenProvider for GatedTokens {
    fn token(&self) -> crate::kernel::future::BoxFuture<crate::kernel::error::Result<String>> {
        let gate = self.0.lock().unwrap().take();
        Box::pin(async move {
            match gate {
                Some(g) => {
                    let _ = g.await;
                    Ok("tok-gated-1".to_string())
                }
                None => std::future::pending().await,
            }
        })
    }
}

#[tokio::test]
async fn the_bearer_provider_is_awaited_before_the_answer() {
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(None, sap_endpoint(listener.port, TICKET, |a| a.is_some())).await;
    let (settle, gate) = tokio::sync::oneshot::channel();
    let provider = Arc::new(GatedTokens(std::sync::Mutex::new(Some(gate))));
    let handler =
        ReentranceHandler::bearer(TokenSource::Provider(provider), LogonContext::default());
    let mut reply = handler.handle(Some(browser_logon_params(&logon_url("http", sap.port))));
    let early = tokio::time::timeout(Duration::from_millis(300), &mut reply).await;
    assert!(early.is_err(), "answered before the token: {early:?}");
    assert!(sap.seen().is_empty(), "no GET before the token");
    settle.send(()).unwrap();
    assert_eq!(reply.await, Ok(json!(true)));
    listener.wait_for(1).await;
    assert_eq!(
        sap.seen()[0].header("authorization"),
        Some("Bearer tok-gated-1".to_string())
    );
}

#[tokio::test(start_paused = true)]
async fn a_provider_that_never_answers_is_given_up_after_the_request_timeout() {
    capture_logs();
    let provider = Arc::new(GatedTokens(std::sync::Mutex::new(None)));
    let handler =
        ReentranceHandler::bearer(TokenSource::Provider(provider), LogonContext::default())
            .with_request_timeout(Duration::from_secs(2));
    let reply = handler.handle(Some(browser_logon_params(
        "https://127.0.0.1:9/sap/bc/adt/core/http/reentranceticket?x=1",
    )));
    assert_eq!(reply.await, Ok(json!(true)));
    assert!(!logged(
        Level::Warn,
        "bearer reentrance logon failed: the bearer token provider did not answer within 2000ms"
    )
    .is_empty());
}

#[tokio::test]
async fn a_failing_provider_is_logged_as_a_bearer_failure() {
    capture_logs();
    let sap = TestServer::start(None, fixed(500, None)).await;
    let tokens = Arc::new(CountingTokens {
        calls: AtomicUsize::new(0),
        fail: true,
    });
    let handler = ReentranceHandler::bearer(TokenSource::Provider(tokens), LogonContext::default());
    let reply = answer(&handler, browser_logon_params(&logon_url("http", sap.port))).await;
    assert_eq!(reply, json!(true));
    eventually("the provider failure warning", || {
        !logged(
            Level::Warn,
            "bearer reentrance logon failed: token endpoint unreachable",
        )
        .is_empty()
    })
    .await;
    assert!(sap.seen().is_empty(), "no request without a token");
}

#[tokio::test]
async fn background_failures_are_logged_without_secrets() {
    capture_logs();
    let password = "pw-never-logged-7f3a";
    let sap = TestServer::start(None, fixed(401, None)).await;
    let url = logon_url("http", sap.port);
    let handler = ReentranceHandler::basic("DEVELOPER", password, LogonContext::default());
    assert_eq!(
        answer(&handler, browser_logon_params(&url)).await,
        json!(true)
    );
    let shown = url.split('?').next().unwrap_or(&url).to_string();
    let expected = format!(
        "reentrance logon failed: wrong user or password, or an invalid or expired token: the SAP system refused the logon (HTTP 401 from {shown})"
    );
    eventually("the failure warning", || {
        !logged(Level::Warn, &expected).is_empty()
    })
    .await;

    // A delivery that fails (nobody listening) mentions neither ticket nor password.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let sap = TestServer::start(None, sap_endpoint(closed, TICKET, |_| true)).await;
    assert_eq!(
        answer(&handler, browser_logon_params(&logon_url("http", sap.port))).await,
        json!(true)
    );
    let needle = format!("ticket delivery to http://127.0.0.1:{closed}/adt/redirect failed");
    eventually("the delivery warning", || {
        !logged(Level::Warn, &needle).is_empty()
    })
    .await;

    let basic_header = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("DEVELOPER:{password}"),
    );
    for line in all_logged() {
        assert!(!line.contains(password), "{line}");
        assert!(!line.contains(TICKET), "{line}");
        assert!(!line.contains(&basic_header), "{line}");
    }
}
