//! The results of the `transport` namespace.

use napi_derive::napi;

/// `find`: the transports relevant for an object (MCP `abap_transport-get`).
#[napi(object)]
pub struct TransportInfo {
    /// The requests the object can be recorded in (empty for local objects).
    pub transport_requests: Vec<TransportRequestRef>,
    /// Information or warnings to show the user.
    pub information_messages: Vec<String>,
    /// False for local objects (`$TMP`), which are not recorded.
    pub is_recording_required: bool,
}

/// A transport request as `find` lists it.
#[napi(object)]
pub struct TransportRequestRef {
    /// The request number, e.g. `A4HK900123`.
    pub transport_request_number: Option<String>,
    /// The request's description.
    pub short_description: Option<String>,
    /// The request's owner (user name).
    pub owner: Option<String>,
}

/// `create`: the new request (MCP `abap_transport-create`).
#[napi(object)]
pub struct TransportCreated {
    /// The new request's number, e.g. `A4HK900124`.
    pub transport_request_number: Option<String>,
    /// adt-ls's message, when it sends one.
    pub message: Option<String>,
}

/// `list`: your modifiable transports, filtered and capped.
#[napi(object)]
pub struct TransportList {
    /// How many adt-ls returned.
    pub total: f64,
    /// How many match `query`.
    pub matched: f64,
    /// How many are in `transports` (at most `limit`).
    pub returned: f64,
    /// More matched than were returned.
    pub truncated: bool,
    /// The transports, in adt-ls's order.
    pub transports: Vec<TransportSummary>,
}

/// A transport request of `list`, with the fields adt-ls sends (each absent when it does not).
#[napi(object)]
pub struct TransportSummary {
    /// The request number, e.g. `A4HK900123`.
    pub number: Option<String>,
    /// The request's description.
    pub description: Option<String>,
    /// The request's owner (user name).
    pub owner: Option<String>,
    /// The request's status as adt-ls reports it (e.g. `modifiable`).
    pub status: Option<String>,
    /// The request type code, e.g. `K` (workbench) or `W` (customizing).
    #[napi(js_name = "type")]
    pub request_type: Option<String>,
    /// The transport target (system or group), e.g. `QA4`, when set.
    pub target: Option<String>,
    /// The request's tasks, as adt-ls sends them.
    #[napi(ts_type = "unknown[]")]
    pub tasks: Option<Vec<serde_json::Value>>,
}

/// `check`: adt-ls's transport decision for an operation on an object.
#[napi(object)]
pub struct TransportCheck {
    /// The check ran without error.
    pub is_transport_check_successful: Option<bool>,
    /// The change must be recorded in a transport request.
    pub is_recording_required: Option<bool>,
    /// The object is local (`$` package), so it is never recorded.
    pub is_local_object: Option<bool>,
    /// The checked operation: `CREATE`, `MODIFY` or `DELETE`.
    pub operation_type: Option<String>,
    /// The object's package.
    pub package_name: Option<String>,
    /// The package's transport layer.
    pub transport_layer: Option<String>,
    /// The request the object is locked in; `null` when it is not locked.
    #[napi(ts_type = "string | null")]
    pub locked_transport: Option<serde_json::Value>,
    /// The requests the change can be recorded in.
    pub transport_requests: Option<Vec<TransportCandidate>>,
    /// adt-ls's messages about the check, as it sends them.
    #[napi(ts_type = "unknown[]")]
    pub messages: Option<Vec<serde_json::Value>>,
}

/// An assignable transport request of `check`.
#[napi(object)]
pub struct TransportCandidate {
    /// The request number, e.g. `A4HK900123`.
    pub number: Option<String>,
    /// The request's description.
    pub description: Option<String>,
    /// The request's owner (user name).
    pub owner: Option<String>,
}

/// One page of `getDiff`; pass `nextCursor` back until `batchInfo.status` is `completed`.
#[napi(object)]
pub struct TransportDiffPage {
    /// Where the paging stands; absent when adt-ls does not report it.
    pub batch_info: Option<TransportBatchInfo>,
    /// adt-ls's message, when it sends one.
    pub message: Option<String>,
    /// The cursor of the next page (`cursor` of the next call); absent after the last page.
    pub next_cursor: Option<String>,
    /// The unified diff of this batch (empty when it has no changes).
    pub diff_result: Option<String>,
}

/// Progress of a paged transport diff.
#[napi(object)]
pub struct TransportBatchInfo {
    /// How many objects this page covers.
    pub current_batch_size: Option<f64>,
    /// How many objects the transport has.
    pub total_objects: Option<f64>,
    /// How many objects are done, this page included.
    pub processed_count: Option<f64>,
    /// How many objects are still to come.
    pub remaining_count: Option<f64>,
    /// Whether this page's objects have changes (`diffResult` is empty otherwise).
    pub batch_has_changes: Option<bool>,
    /// `completed` on the last page, `processing` before.
    #[napi(ts_type = "'processing' | 'completed'")]
    pub status: Option<String>,
}
