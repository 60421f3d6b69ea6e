//! Who we are on the wire (docs/decisions.md#d1): LSP `clientInfo`, `userAgentInfos` and MCP
//! `clientInfo` all say `{ name: "adt-ls-native", version: <package version> }`.

use serde_json::{json, Value};

pub(crate) const PACKAGE_NAME: &str = "adt-ls-native";
pub(crate) const PACKAGE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A `{name, version}` pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClientInfo {
    pub name: String,
    pub version: String,
}

impl Default for ClientInfo {
    fn default() -> Self {
        ClientInfo {
            name: PACKAGE_NAME.to_string(),
            version: PACKAGE_VERSION.to_string(),
        }
    }
}

impl ClientInfo {
    pub(crate) fn to_json(&self) -> Value {
        json!({"name": self.name, "version": self.version})
    }
}
