//! Progress of one call (docs/events.md#progress): the caller's sink lives in a task-local
//! scope around the call's future, and the request builders read it: an LSP request gets a
//! `workDoneToken` in its params (adt-ls answers with `$/progress`), an MCP `tools/call` a
//! `progressToken` in `params._meta` (`notifications/progress`). Reports are routed back by
//! token and mapped to one shape, [`Report`]. Calls outside a scope pay one task-local
//! look-up and nothing else.

use serde_json::{Map, Value};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::task::futures::TaskLocalFuture;

/// One progress report: `progress` out of `total` (when known), and a message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Report {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl Report {
    /// `{ progress, total?, message? }`.
    pub(crate) fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("progress".into(), Value::from(self.progress));
        if let Some(t) = self.total {
            out.insert("total".into(), Value::from(t));
        }
        if let Some(m) = &self.message {
            out.insert("message".into(), Value::String(m.clone()));
        }
        Value::Object(out)
    }

    /// MCP `notifications/progress` params: `{progressToken, progress, total?, message?}`.
    pub(crate) fn from_mcp(params: &Value) -> Option<Report> {
        Some(Report {
            progress: params.get("progress")?.as_f64()?,
            total: params.get("total").and_then(Value::as_f64),
            message: text(params, "message"),
        })
    }

    /// LSP `$/progress` value (`WorkDoneProgressBegin/Report/End`): `percentage` becomes
    /// `progress` of `total: 100`; `begin` without one is 0, `end` is 100 of 100; the message
    /// is `message`, else the `begin` title.
    pub(crate) fn from_lsp(value: &Value) -> Option<Report> {
        let kind = value.get("kind").and_then(Value::as_str)?;
        let percentage = value.get("percentage").and_then(Value::as_f64);
        let message = text(value, "message").or_else(|| text(value, "title"));
        let (progress, total) = match (kind, percentage) {
            ("end", _) => (100.0, Some(100.0)),
            ("begin" | "report", Some(p)) => (p, Some(100.0)),
            ("begin", None) => (0.0, None),
            ("report", None) => return message.map(Report::message_only),
            _ => return None,
        };
        Some(Report {
            progress,
            total,
            message,
        })
    }

    fn message_only(message: String) -> Report {
        Report {
            progress: 0.0,
            total: None,
            message: Some(message),
        }
    }
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// Where one call's reports go, and the tokens it handed out.
pub(crate) struct Sink {
    deliver: Box<dyn Fn(Report) + Send + Sync>,
    tokens: Mutex<Vec<String>>,
}

impl Sink {
    pub(crate) fn new(deliver: impl Fn(Report) + Send + Sync + 'static) -> Arc<Sink> {
        Arc::new(Sink {
            deliver: Box::new(deliver),
            tokens: Mutex::new(Vec::new()),
        })
    }

    /// A fresh token for one request of this call.
    pub(crate) fn issue_token(&self) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let token = format!(
            "adt-ls-native-progress-{}",
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        if let Ok(mut t) = self.tokens.lock() {
            t.push(token.clone());
        }
        token
    }

    /// True for a token this sink issued.
    pub(crate) fn owns(&self, token: &str) -> bool {
        self.tokens
            .lock()
            .map(|t| t.iter().any(|x| x == token))
            .unwrap_or(false)
    }

    pub(crate) fn report(&self, report: Report) {
        (self.deliver)(report);
    }
}

tokio::task_local! {
    static CURRENT: Arc<Sink>;
}

/// The sink of the call being polled, if it asked for progress.
pub(crate) fn current() -> Option<Arc<Sink>> {
    CURRENT.try_with(Arc::clone).ok()
}

/// Run `start` (the synchronous part of a call, which may send its first request) and the
/// future it returns with `sink` as the current sink.
pub(crate) fn scoped<F, Fut>(sink: Arc<Sink>, start: F) -> TaskLocalFuture<Arc<Sink>, Fut>
where
    F: FnOnce() -> Fut,
    Fut: Future,
{
    let fut = CURRENT.sync_scope(sink.clone(), start);
    CURRENT.scope(sink, fut)
}

/// A token as a string key (`$/progress` tokens may be numbers).
pub(crate) fn token_key(token: &Value) -> Option<String> {
    match token {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lsp_values_map_to_one_shape() {
        let begin = Report::from_lsp(&json!({"kind": "begin", "title": "ATC"})).unwrap();
        assert_eq!(begin.to_json(), json!({"progress": 0.0, "message": "ATC"}));
        let report =
            Report::from_lsp(&json!({"kind": "report", "percentage": 40, "message": "2/5"}))
                .unwrap();
        assert_eq!(
            report.to_json(),
            json!({"progress": 40.0, "total": 100.0, "message": "2/5"})
        );
        let end = Report::from_lsp(&json!({"kind": "end"})).unwrap();
        assert_eq!(end.to_json(), json!({"progress": 100.0, "total": 100.0}));
        assert_eq!(Report::from_lsp(&json!({"kind": "report"})), None);
        assert_eq!(Report::from_lsp(&json!({"percentage": 3})), None);
    }

    #[test]
    fn mcp_params_map_to_one_shape() {
        let r =
            Report::from_mcp(&json!({"progressToken": "t", "progress": 2, "total": 5})).unwrap();
        assert_eq!(r.to_json(), json!({"progress": 2.0, "total": 5.0}));
        assert_eq!(Report::from_mcp(&json!({"progressToken": "t"})), None);
    }

    #[tokio::test]
    async fn the_sink_is_current_in_both_parts_of_a_scoped_call_only() {
        assert!(current().is_none());
        let sink = Sink::new(|_| {});
        let out = scoped(sink.clone(), || {
            let sync_part = current().map(|s| s.issue_token());
            async move { (sync_part, current().map(|s| s.issue_token())) }
        })
        .await;
        let (a, b) = (out.0.unwrap(), out.1.unwrap());
        assert_ne!(a, b);
        assert!(sink.owns(&a) && sink.owns(&b));
        assert!(!sink.owns("other"));
        assert!(current().is_none());
    }
}
