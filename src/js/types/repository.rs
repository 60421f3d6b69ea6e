//! The results of the `repository` namespace.

use napi_derive::napi;

/// A repository object hit of quickSearch; `uri` is the ADT object path.
#[napi(object)]
pub struct SearchReference {
    pub name: String,
    pub description: Option<String>,
    #[napi(js_name = "type")]
    pub object_type: Option<String>,
    pub uri: Option<String>,
}

/// `search`: the hits and adt-ls's message, if any.
#[napi(object)]
pub struct QuickSearchResult {
    pub references: Vec<SearchReference>,
    pub message: Option<SearchMessage>,
}

/// A message of quickSearch.
#[napi(object)]
pub struct SearchMessage {
    pub label: Option<String>,
    pub detail: Option<String>,
    pub severity: Option<f64>,
}

/// A repository / system user.
#[napi(object)]
pub struct UserRef {
    pub id: String,
    pub text: Option<String>,
}
