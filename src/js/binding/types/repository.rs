//! The results of the `repository` namespace.

use napi_derive::napi;

/// A repository object hit of quickSearch; `uri` is the ADT object path.
#[napi(object)]
pub struct SearchReference {
    /// The object's name, e.g. `CL_ABAP_TYPEDESCR`.
    pub name: String,
    /// The object's short text.
    pub description: Option<String>,
    /// The object's ADT type code, e.g. `CLAS/OC`.
    #[napi(js_name = "type")]
    pub object_type: Option<String>,
    /// The ADT object path, e.g. `/sap/bc/adt/oo/classes/cl_abap_typedescr` (resolve it with
    /// `repository.getLsUri`).
    pub uri: Option<String>,
}

/// `search`: the hits and adt-ls's message, if any.
#[napi(object)]
pub struct QuickSearchResult {
    /// The hits, at most `maxResults` (empty when nothing matched).
    pub references: Vec<SearchReference>,
    /// adt-ls's message about the search (e.g. a problem), when it sends one.
    pub message: Option<SearchMessage>,
}

/// A message of quickSearch.
#[napi(object)]
pub struct SearchMessage {
    /// The message's headline.
    pub label: Option<String>,
    /// More detail.
    pub detail: Option<String>,
    /// Its severity as adt-ls numbers it.
    pub severity: Option<f64>,
}

/// A repository / system user.
#[napi(object)]
pub struct UserRef {
    /// The user name, e.g. `DEVELOPER`.
    pub id: String,
    /// The user's display text (e.g. the full name), when known.
    pub text: Option<String>,
}

/// One entry of `repository.readDirectory`.
#[napi(object)]
pub struct DirectoryEntry {
    /// The entry's name (decoded), e.g. `Source Code Library` or `zcl_x.clas.abap`.
    pub name: String,
    /// `'directory'` for a folder, `'file'` for anything else.
    #[napi(ts_type = "'file' | 'directory'")]
    pub kind: String,
}
