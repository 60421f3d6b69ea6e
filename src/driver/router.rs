//! Routing of server->client requests (the reference's `routeServerRequest`): a registered
//! handler always wins; otherwise `workspace/configuration` is answered with one `null` per
//! requested item (a bare `null` breaks adt-ls's destination initialisation) and every other
//! request with `null`. Notifications go to registered listeners and are otherwise dropped.

use crate::lsp::{BoxFuture, NotificationSink, RequestRouter};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// A handler for one server->client request method. `Err(message)` is answered as a
/// JSON-RPC error `Request <method> failed with message: <message>`.
pub trait ServerRequestHandler: Send + Sync + 'static {
    fn handle(&self, params: Option<Value>) -> BoxFuture<Result<Value, String>>;
}

/// A listener for one server notification method.
pub type NotificationListener = Arc<dyn Fn(Option<Value>) + Send + Sync>;

#[derive(Default)]
pub struct Router {
    handlers: RwLock<HashMap<String, Arc<dyn ServerRequestHandler>>>,
    listeners: RwLock<HashMap<String, Vec<NotificationListener>>>,
}

impl Router {
    pub fn set_handler(&self, method: &str, handler: Arc<dyn ServerRequestHandler>) {
        if let Ok(mut map) = self.handlers.write() {
            map.insert(method.to_string(), handler);
        }
    }

    pub fn remove_handler(&self, method: &str) {
        if let Ok(mut map) = self.handlers.write() {
            map.remove(method);
        }
    }

    /// Drop every handler (releases the JS callbacks they hold).
    pub fn clear_handlers(&self) {
        if let Ok(mut map) = self.handlers.write() {
            map.clear();
        }
        if let Ok(mut map) = self.listeners.write() {
            map.clear();
        }
    }

    pub fn add_listener(&self, method: &str, listener: NotificationListener) {
        if let Ok(mut map) = self.listeners.write() {
            map.entry(method.to_string()).or_default().push(listener);
        }
    }

    fn handler(&self, method: &str) -> Option<Arc<dyn ServerRequestHandler>> {
        self.handlers
            .read()
            .ok()
            .and_then(|m| m.get(method).cloned())
    }
}

/// The default answer for a method without a handler.
pub fn default_answer(method: &str, params: Option<&Value>) -> Value {
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
        let listeners = self
            .listeners
            .read()
            .ok()
            .and_then(|m| m.get(method).cloned())
            .unwrap_or_default();
        for listener in listeners {
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
        r.add_listener("n", Arc::new(move |p| s.lock().unwrap().push(p)));
        r.notify("n", Some(json!(1)));
        r.notify("other", None);
        assert_eq!(*seen.lock().unwrap(), vec![Some(json!(1))]);
    }
}
