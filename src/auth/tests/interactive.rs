//! `interactive`: the answer waits for `openUrl` (at most its bound), a failing `openUrl` only
//! logs, no URL answers `false`; `requestLogonInput` in both formats, cancellation, and
//! sensitive answers kept out of logs and errors.

use super::support::*;
use crate::auth::interactive::BrowserLogonHandler;
use crate::auth::logon_input::answer_logon_input;
use crate::auth::logon_input::LogonInputHandler;
use crate::auth::{InteractiveUi, PromptField};
use crate::driver::router::ServerRequestHandler;
use crate::kernel::future::BoxFuture;
use crate::kernel::log::Level;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::sync::oneshot;

async fn answer(handler: &dyn ServerRequestHandler, params: Value) -> Result<Value, String> {
    tokio::time::timeout(WAIT, handler.handle(Some(params)))
        .await
        .expect("bounded")
}

/// An `openUrl` that settles when the test says so.
struct GatedUi {
    opened: Mutex<Vec<String>>,
    gate: Mutex<Option<oneshot::Receiver<()>>>,
}

impl InteractiveUi for GatedUi {
    fn open_url(&self, url: String) -> BoxFuture<crate::kernel::error::Result<()>> {
        self.opened.lock().unwrap().push(url);
        let gate = self.gate.lock().unwrap().take();
        Box::pin(async move {
            if let Some(gate) = gate {
                let _ = gate.await;
            }
            Ok(())
        })
    }
    fn prompt_field(
        &self,
        _: PromptField,
    ) -> Option<BoxFuture<crate::kernel::error::Result<Option<String>>>> {
        None
    }
    fn has_prompt(&self) -> bool {
        false
    }
}

#[tokio::test]
async fn answers_only_after_open_url_settled() {
    let (settle, gate) = oneshot::channel();
    let ui = Arc::new(GatedUi {
        opened: Mutex::new(Vec::new()),
        gate: Mutex::new(Some(gate)),
    });
    let handler = BrowserLogonHandler::new(ui.clone());
    let url = "https://h/sap/bc/adt/core/http/reentranceticket?redirect-url=x";
    let mut reply = handler.handle(Some(browser_logon_params(url)));
    // openUrl ran; the answer waits for its promise however long that takes.
    let early = tokio::time::timeout(Duration::from_millis(300), &mut reply).await;
    assert!(early.is_err(), "answered before openUrl settled: {early:?}");
    assert_eq!(*ui.opened.lock().unwrap(), vec![url.to_string()]);
    settle.send(()).unwrap();
    assert_eq!(answer_of(reply).await, Ok(json!(true)));
}

#[tokio::test(start_paused = true)]
async fn an_open_url_that_never_settles_is_answered_after_the_bound_with_a_warning() {
    capture_logs();
    let ui = Arc::new(FakeUi::new(None)); // its openUrl never settles
    let handler = BrowserLogonHandler::new(ui.clone()).with_open_url_wait(Duration::from_secs(3));
    let url = "https://h/sap/bc/adt/core/http/reentranceticket?never=1";
    let reply = handler.handle(Some(browser_logon_params(url)));
    assert_eq!(reply.await, Ok(json!(true)));
    assert_eq!(ui.opened.lock().unwrap().len(), 1);
    assert!(!logged(
        Level::Warn,
        "interactive openUrl has not settled after 3000ms"
    )
    .is_empty());
}

async fn answer_of(fut: BoxFuture<Result<Value, String>>) -> Result<Value, String> {
    tokio::time::timeout(WAIT, fut).await.expect("bounded")
}

