//! `extract_logon_url`: structured, fallback-anywhere and absent cases.

use crate::auth::logon_url::extract_logon_url;
use serde_json::json;

const URL: &str = "https://h:44300/sap/bc/adt/core/http/reentranceticket?redirect-url=http%3A%2F%2Flocalhost%3A5%2Fadt%2Fredirect&_=1";

#[test]
fn the_structured_field_wins() {
    let params = json!({"id": "A4H", "params": [
        {"field": {"key": "other", "value": "https://x/reentranceticket-decoy"}},
        {"field": {"key": "logonUrl", "value": 42}},
        {"field": {"key": "logonUrl", "value": "https://anything/without-the-word"}},
        {"field": {"key": "logonUrl", "value": URL}}
    ]});
    assert_eq!(
        extract_logon_url(&params).as_deref(),
        Some("https://anything/without-the-word")
    );
}

#[test]
fn falls_back_to_any_ticket_url_in_the_payload() {
    let params = json!({"id": "A4H", "message": format!("please open {URL}"), "x": "http://nope"});
    assert_eq!(extract_logon_url(&params).as_deref(), Some(URL));
    // Nested anywhere, and a plain-http URL counts too.
    let nested =
        json!({"deep": [{"a": {"b": "http://h/sap/bc/adt/core/http/reentranceticket?x=1"}}]});
    assert_eq!(
        extract_logon_url(&nested).as_deref(),
        Some("http://h/sap/bc/adt/core/http/reentranceticket?x=1")
    );
}

#[test]
fn the_fallback_stops_at_a_quote_or_backslash() {
    // The JSON text escapes the inner quote, so the run ends at the backslash.
    let params = json!({"text": "see https://h/reentranceticket?a=1\"tail"});
    assert_eq!(
        extract_logon_url(&params).as_deref(),
        Some("https://h/reentranceticket?a=1")
    );
    // The leftmost run that contains the word wins, spaces included (as the reference's regex).
    let params = json!({"text": "http://a/b then https://c/reentranceticket"});
    assert_eq!(
        extract_logon_url(&params).as_deref(),
        Some("http://a/b then https://c/reentranceticket")
    );
    let params = json!({"a": "http://a/b", "b": "https://c/reentranceticket"});
    assert_eq!(
        extract_logon_url(&params).as_deref(),
        Some("https://c/reentranceticket")
    );
}

#[test]
fn absent_urls_give_none() {
    assert_eq!(extract_logon_url(&json!(null)), None);
    assert_eq!(extract_logon_url(&json!({"params": []})), None);
    assert_eq!(
        extract_logon_url(
            &json!({"params": [{"field": {"key": "logonUrl"}}], "u": "https://h/other"})
        ),
        None
    );
    assert_eq!(extract_logon_url(&json!("ftp://h/reentranceticket")), None);
}
