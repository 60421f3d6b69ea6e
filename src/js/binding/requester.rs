//! Any JS object with `sendRequest(method, params)` as an engine [`LspRequester`]: our own
//! `AdtLsDriver` is used natively; anything else (a user's wrapper or test fake) is called
//! through a safe JS callback.

use super::driver::AdtLsDriver;
use crate::js::runtime::callback::JsCallback;
use crate::js::runtime::checked;
use crate::js::runtime::option_types::FromJs;
use crate::js::runtime::values;
use crate::kernel::error::{Error as EngineError, Result as EngineResult};
use crate::kernel::future::BoxFuture;
use crate::lsp::LspRequester;
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
                .map_err(|m| EngineError::coded(crate::kernel::error::codes::CALLBACK, m))
        })
    }
}

/// The requester behind a JS value (must be called on the JS thread); anything without a
/// `sendRequest` function is an argument error naming `driver.sendRequest`.
pub fn from_js(env: &Env, value: Option<Unknown>) -> EngineResult<Arc<dyn LspRequester>> {
    let internal = |e: napi::Error| EngineError::new(e.reason.clone());
    if let Some(v) = value.as_ref() {
        if AdtLsDriver::instance_of(env, v).unwrap_or(false) {
            let instance = values::class_instance::<AdtLsDriver>(env, v).map_err(internal)?;
            return Ok(Arc::new(instance.engine().clone()));
        }
    }
    let obj = checked::object(env, value, "driver")?;
    let send = Function::from_property(env, &obj, "sendRequest", "driver.sendRequest")?;
    let bound = send.bind(obj).map_err(internal)?;
    Ok(Arc::new(JsRequester(
        JsCallback::new(env, bound).map_err(internal)?,
    )))
}
