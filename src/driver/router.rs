//! Routing of server->client requests (the reference's `routeServerRequest`): a registered
//! handler always wins; otherwise `workspace/configuration` is answered with one `null` per
//! requested item (a bare `null` breaks adt-ls's destination initialisation) and every other
//! request with `null`. Notifications go to registered listeners and are otherwise dropped;
//! `$/progress` also goes to the progress sink of the request that sent its token.

use crate::kernel::future::BoxFuture;
use crate::kernel::progress::{self, Report, Sink};
use crate::lsp::{NotificationSink, RequestRouter};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

const PROGRESS: &str = "$/progress";

/// A handler for one server->client request method. `Err(message)` is answered as a
/// JSON-RPC error `Request <method> failed with message: <message>`.
pub(crate) trait ServerRequestHandler: Send + Sync + 'static {
    fn handle(&self, params: Option<Value>) -> BoxFuture<Result<Value, String>>;
}

/// A listener for one server notification method.
pub(crate) type NotificationListener = Arc<dyn Fn(Option<Value>) + Send + Sync>;

#[derive(Default)]
pub(crate) struct Router {
    handlers: RwLock<HashMap<String, Arc<dyn ServerRequestHandler>>>,
    listeners: RwLock<HashMap<String, Vec<(u64, NotificationListener)>>>,
    next_listener: AtomicU64,
    /// `workDoneToken` -> the sink of the request in flight that sent it.
    progress: Mutex<HashMap<String, Arc<Sink>>>,
}

/// Unregisters a progress token when the request is over (dropped with its future).
pub(crate) struct ProgressRoute {
    router: Arc<Router>,
    token: String,
}

impl Drop for ProgressRoute {
    fn drop(&mut self) {
        if let Ok(mut map) = self.router.progress.lock() {
            map.remove(&self.token);
        }
    }
}

impl Router {
    pub(crate) fn set_handler(&self, method: &str, handler: Arc<dyn ServerRequestHandler>) {
        if let Ok(mut map) = self.handlers.write() {
            map.insert(method.to_string(), handler);
        }
    }

    #[cfg(test)]
    pub(crate) fn remove_handler(&self, method: &str) {
        if let Ok(mut map) = self.handlers.write() {
            map.remove(method);
        }
    }

    /// Drop every handler (releases the JS callbacks they hold).
    pub(crate) fn clear_handlers(&self) {
        if let Ok(mut map) = self.handlers.write() {
            map.clear();
        }
        if let Ok(mut map) = self.listeners.write() {
            map.clear();
        }
    }

    /// Add a listener; the id removes it again ([`Router::remove_listener`]).
    pub(crate) fn add_listener(&self, method: &str, listener: NotificationListener) -> u64 {
        let id = self.next_listener.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut map) = self.listeners.write() {
            map.entry(method.to_string())
                .or_default()
                .push((id, listener));
        }
        id
    }

    /// Remove the listener `id` added for `method`; false when it was not there.
    pub(crate) fn remove_listener(&self, method: &str, id: u64) -> bool {
        let Ok(mut map) = self.listeners.write() else {
            return false;
        };
        let Some(list) = map.get_mut(method) else {
            return false;
        };
        let before = list.len();
        list.retain(|(i, _)| *i != id);
        let removed = list.len() != before;
        if list.is_empty() {
            map.remove(method);
        }
        removed
    }

    /// Route `$/progress` with `token` to `sink` until the returned guard is dropped.
    pub(crate) fn route_progress(
        self: &Arc<Self>,
        token: String,
        sink: Arc<Sink>,
    ) -> ProgressRoute {
        if let Ok(mut map) = self.progress.lock() {
            map.insert(token.clone(), sink);
        }
        ProgressRoute {
            router: self.clone(),
            token,
        }
    }

    fn progress_sink(&self, params: Option<&Value>) -> Option<(Arc<Sink>, Report)> {
        let params = params?;
        let token = progress::token_key(params.get("token")?)?;
        let sink = self.progress.lock().ok()?.get(&token).cloned()?;
        Some((sink, Report::from_lsp(params.get("value")?)?))
    }

    fn handler(&self, method: &str) -> Option<Arc<dyn ServerRequestHandler>> {
        self.handlers
            .read()
            .ok()
            .and_then(|m| m.get(method).cloned())
    }
}

