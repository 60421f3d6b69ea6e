//! The `adtLs/destinations/*` requests the client sends (docs/wire.md#destinations): the
//! method names, `initializeService`, `create` (a reentrance-ticket destination, never a
//! password), `ensureLoggedOn` (bounded, docs/decisions.md#d5-3), `getLogonInfo`, and the
//! `LogonInfo` result shape.

use crate::kernel::error::{codes, Error, Result};
use crate::lsp::LspRequester;
use serde_json::{json, Map, Value};
use std::time::Duration;

pub(crate) const LSP_REQUEST_BROWSER_LOGON: &str = "adtLs/destinations/requestBrowserBasedLogon";
pub(crate) const LSP_REQUEST_LOGON_INPUT: &str = "adtLs/destinations/requestLogonInput";
/// A notification `{destinationId, logonState}`; the client does not need it.
pub(crate) const LSP_LOGON_STATE_CHANGED: &str = "adtLs/destinations/logonStateChanged";
#[cfg(test)]
/// Declared by the reference, never sent (openADT names it `stopLogonAttempt`).
pub(crate) const LSP_STOP_LOGON: &str = "adtLs/destinations/stopLogon";
pub(crate) const LSP_INITIALIZE_SERVICE: &str = "adtLs/destinations/initializeService";
pub(crate) const LSP_CREATE_DESTINATION: &str = "adtLs/destinations/create";
pub(crate) const LSP_ENSURE_LOGGED_ON: &str = "adtLs/destinations/ensureLoggedOn";
pub(crate) const LSP_GET_LOGON_INFO: &str = "adtLs/destinations/getLogonInfo";

/// Client and language when the caller gives none.
pub(crate) const DEFAULT_CLIENT: &str = "001";
pub(crate) const DEFAULT_LANGUAGE: &str = "EN";

/// What `create` needs. There is deliberately no password field.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DestinationConfig {
    pub id: String,
    /// `https://...` (the local TLS proxy, or a backend with a trusted certificate).
    pub system_url: String,
    /// Recorded on the destination when non-empty.
    pub user: Option<String>,
    /// Defaults to `001`.
    pub client: Option<String>,
    /// Defaults to `EN`.
    pub language: Option<String>,
}

/// The params of `initializeService`. An empty path would select the global
/// `~/.adtls/destinations.json` shared with the user's IDEs, so it is refused.
pub(crate) fn initialize_service_params(store_path: &str) -> Result<Value> {
    if store_path.is_empty() {
        return Err(Error::coded(
            codes::INVALID_ARG,
            "initializeService: the destinations store path must not be empty \
             (adt-ls would use the global ~/.adtls/destinations.json)",
        ));
    }
    Ok(json!({
        "destinationsStorePath": store_path,
        "workspaceFolderUris": [],
        "fileUris": [],
    }))
}

/// The params of `create`, keys in the reference's order.
pub(crate) fn create_destination_params(cfg: &DestinationConfig) -> Value {
    let mut properties = Map::new();
    properties.insert("systemUrl".into(), json!(cfg.system_url));
    properties.insert("authenticationKind".into(), json!("reentranceTicket"));
    if let Some(user) = cfg.user.as_deref().filter(|u| !u.is_empty()) {
        properties.insert("user".into(), json!(user));
    }
    let client = cfg.client.as_deref().unwrap_or(DEFAULT_CLIENT);
    properties.insert("client".into(), json!(client));
    let language = cfg.language.as_deref().unwrap_or(DEFAULT_LANGUAGE);
    properties.insert("language".into(), json!(language));
    json!({"id": cfg.id, "protocol": "http", "properties": properties})
}

/// `adtLs/destinations/initializeService {destinationsStorePath, workspaceFolderUris:[], fileUris:[]}`.
pub(crate) async fn initialize_service(lsp: &dyn LspRequester, store_path: &str) -> Result<Value> {
    let params = initialize_service_params(store_path)?;
    lsp.send_request(LSP_INITIALIZE_SERVICE, Some(params)).await
}

/// `adtLs/destinations/create`; adt-ls answers with the id.
pub(crate) async fn create_destination(
    lsp: &dyn LspRequester,
    cfg: &DestinationConfig,
) -> Result<Value> {
    lsp.send_request(LSP_CREATE_DESTINATION, Some(create_destination_params(cfg)))
        .await
}

/// `adtLs/destinations/ensureLoggedOn` with the bare id (`["<id>"]` on the wire). adt-ls
/// answers only when the logon has finished, so the wait is bounded by `timeout`.
pub(crate) async fn ensure_logged_on(
    lsp: &dyn LspRequester,
    destination_id: &str,
    timeout: Duration,
) -> Result<Value> {
    let request =
        lsp.send_request_within(LSP_ENSURE_LOGGED_ON, Some(json!(destination_id)), timeout);
    request.await.map_err(|e| {
        if e.has_code(codes::TIMEOUT) {
            Error::coded(
                codes::TIMEOUT,
                format!(
                    "ensureLoggedOn for destination {destination_id} timed out after {}ms",
                    timeout.as_millis()
                ),
            )
        } else {
            e
        }
    })
}

/// `adtLs/destinations/getLogonInfo` with the bare id.
pub(crate) async fn get_logon_info(lsp: &dyn LspRequester, destination_id: &str) -> Result<Value> {
    lsp.send_request(LSP_GET_LOGON_INFO, Some(json!(destination_id)))
        .await
}

/// The result of `ensureLoggedOn` / `getLogonInfo`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LogonInfo {
    pub destination_id: String,
    pub user: Option<String>,
    /// `connected`, `disconnected`, `pending`, or whatever else adt-ls reports.
    pub logon_state: String,
    pub message: Option<String>,
}

impl LogonInfo {
    /// Read a result; `None` unless it is an object with string `destinationId` and
    /// `logonState`.
    pub(crate) fn parse(value: &Value) -> Option<LogonInfo> {
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
        Some(LogonInfo {
            destination_id: text("destinationId")?,
            user: text("user"),
            logon_state: text("logonState")?,
            message: text("message"),
        })
    }

    pub(crate) fn is_connected(&self) -> bool {
        self.logon_state == "connected"
    }

    #[cfg(test)]
    /// Back to the wire shape (absent optional fields omitted).
    pub(crate) fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("destinationId".into(), json!(self.destination_id));
        if let Some(user) = &self.user {
            map.insert("user".into(), json!(user));
        }
        map.insert("logonState".into(), json!(self.logon_state));
        if let Some(message) = &self.message {
            map.insert("message".into(), json!(message));
        }
        Value::Object(map)
    }
}
