//! The request channel as a trait (the reference's `LspRequester`), so code that only sends
//! requests (the MCP lifecycle, a user's own fake driver) does not depend on the driver.

use crate::kernel::error::{codes, Error, Result};
use crate::kernel::future::BoxFuture;
use serde_json::Value;
use std::time::Duration;

pub(crate) trait LspRequester: Send + Sync {
    /// Send one request; params are encoded as vscode-jsonrpc does.
    fn send_request(&self, method: &str, params: Option<Value>) -> BoxFuture<Result<Value>>;

    /// Send one request bounded by `timeout` instead of the requester's default. The default
    /// implementation wraps [`LspRequester::send_request`] in the timeout.
    fn send_request_within(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> BoxFuture<Result<Value>> {
        let request = self.send_request(method, params);
        let method = method.to_string();
        Box::pin(async move {
            match tokio::time::timeout(timeout, request).await {
                Ok(result) => result,
                Err(_) => Err(Error::coded(
                    codes::TIMEOUT,
                    format!(
                        "adt-ls request {method} timed out after {}ms",
                        timeout.as_millis()
                    ),
                )),
            }
        })
    }
}