/// The default answer for a method without a handler.
pub(crate) fn default_answer(method: &str, params: Option<&Value>) -> Value {
    if method == "workspace/configuration" {
        let items = params
            .and_then(|p| p.get("items"))
            .and_then(Value::as_array)
            .map(Vec::len)
            .unwrap_or(0);
        return Value::Array(vec![Value::Null; items]);
    }
    Value::Null
}

impl RequestRouter for Router {
    fn route(&self, method: &str, params: Option<Value>) -> BoxFuture<Result<Value, String>> {
        match self.handler(method) {
            Some(handler) => handler.handle(params),
            None => {
                let answer = default_answer(method, params.as_ref());
                Box::pin(async move { Ok(answer) })
            }
        }
    }
}

impl NotificationSink for Router {
    fn notify(&self, method: &str, params: Option<Value>) {
        if method == PROGRESS {
            if let Some((sink, report)) = self.progress_sink(params.as_ref()) {
                sink.report(report);
            }
        }
        let listeners = self
            .listeners
            .read()
            .ok()
            .and_then(|m| m.get(method).cloned())
            .unwrap_or_default();
        for (_, listener) in listeners {
            listener(params.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Fixed(Value);
    impl ServerRequestHandler for Fixed {
        fn handle(&self, params: Option<Value>) -> BoxFuture<Result<Value, String>> {
            let v = json!({"fixed": self.0, "params": params});
            Box::pin(async move { Ok(v) })
        }
    }

    #[tokio::test]
    async fn registered_handler_wins_and_receives_params() {
        let r = Router::default();
        r.set_handler("x", Arc::new(Fixed(json!(1))));
        let out = r.route("x", Some(json!({"a": 1}))).await.unwrap();
        assert_eq!(out, json!({"fixed": 1, "params": {"a": 1}}));
    }

    #[tokio::test]
    async fn workspace_configuration_gets_one_null_per_item() {
        let r = Router::default();
        let two = r
            .route(
                "workspace/configuration",
                Some(json!({"items": [{}, {"section": "s"}]})),
            )
            .await
            .unwrap();
        assert_eq!(two, json!([null, null]));
        assert_eq!(
            r.route("workspace/configuration", Some(json!({})))
                .await
                .unwrap(),
            json!([])
        );
        assert_eq!(
            r.route("workspace/configuration", None).await.unwrap(),
            json!([])
        );
    }

    #[tokio::test]
    async fn unknown_requests_get_null_and_handlers_can_override_defaults() {
        let r = Router::default();
        assert_eq!(
            r.route("client/registerCapability", None).await.unwrap(),
            Value::Null
        );
        r.set_handler("workspace/configuration", Arc::new(Fixed(json!("mine"))));
        let out = r
            .route("workspace/configuration", Some(json!({"items": [{}]})))
            .await
            .unwrap();
        assert_eq!(out["fixed"], json!("mine"));
    }

    #[test]
    fn notifications_reach_listeners() {
        let r = Router::default();
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let s = seen.clone();
        let id = r.add_listener("n", Arc::new(move |p| s.lock().unwrap().push(p)));
        r.notify("n", Some(json!(1)));
        r.notify("other", None);
        assert!(r.remove_listener("n", id));
        assert!(!r.remove_listener("n", id));
        r.notify("n", Some(json!(2)));
        assert_eq!(*seen.lock().unwrap(), vec![Some(json!(1))]);
    }

    #[test]
    fn progress_goes_to_the_token_owner_while_routed() {
        let r = Arc::new(Router::default());
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let s = seen.clone();
        let sink = Sink::new(move |rep| s.lock().unwrap().push(rep.to_json()));
        let route = r.route_progress("t1".into(), sink);
        let value = json!({"kind": "report", "percentage": 50});
        r.notify(PROGRESS, Some(json!({"token": "t1", "value": value})));
        r.notify(PROGRESS, Some(json!({"token": "t2", "value": value})));
        drop(route);
        r.notify(PROGRESS, Some(json!({"token": "t1", "value": value})));
        assert_eq!(
            *seen.lock().unwrap(),
            vec![json!({"progress": 50.0, "total": 100.0})]
        );
    }
}
