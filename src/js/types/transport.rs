//! The results of the `transport` namespace.

use napi_derive::napi;

/// `find`: the transports relevant for an object (MCP `abap_transport-get`).
#[napi(object)]
pub struct TransportInfo {
    pub transport_requests: Vec<TransportRequestRef>,
    /// Information or warnings to show the user.
    pub information_messages: Vec<String>,
    /// False for local objects (`$TMP`), which are not recorded.
    pub is_recording_required: bool,
}

/// A transport request as `find` lists it.
#[napi(object)]
pub struct TransportRequestRef {
    pub transport_request_number: Option<String>,
    pub short_description: Option<String>,
    pub owner: Option<String>,
}

/// `create`: the new request (MCP `abap_transport-create`).
#[napi(object)]
pub struct TransportCreated {
    pub transport_request_number: Option<String>,
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
    pub transports: Vec<TransportSummary>,
}

/// A transport request of `list`.
#[napi(object)]
pub struct TransportSummary {
    pub number: Option<String>,
    pub description: Option<String>,
    pub owner: Option<String>,
    pub status: Option<String>,
    #[napi(js_name = "type")]
    pub request_type: Option<String>,
    pub target: Option<String>,
    #[napi(ts_type = "unknown[]")]
    pub tasks: Option<Vec<serde_json::Value>>,
}

/// `check`: adt-ls's transport decision for an operation on an object.
#[napi(object)]
pub struct TransportCheck {
    pub is_transport_check_successful: Option<bool>,
    pub is_recording_required: Option<bool>,
    pub is_local_object: Option<bool>,
    pub operation_type: Option<String>,
    pub package_name: Option<String>,
    pub transport_layer: Option<String>,
    /// The request the object is locked in.
    #[napi(ts_type = "string | null")]
    pub locked_transport: Option<serde_json::Value>,
    pub transport_requests: Option<Vec<TransportCandidate>>,
    #[napi(ts_type = "unknown[]")]
    pub messages: Option<Vec<serde_json::Value>>,
}

/// An assignable transport request of `check`.
#[napi(object)]
pub struct TransportCandidate {
    pub number: Option<String>,
    pub description: Option<String>,
    pub owner: Option<String>,
}

/// One page of `getDiff`; pass `nextCursor` back until `batchInfo.status` is `completed`.
#[napi(object)]
pub struct TransportDiffPage {
    pub batch_info: Option<TransportBatchInfo>,
    pub message: Option<String>,
    pub next_cursor: Option<String>,
    /// The unified diff of this batch (empty when it has no changes).
    pub diff_result: Option<String>,
}

/// Progress of a paged transport diff.
#[napi(object)]
pub struct TransportBatchInfo {
    pub current_batch_size: Option<f64>,
    pub total_objects: Option<f64>,
    pub processed_count: Option<f64>,
    pub remaining_count: Option<f64>,
    pub batch_has_changes: Option<bool>,
    #[napi(ts_type = "'processing' | 'completed'")]
    pub status: Option<String>,
}
