//! What a trace never contains (docs/tracing.md#redaction). Three passes over each message:
//! 1. by key: the value (a string, number or array) of any member named like a credential
//!    (`password`, `token`, `ticket`, `cookie`, `authorization`, `passphrase`, ... compared
//!    without case, `-` or `_`) becomes `***`;
//! 2. by position: the `token` of `adtLs/mcp/startMCPServer` (params and result) and the
//!    answers to sensitive fields of `adtLs/destinations/requestLogonInput`;
//! 3. by value: every string passes [`crate::kernel::redact::redact`] (every registered password,
//!    bearer token, MCP token, reentrance ticket and sensitive prompt answer, and URL
//!    userinfo), then loses `Basic`/`Bearer` credentials and secret query or cookie values.

use crate::kernel::redact;
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

pub(crate) const MASK: &str = "***";
pub(crate) const LOGON_INPUT: &str = "adtLs/destinations/requestLogonInput";
pub(crate) const START_MCP_SERVER: &str = "adtLs/mcp/startMCPServer";
/// Progress messages carry a `token` that is an id, not a credential.
const PROGRESS_METHODS: [&str; 2] = ["$/progress", "window/workDoneProgress/create"];

/// What the redaction rules know about one message.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct MessageContext {
    /// The message's method, or for a response the method of its request.
    pub method: Option<String>,
    pub is_response: bool,
    /// For the answer to `requestLogonInput`: the keys adt-ls marked sensitive (`None`: not
    /// known, every answered value is masked).
    pub sensitive_keys: Option<Vec<String>>,
}

/// Member names (lower case, without `-` and `_`) whose values are credentials.
const SECRET_KEYS: [&str; 22] = [
    "password",
    "passwd",
    "pwd",
    "secret",
    "clientsecret",
    "token",
    "accesstoken",
    "refreshtoken",
    "idtoken",
    "bearertoken",
    "authtoken",
    "apikey",
    "ticket",
    "reentranceticket",
    "cookie",
    "cookies",
    "setcookie",
    "authorization",
    "proxyauthorization",
    "passphrase",
    "privatekey",
    "mysapsso2",
];

fn is_secret_key(key: &str, in_progress: bool) -> bool {
    let normalized: String = key
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    if in_progress && normalized == "token" {
        return false;
    }
    SECRET_KEYS.contains(&normalized.as_str())
}

/// `Basic <b64>` / `Bearer <token>` anywhere in a string.
fn auth_scheme() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?i)\b(basic|bearer)\s+[A-Za-z0-9._~+/=-]{4,}").ok())
        .as_ref()
}

/// `name=value` of a secret query parameter or cookie (`reentrance-ticket=`, `password=`,
/// `MYSAPSSO2=`, `SAP_SESSIONID_<SID>_<client>=`, ...).
fn secret_assignment() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(^|[?&;,\s])((?:reentrance-ticket|ticket|password|passwd|pwd|token|access_token|sap-password|mysapsso2|sap_sessionid_[a-z0-9_]*)=)[^&;,\s]+",
        )
        .ok()
    })
    .as_ref()
}

/// Mask one string by value (pass 3).
pub(crate) fn redact_text(text: &str) -> String {
    let mut out = redact::redact(text);
    if let Some(re) = auth_scheme() {
        if re.is_match(&out) {
            out = re.replace_all(&out, "${1} ***").into_owned();
        }
    }
    if let Some(re) = secret_assignment() {
        if re.is_match(&out) {
            out = re.replace_all(&out, "${1}${2}***").into_owned();
        }
    }
    out
}

/// Apply every rule to `msg` in place.
pub(crate) fn redact_message(msg: &mut Value, context: &MessageContext) {
    let method = context.method.as_deref();
    if method == Some(START_MCP_SERVER) {
        let member = if context.is_response {
            "result"
        } else {
            "params"
        };
        if let Some(part) = msg.get_mut(member) {
            mask_member_everywhere(part, "token");
        }
    }
    if method == Some(LOGON_INPUT) && context.is_response {
        if let Some(result) = msg.get_mut("result") {
            mask_logon_answers(result, context.sensitive_keys.as_deref());
        }
    }
    let in_progress = method.is_some_and(|m| PROGRESS_METHODS.contains(&m));
    walk(msg, in_progress);
}

fn walk(value: &mut Value, in_progress: bool) {
    match value {
        Value::String(s) => {
            let masked = redact_text(s);
            if masked != *s {
                *s = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, in_progress)),
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                // An object under such a name (a JSON Schema's `properties.password`) is
                // searched like any other; a string, number or array is the credential.
                let credential = matches!(v, Value::String(_) | Value::Number(_) | Value::Array(_));
                if credential && is_secret_key(key, in_progress) {
                    *v = Value::String(MASK.to_string());
                } else {
                    walk(v, in_progress);
                }
            }
        }
        _ => {}
    }
}

/// `token` wherever it sits in a (possibly array-wrapped) params or result object.
fn mask_member_everywhere(value: &mut Value, member: &str) {
    match value {
        Value::Object(map) => {
            if let Some(v) = map.get_mut(member) {
                *v = Value::String(MASK.to_string());
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| mask_member_everywhere(v, member)),
        _ => {}
    }
}

/// The keys of the fields adt-ls marked sensitive in a `requestLogonInput` request.
pub(crate) fn sensitive_field_keys(params: Option<&Value>) -> Vec<String> {
    let params = match params {
        Some(Value::Array(items)) if items.len() == 1 => items.first(),
        other => other,
    };
    let Some(fields) = params
        .and_then(|p| p.get("params"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    fields
        .iter()
        .filter(|f| truthy(f.get("sensitive")) || truthy(f.pointer("/field/sensitive")))
        .filter_map(|f| {
            f.get("name")
                .and_then(Value::as_str)
                .or_else(|| f.pointer("/field/key").and_then(Value::as_str))
                .map(str::to_string)
        })
        .collect()
}

fn truthy(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty() && s != "false",
        Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0),
        _ => false,
    }
}

/// In the 1.0.0 answer `{id, fields: [{key, value}]}`, mask the values of sensitive keys
/// (every value when the request was not seen). `nonSensitiveFields` stays readable.
fn mask_logon_answers(result: &mut Value, sensitive: Option<&[String]>) {
    let Some(fields) = result.get_mut("fields").and_then(Value::as_array_mut) else {
        return;
    };
    for field in fields {
        let key = field
            .get("key")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let secret = sensitive.is_none_or(|keys| keys.contains(&key));
        if let (true, Some(value)) = (secret, field.get_mut("value")) {
            if !value.is_null() {
                *value = Value::String(MASK.to_string());
            }
        }
    }
}