#[tokio::test]
async fn a_failing_open_url_is_only_logged_and_no_url_answers_false() {
    capture_logs();
    let mut fake = FakeUi::new(None);
    fake.open_fails = true;
    let ui = Arc::new(fake);
    let handler = BrowserLogonHandler::new(ui.clone());
    let url = "https://h/sap/bc/adt/core/http/reentranceticket?fails=1";
    assert_eq!(
        answer(&handler, browser_logon_params(url)).await,
        Ok(json!(true))
    );
    eventually("the openUrl warning", || {
        !logged(
            Level::Warn,
            "interactive openUrl failed: no browser available",
        )
        .is_empty()
    })
    .await;

    assert_eq!(
        answer(&handler, json!({"id": "A4H", "params": []})).await,
        Ok(json!(false))
    );
    assert!(!logged(
        Level::Warn,
        "requestBrowserBasedLogon: could not find logonUrl in params"
    )
    .is_empty());
    assert_eq!(ui.opened.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn legacy_input_answers_id_and_fields() {
    let ui = Arc::new(FakeUi::new(Some(&[
        ("client", " 001 "),
        ("password", "legacy-pw-1"),
    ])));
    let handler = LogonInputHandler::new(ui.clone());
    let params = json!({"id": "A4H", "params": [
        {"field": {"key": "client", "label": "Client"}},
        {"field": {}},
        {"field": {"key": "password", "label": "Password", "sensitive": true}}
    ]});
    assert_eq!(
        answer(&handler, params).await,
        Ok(json!({"id": "A4H", "fields": [
            {"key": "client", "value": "001"},
            {"key": "password", "value": "legacy-pw-1"}
        ]}))
    );
    // 1.0.0 nests label and sensitive inside `field`: honoured as a fallback.
    assert_eq!(
        *ui.asked.lock().unwrap(),
        vec![
            PromptField {
                key: "client".into(),
                label: "Client".into(),
                sensitive: false
            },
            PromptField {
                key: "password".into(),
                label: "Password".into(),
                sensitive: true
            },
        ]
    );
    assert_eq!(crate::kernel::redact::redact("legacy-pw-1"), "***");
}

#[tokio::test]
async fn socket_input_sends_sensitive_fields_over_tcp_before_replying() {
    capture_logs();
    let socket = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    let received = tokio::spawn(async move {
        let (mut conn, _) = socket.accept().await.unwrap();
        let mut text = String::new();
        conn.read_to_string(&mut text).await.unwrap();
        text
    });
    let ui = Arc::new(FakeUi::new(Some(&[
        ("client", "001"),
        ("password", "  secret \n"),
    ])));
    let handler = LogonInputHandler::new(ui.clone());
    let params = json!({"id": "A4H", "title": "Logon to A4H", "sensitiveFieldsSocketPort": port, "params": [
        {"name": "client", "label": "Client", "description": "Client of the ABAP system", "sensitive": false},
        {"name": "password", "label": "Password", "sensitive": true}
    ]});
    let reply = answer(&handler, params).await;
    assert_eq!(reply, Ok(json!({"nonSensitiveFields": {"client": "001"}})));
    // Written and closed (EOF) before the reply, so the whole text is there.
    let text = tokio::time::timeout(WAIT, received).await.unwrap().unwrap();
    assert_eq!(text, r#"{"password":"secret"}"#);
    assert_eq!(
        ui.asked.lock().unwrap()[0],
        PromptField {
            key: "client".into(),
            label: "Client of the ABAP system".into(),
            sensitive: false
        }
    );
    assert!(ui.asked.lock().unwrap()[1].sensitive);
    for line in all_logged() {
        assert!(!line.contains("\"secret\""), "{line}");
    }
}

#[tokio::test]
async fn socket_input_without_sensitive_fields_opens_no_connection() {
    let ui = FakeUi::new(Some(&[("client", "001")]));
    // Port 1: a connection attempt would fail the call.
    let params =
        json!({"id": "A4H", "sensitiveFieldsSocketPort": 1, "params": [{"name": "client"}]});
    assert_eq!(
        answer_logon_input(&ui, &params).await.unwrap(),
        json!({"nonSensitiveFields": {"client": "001"}})
    );
}

#[tokio::test]
async fn empty_lists_blank_answers_and_missing_answers_cancel_with_null() {
    let ui = FakeUi::new(Some(&[("client", "   "), ("user", "DEVELOPER")]));
    assert_eq!(
        answer_logon_input(&ui, &json!({"id": "A4H", "params": []}))
            .await
            .unwrap(),
        Value::Null
    );
    assert_eq!(
        answer_logon_input(&ui, &json!({"id": "A4H"}))
            .await
            .unwrap(),
        Value::Null
    );
    let blank = json!({"id": "A4H", "params": [{"name": "user"}, {"name": "client"}]});
    assert_eq!(answer_logon_input(&ui, &blank).await.unwrap(), Value::Null);
    let missing = json!({"id": "A4H", "params": [{"name": "password", "sensitive": true}]});
    assert_eq!(
        answer_logon_input(&ui, &missing).await.unwrap(),
        Value::Null
    );
    // Only keyless fields: nothing to ask, an empty legacy answer.
    let keyless = json!({"id": "A4H", "params": [{"label": "x"}, {"name": ""}]});
    assert_eq!(
        answer_logon_input(&ui, &keyless).await.unwrap(),
        json!({"id": "A4H", "fields": []})
    );
}

#[tokio::test]
async fn an_unreachable_socket_fails_the_request_without_the_answer() {
    capture_logs();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let secret = "socket-secret-9c1e";
    let ui = Arc::new(FakeUi::new(Some(&[("password", secret)])));
    let handler = LogonInputHandler::new(ui);
    let params = json!({"id": "A4H", "sensitiveFieldsSocketPort": closed, "params": [{"name": "password", "sensitive": true}]});
    let e = answer(&handler, params).await.unwrap_err();
    assert!(
        e.starts_with(&format!(
            "requestLogonInput: could not send the sensitive fields to localhost:{closed}: "
        )),
        "{e}"
    );
    assert!(!e.contains(secret));
    for line in all_logged() {
        assert!(!line.contains(secret), "{line}");
    }
    // And the answer is masked wherever it might show up later.
    assert_eq!(
        crate::kernel::redact::redact(&format!("x {secret} y")),
        "x *** y"
    );
}

#[tokio::test]
async fn sensitive_fields_never_go_to_an_ipv6_loopback_listener() {
    capture_logs();
    // Nothing on 127.0.0.1:<port>; another local user listens on [::1]:<port>.
    let Ok(attacker) = tokio::net::TcpListener::bind("[::1]:0").await else {
        eprintln!("skipped: IPv6 loopback unavailable");
        return;
    };
    let port = attacker.local_addr().unwrap().port();
    if std::net::TcpListener::bind(("127.0.0.1", port)).is_err() {
        eprintln!("skipped: 127.0.0.1:{port} is taken");
        return;
    }
    let stolen = tokio::spawn(async move {
        let (mut conn, _) = attacker.accept().await.unwrap();
        let mut text = String::new();
        let _ = conn.read_to_string(&mut text).await;
        text
    });
    let secret = "ipv6-secret-4f2a";
    let ui = Arc::new(FakeUi::new(Some(&[("password", secret)])));
    let handler = LogonInputHandler::new(ui);
    let params = json!({"id": "A4H", "sensitiveFieldsSocketPort": port, "params": [{"name": "password", "sensitive": true}]});
    let e = answer(&handler, params).await.unwrap_err();
    assert!(e.contains(&format!("localhost:{port}")), "{e}");
    let got = tokio::time::timeout(Duration::from_millis(500), stolen).await;
    assert!(got.is_err(), "the [::1] listener received {got:?}");
}
