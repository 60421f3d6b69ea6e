//! Any JS object with `sendRequest(method, params)` as an engine [`LspRequester`]: our own
//! `AdtLsDriver` is used natively; anything else (a user's wrapper or test fake) is called
//! through a safe JS callback.

use super::callback::JsCallback;
use super::driver::AdtLsDriver;
use crate::error::{Error as EngineError, Result as EngineResult};
use crate::lsp::{BoxFuture, LspRequester};
use napi::bindgen_prelude::*;
use serde_json::Value;
use std::sync::Arc;

/// A JS object's bound `sendRequest`.
pub struct JsRequester(Arc<JsCallback>);

impl LspRequester for JsRequester {
    fn send_request(&self, method: &str, params: Option<Value>) -> BoxFuture<EngineResult<Value>> {
        let cb = self.0.clone();
        let method = method.to_string();
        Box::pin(async move {
            cb.call_json(vec![Some(Value::String(method)), params])
                .await
                .map(|v| v.unwrap_or(Value::Null))
                .map_err(|m| EngineError::coded(crate::error::codes::CALLBACK, m))
        })
    }
}

/// The requester behind a JS value (must be called on the JS thread).
pub fn from_js(env: &Env, value: Unknown) -> Result<Arc<dyn LspRequester>> {
    if AdtLsDriver::instance_of(env, &value)? {
        let instance =
            unsafe { ClassInstance::<AdtLsDriver>::from_napi_value(env.raw(), value.raw())? };
        return Ok(Arc::new(instance.engine().clone()));
    }
    let obj = value.coerce_to_object()?;
    let send: Function<Unknown, Unknown> = obj.get_named_property("sendRequest").map_err(|_| {
        Error::new(
            Status::InvalidArg,
            "driver must have a sendRequest(method, params) method",
        )
    })?;
    let bound = send.bind(obj)?;
    Ok(Arc::new(JsRequester(JsCallback::new(env, bound)?)))
}
