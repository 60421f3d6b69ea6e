//! The `interactive` strategy's `requestLogonInput` handler (docs/wire.md#logon-input): prompt the user
//! for each field adt-ls asks for, then answer in the format adt-ls used: 1.0.1+ (a
//! `sensitiveFieldsSocketPort`) gets the sensitive answers as one JSON object over TCP to
//! 127.0.0.1 (the address the JVM binds; never `localhost`/`::1`, where another local user
//! could listen, docs/decisions.md#d6) before the reply `{nonSensitiveFields}`; 1.0.0 gets `{id, fields:[{key, value}]}`.
//! An empty answer cancels (`null`). Sensitive answers are registered for redaction and
//! never logged.

use super::strategy::{InteractiveUi, PromptField};
use crate::driver::router::ServerRequestHandler;
use crate::kernel::error::{Error, Result};
use crate::kernel::future::BoxFuture;
use crate::kernel::redact;
use crate::kernel::truthy::truthy;
use serde_json::{json, Map, Value};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Bound on connecting to and writing to adt-ls's sensitive-fields socket.
const SOCKET_TIMEOUT: Duration = Duration::from_secs(10);
const DEFAULT_LABEL: &str = "Enter value";

pub(crate) struct LogonInputHandler {
    ui: Arc<dyn InteractiveUi>,
}

impl LogonInputHandler {
    pub(crate) fn new(ui: Arc<dyn InteractiveUi>) -> Self {
        LogonInputHandler { ui }
    }
}

impl ServerRequestHandler for LogonInputHandler {
    fn handle(&self, params: Option<Value>) -> BoxFuture<std::result::Result<Value, String>> {
        let ui = self.ui.clone();
        Box::pin(async move {
            answer_logon_input(ui.as_ref(), &params.unwrap_or(Value::Null))
                .await
                .map_err(|e| redact::redact(&e.message))
        })
    }
}

/// One field as adt-ls describes it.
fn prompt_for(item: &Value) -> Option<PromptField> {
    let key = match item.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(Value::Null) | None => item
            .pointer("/field/key")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        Some(_) => String::new(),
    };
    if key.is_empty() {
        return None;
    }
    // 1.0.0 nests `label` / `sensitive` inside `field`; they are the fallback (the
    // reference ignores them, which would show a 1.0.0 password prompt in clear text).
    let nested = item.get("field");
    let label = [
        item.get("description"),
        item.get("label"),
        nested.and_then(|f| f.get("label")),
    ]
    .into_iter()
    .flatten()
    .find(|v| !v.is_null())
    .map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
    .unwrap_or_else(|| DEFAULT_LABEL.to_string());
    let sensitive = item.get("sensitive").is_some_and(truthy)
        || nested.and_then(|f| f.get("sensitive")).is_some_and(truthy);
    Some(PromptField {
        key,
        label,
        sensitive,
    })
}

/// The reply to one `requestLogonInput` (`Value::Null` = cancelled / nothing asked).
pub(crate) async fn answer_logon_input(ui: &dyn InteractiveUi, params: &Value) -> Result<Value> {
    let items = params
        .get("params")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if items.is_empty() {
        return Ok(Value::Null);
    }
    let port = params
        .get("sensitiveFieldsSocketPort")
        .filter(|p| truthy(p));
    let mut legacy = Vec::new();
    let mut sensitive = Map::new();
    let mut non_sensitive = Map::new();
    for field in items.iter().filter_map(prompt_for) {
        let Some(answer) = ask(ui, field.clone()).await? else {
            return Ok(Value::Null);
        };
        if field.sensitive {
            redact::register(&answer);
        }
        if port.is_none() {
            legacy.push(json!({"key": field.key, "value": answer}));
        } else if field.sensitive {
            sensitive.insert(field.key, Value::String(answer));
        } else {
            non_sensitive.insert(field.key, Value::String(answer));
        }
    }
    let Some(port) = port else {
        let mut reply = Map::new();
        if let Some(id) = params.get("id") {
            reply.insert("id".into(), id.clone());
        }
        reply.insert("fields".into(), Value::Array(legacy));
        return Ok(Value::Object(reply));
    };
    if !sensitive.is_empty() {
        send_sensitive_fields(socket_port(port)?, &Value::Object(sensitive)).await?;
    }
    Ok(json!({"nonSensitiveFields": non_sensitive}))
}

/// Prompt once; `None` when the user gave nothing (no callback, no answer, or blank).
async fn ask(ui: &dyn InteractiveUi, field: PromptField) -> Result<Option<String>> {
    let Some(pending) = ui.prompt_field(field) else {
        return Ok(None);
    };
    let answer = pending.await?;
    Ok(answer
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty()))
}

fn socket_port(value: &Value) -> Result<u16> {
    let port = match value {
        Value::Number(n) => n.as_u64().and_then(|p| u16::try_from(p).ok()),
        Value::String(s) => s.trim().parse::<u16>().ok(),
        _ => None,
    };
    port.filter(|p| *p != 0).ok_or_else(|| {
        Error::new(format!(
            "requestLogonInput: invalid sensitiveFieldsSocketPort {value}"
        ))
    })
}

/// Write `fields` as one JSON text to 127.0.0.1:`port` and close. The texts keep the
/// reference's `localhost:<port>` wording.
async fn send_sensitive_fields(port: u16, fields: &Value) -> Result<()> {
    let text = fields.to_string();
    let send = async {
        let mut stream = connect_localhost(port).await?;
        stream.write_all(text.as_bytes()).await?;
        stream.shutdown().await?;
        Ok::<(), std::io::Error>(())
    };
    match tokio::time::timeout(SOCKET_TIMEOUT, send).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(Error::from(e).prefixed(&format!(
            "requestLogonInput: could not send the sensitive fields to localhost:{port}: "
        ))),
        Err(_) => Err(Error::coded(
            crate::kernel::error::codes::TIMEOUT,
            format!(
                "requestLogonInput: sending the sensitive fields to localhost:{port} timed out after {}ms",
                SOCKET_TIMEOUT.as_millis()
            ),
        )),
    }
}

/// adt-ls (a JVM) binds its sensitive-fields socket on 127.0.0.1. No IPv6 fallback: a
/// listener on `[::1]:<port>` may belong to another local user (docs/decisions.md#d6).
async fn connect_localhost(port: u16) -> std::io::Result<TcpStream> {
    TcpStream::connect(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)).await
}
