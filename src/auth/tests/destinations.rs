//! Destination requests: param shapes (key order included), the bare id on the wire, the
//! bounded ensureLoggedOn and the LogonInfo shape.

use super::support::RecordingRequester;
use crate::auth::destinations::create_destination;
use crate::auth::destinations::ensure_logged_on;
use crate::auth::destinations::get_logon_info;
use crate::auth::destinations::initialize_service;
use crate::auth::destinations::DestinationConfig;
use crate::auth::destinations::LogonInfo;
use crate::auth::destinations::{create_destination_params, initialize_service_params};
use crate::kernel::error::codes;
use crate::lsp::params::encode_params;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn initialize_service_sends_the_store_path_and_empty_lists() {
    let lsp = RecordingRequester::answering(json!(null));
    initialize_service(&lsp, "/tmp/work/destinations.json")
        .await
        .unwrap();
    let (method, params) = lsp.last();
    assert_eq!(method, "adtLs/destinations/initializeService");
    assert_eq!(
        serde_json::to_string(&params.unwrap()).unwrap(),
        r#"{"destinationsStorePath":"/tmp/work/destinations.json","workspaceFolderUris":[],"fileUris":[]}"#
    );
}

#[tokio::test]
async fn an_empty_store_path_is_refused_before_anything_is_sent() {
    let lsp = RecordingRequester::answering(json!(null));
    let e = initialize_service(&lsp, "").await.unwrap_err();
    assert!(e.has_code(codes::INVALID_ARG));
    assert!(e.message.contains("global"), "{}", e.message);
    assert!(lsp.sent.lock().unwrap().is_empty());
    assert!(initialize_service_params("").is_err());
}

#[tokio::test]
async fn create_uses_http_reentrance_ticket_and_the_defaults_and_never_a_password() {
    let lsp = RecordingRequester::answering(json!("A4H"));
    let cfg = DestinationConfig {
        id: "A4H".into(),
        system_url: "https://localhost:4711".into(),
        user: Some("DEVELOPER".into()),
        client: None,
        language: None,
    };
    let id = create_destination(&lsp, &cfg).await.unwrap();
    assert_eq!(id, json!("A4H"));
    let (method, params) = lsp.last();
    assert_eq!(method, "adtLs/destinations/create");
    let text = serde_json::to_string(&params.unwrap()).unwrap();
    assert_eq!(
        text,
        r#"{"id":"A4H","protocol":"http","properties":{"systemUrl":"https://localhost:4711","authenticationKind":"reentranceTicket","user":"DEVELOPER","client":"001","language":"EN"}}"#
    );
    assert!(!text.to_lowercase().contains("password"));
}

#[test]
fn create_omits_an_empty_user_and_keeps_given_client_and_language() {
    for user in [None, Some(String::new())] {
        let cfg = DestinationConfig {
            id: "X".into(),
            system_url: "https://h".into(),
            user,
            client: Some("100".into()),
            language: Some("DE".into()),
        };
        assert_eq!(
            create_destination_params(&cfg),
            json!({"id": "X", "protocol": "http", "properties": {
                "systemUrl": "https://h", "authenticationKind": "reentranceTicket",
                "client": "100", "language": "DE"}})
        );
    }
}

#[tokio::test]
async fn ensure_logged_on_and_get_logon_info_send_the_bare_id() {
    let info = json!({"destinationId": "A4H", "user": "DEVELOPER", "logonState": "connected"});
    let lsp = RecordingRequester::answering(info.clone());
    let got = ensure_logged_on(&lsp, "A4H", Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(got, info);
    let (method, params) = lsp.last();
    assert_eq!(method, "adtLs/destinations/ensureLoggedOn");
    assert_eq!(params, Some(json!("A4H")));
    assert_eq!(encode_params(params), json!(["A4H"]));

    get_logon_info(&lsp, "A4H").await.unwrap();
    let (method, params) = lsp.last();
    assert_eq!(method, "adtLs/destinations/getLogonInfo");
    assert_eq!(encode_params(params), json!(["A4H"]));
}

#[tokio::test]
async fn ensure_logged_on_is_bounded_with_a_clear_coded_error() {
    let lsp = RecordingRequester::silent();
    let e = ensure_logged_on(&lsp, "A4H", Duration::from_millis(50))
        .await
        .unwrap_err();
    assert!(e.has_code(codes::TIMEOUT));
    assert_eq!(
        e.message,
        "ensureLoggedOn for destination A4H timed out after 50ms"
    );
}

#[test]
fn logon_info_parses_and_round_trips() {
    let full = json!({"destinationId": "A4H", "user": "U", "logonState": "disconnected", "message": "bad"});
    let info = LogonInfo::parse(&full).unwrap();
    assert_eq!(info.destination_id, "A4H");
    assert_eq!(info.user.as_deref(), Some("U"));
    assert!(!info.is_connected());
    assert_eq!(info.message.as_deref(), Some("bad"));
    assert_eq!(info.to_json(), full);

    let minimal = json!({"destinationId": "A4H", "logonState": "connected"});
    let info = LogonInfo::parse(&minimal).unwrap();
    assert!(info.is_connected());
    assert_eq!(info.to_json(), minimal);

    assert_eq!(LogonInfo::parse(&json!({"logonState": "connected"})), None);
    assert_eq!(LogonInfo::parse(&json!("A4H")), None);
}
