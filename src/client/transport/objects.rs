//! The native CTS requests on one object (docs/wire.md#transport), each on its resolved AFF URI:
//! assign a transport (adt-ls answers a bare boolean, confirmed against the CTS lock read
//! before and after), the transport check for a change, and the file lock status.

use super::cts_lock::{lock_check_params, locked_in, took_effect};
use crate::client::args::Args;
use crate::client::ns_args::or;
use crate::client::resolve::{resolve_aff_uri, resolve_target, ObjectRef, Target};
use crate::client::Client;
use crate::kernel::arg_error::{type_error, Received};
use crate::kernel::error::Result;
use serde_json::{json, Value};

/// `true`, or an object saying `assigned` / `operationExecuted` is `true`.
fn is_assigned(res: &Value) -> bool {
    let yes = |key: &str| res.get(key) == Some(&Value::Bool(true));
    *res == Value::Bool(true) || yes("assigned") || yes("operationExecuted")
}

/// `assign({name, objectType, transport})` -> `{assigned, object, objectType, transport,
/// lockedIn}`: the lock before, the assignment, the lock after (docs/wire.md#transport).
/// A failed first lock check sends no assignment; a failed readback rejects although the
/// assignment was sent.
pub(crate) async fn assign(me: Client, a: Args) -> Result<Value> {
    let dest = me.begin()?;
    let (r, opts) = ObjectRef::arg(&a, 0)?;
    let transport = match opts.get("transport") {
        Some(Value::String(t)) => t.clone(),
        other => {
            return Err(type_error(
                "ref.transport",
                "a string",
                &Received::of_json(other),
            ))
        }
    };
    let uri = resolve_aff_uri(&me, &dest, &r).await?;
    let before = read_locks(&me, &uri, &r.name).await?;
    let res = me
        .active_request(
            "adtLs/cts/transport/assignTransportToObject",
            Some(json!({"objectUri": uri, "transport": transport})),
        )
        .await?;
    let after = read_locks(&me, &uri, &r.name).await?;
    let assigned = took_effect(is_assigned(&res), &before, &after, &transport);
    Ok(json!({
        "assigned": assigned,
        "object": r.name,
        "objectType": r.object_type,
        "transport": transport,
        "lockedIn": after,
    }))
}

/// The object's lock (request numbers) from `checkTransportForObjectLock`.
async fn read_locks(client: &Client, uri: &str, name: &str) -> Result<Vec<String>> {
    let answer = client
        .active_request(
            "adtLs/cts/transport/checkTransportForObjectLock",
            Some(lock_check_params(uri)),
        )
        .await?;
    locked_in(&answer, name)
}

/// `check({name, objectType, operation?, transportLayer?, recordChanges?})`: raw.
pub(crate) async fn check(me: Client, a: Args) -> Result<Value> {
    let Target { opts, uri } = resolve_target(&me, &a).await?;
    let params = json!({
        "operationType": or(&opts, "operation", json!("MODIFY")),
        "objectInfo": {"objectUri": uri},
        "transportLayer": or(&opts, "transportLayer", json!("")),
        "isRecordChanges": or(&opts, "recordChanges", json!(true)),
    });
    me.active_request(
        "adtLs/cts/transport/checkTransportForObjectLock",
        Some(params),
    )
    .await
}

/// `getLockStatus(ref)` -> `{lockingSupported, lockId}`.
pub(crate) async fn get_lock_status(me: Client, a: Args) -> Result<Value> {
    let uri = resolve_target(&me, &a).await?.uri;
    let res = me
        .active_request(
            "adtLs/fileSystem/getFileLockStatus",
            Some(json!({"uri": uri})),
        )
        .await?;
    let field = |key: &str, default: Value| {
        res.get(key)
            .filter(|v| !v.is_null())
            .cloned()
            .unwrap_or(default)
    };
    Ok(json!({
        "lockingSupported": field("lockingSupported", json!(false)),
        "lockId": field("lockId", Value::Null),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignment_answers() {
        assert!(is_assigned(&json!(true)));
        assert!(is_assigned(&json!({"assigned": true})));
        assert!(is_assigned(&json!({"operationExecuted": true})));
        assert!(!is_assigned(&json!(false)));
        assert!(!is_assigned(&json!({"assigned": "true"})));
        assert!(!is_assigned(&Value::Null));
    }
}
