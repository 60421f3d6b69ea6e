//! The request channel as a trait (the reference's `LspRequester`), so code that only sends
//! requests (the MCP lifecycle, a user's own fake driver) does not depend on the driver.

use super::BoxFuture;
use crate::error::Result;
use serde_json::Value;

pub trait LspRequester: Send + Sync {
    /// Send one request; params are encoded as vscode-jsonrpc does.
    fn send_request(&self, method: &str, params: Option<Value>) -> BoxFuture<Result<Value>>;
}
