//! Strategies register the right handlers: basic/bearer/clientCert the reentrance handler
//! (clientCert without credentials), interactive the browser handler plus the input handler
//! when it can prompt, custom its own registrar with the driver and the context.

use super::support::*;
use crate::auth::destinations::LSP_REQUEST_BROWSER_LOGON;
use crate::auth::destinations::LSP_REQUEST_LOGON_INPUT;
use crate::auth::strategy::{ClientCertPem, InteractiveUi, Kind, Logon, Registrar};
use crate::auth::{LogonContext, Strategy, TokenSource};
use crate::driver::{Driver, DriverOptions};
use crate::kernel::error::Result;
use crate::kernel::future::BoxFuture;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn strategy(kind: Kind, user: Option<&str>, logon: Logon) -> Strategy {
    Strategy {
        kind,
        user: user.map(str::to_string),
        client_cert: None,
        logon,
    }
}

fn methods(s: &Strategy) -> Vec<&'static str> {
    s.builtin_handlers(&LogonContext::default())
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

#[tokio::test]
async fn basic_registers_a_handler_answering_true_with_a_url_and_false_without() {
    let s = strategy(
        Kind::Basic,
        Some("DEVELOPER"),
        Logon::Basic {
            password: "pw-strategy-basic".into(),
        },
    );
    assert_eq!(s.kind.as_str(), "basic");
    let handlers = s.builtin_handlers(&LogonContext::default());
    assert_eq!(handlers.len(), 1);
    let (method, handler) = &handlers[0];
    assert_eq!(*method, LSP_REQUEST_BROWSER_LOGON);
    let sap = TestServer::start(None, fixed(401, None)).await;
    let yes = handler.handle(Some(browser_logon_params(&logon_url("http", sap.port))));
    assert_eq!(
        tokio::time::timeout(WAIT, yes).await.unwrap(),
        Ok(json!(true))
    );
    let no = handler.handle(Some(json!({"params": []})));
    assert_eq!(
        tokio::time::timeout(WAIT, no).await.unwrap(),
        Ok(json!(false))
    );
    // The user and password go into the Basic header.
    let seen = sap.wait_for(1).await;
    let want = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        "DEVELOPER:pw-strategy-basic",
    );
    assert_eq!(
        seen[0].header("authorization"),
        Some(format!("Basic {want}"))
    );
}

#[tokio::test]
async fn bearer_and_client_cert_register_the_reentrance_handler() {
    let bearer = strategy(
        Kind::Bearer,
        Some("CB9980000001"),
        Logon::Bearer {
            token: TokenSource::Value("tok-strategy".into()),
        },
    );
    assert_eq!(methods(&bearer), vec![LSP_REQUEST_BROWSER_LOGON]);

    let mut cert = strategy(Kind::ClientCert, Some("CERTUSER"), Logon::ClientCert);
    cert.client_cert = Some(ClientCertPem::new(b"CERT".to_vec(), b"KEY".to_vec()));
    assert_eq!(
        cert.client_cert().map(|c| c.cert_pem.clone()),
        Some(b"CERT".to_vec())
    );
    assert_eq!(cert.user.as_deref(), Some("CERTUSER"));
    let handlers = cert.builtin_handlers(&LogonContext::default());
    assert_eq!(handlers.len(), 1);
    // Credential-less: the ticket request carries no Authorization header.
    let listener = TestServer::start(None, ticket_listener(None)).await;
    let sap = TestServer::start(
        None,
        sap_endpoint(listener.port, "TICKET-cert-123", |a| a.is_none()),
    )
    .await;
    let reply = handlers[0]
        .1
        .handle(Some(browser_logon_params(&logon_url("http", sap.port))));
    assert_eq!(
        tokio::time::timeout(WAIT, reply).await.unwrap(),
        Ok(json!(true))
    );
    listener.wait_for(1).await;
    assert_eq!(sap.seen()[0].header("authorization"), None);
}

#[test]
fn interactive_registers_the_input_handler_only_when_it_can_prompt() {
    let with_prompt: Arc<dyn InteractiveUi> = Arc::new(FakeUi::new(Some(&[])));
    let s = strategy(
        Kind::Interactive,
        Some("ME"),
        Logon::Interactive(with_prompt),
    );
    assert_eq!(
        methods(&s),
        vec![LSP_REQUEST_BROWSER_LOGON, LSP_REQUEST_LOGON_INPUT]
    );
    let without: Arc<dyn InteractiveUi> = Arc::new(FakeUi::new(None));
    let s = strategy(Kind::Interactive, None, Logon::Interactive(without));
    assert_eq!(methods(&s), vec![LSP_REQUEST_BROWSER_LOGON]);
}

struct RecordingRegistrar {
    calls: AtomicUsize,
    insecure_seen: Mutex<Vec<bool>>,
}

impl Registrar for RecordingRegistrar {
    fn register(&self, driver: &Driver, ctx: &LogonContext) -> BoxFuture<Result<()>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.insecure_seen.lock().unwrap().push(ctx.insecure);
        // A custom strategy may install its own handlers on the driver.
        driver.set_request_handler("my/method", Arc::new(super::support::NullHandler));
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test]
async fn custom_hands_its_registrar_the_driver_and_the_context() {
    let registrar = Arc::new(RecordingRegistrar {
        calls: AtomicUsize::new(0),
        insecure_seen: Mutex::new(Vec::new()),
    });
    let s = strategy(Kind::Custom, Some("U"), Logon::Custom(registrar.clone()));
    assert!(methods(&s).is_empty());
    let driver = Driver::new("/nonexistent/adt-ls".into(), DriverOptions::default());
    let ctx = LogonContext {
        insecure: true,
        ..LogonContext::default()
    };
    tokio::time::timeout(Duration::from_secs(5), s.register(&driver, &ctx))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(registrar.calls.load(Ordering::SeqCst), 1);
    assert_eq!(*registrar.insecure_seen.lock().unwrap(), vec![true]);
}

#[tokio::test]
async fn built_in_strategies_register_on_a_driver_without_sending_anything() {
    // The driver is not started: registering must not need a connection (no ensureLoggedOn).
    let driver = Driver::new("/nonexistent/adt-ls".into(), DriverOptions::default());
    let s = strategy(
        Kind::Basic,
        Some("U"),
        Logon::Basic {
            password: "pw-register".into(),
        },
    );
    s.register(&driver, &LogonContext::default()).await.unwrap();
    assert!(!driver.is_alive());
}
