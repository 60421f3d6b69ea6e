//! Reading an object's CTS lock from `adtLs/cts/transport/checkTransportForObjectLock`, and
//! deciding from the locks before and after an assignment whether it took effect
//! (docs/wire.md#transport, docs/decisions.md#d9-1): adt-ls 1.1.2 answers the assignment
//! `true` even for a transport that does not exist, so only the lock tells.

use crate::kernel::error::{codes, Error, Result};
use serde_json::{json, Value};

/// The lock check `assign` reads before and after the assignment (`transport.check`'s
/// defaults).
pub(crate) fn lock_check_params(uri: &str) -> Value {
    json!({
        "operationType": "MODIFY",
        "objectInfo": {"objectUri": uri},
        "transportLayer": "",
        "isRecordChanges": true,
    })
}

/// The upper-cased request numbers that lock the object, from a lock-check answer. Rejects
/// with `Could not verify the CTS lock for <name>.` (plus SAP's reasons) when the check
/// failed, said nothing, or reports a lock without its request numbers.
pub(crate) fn locked_in(answer: &Value, name: &str) -> Result<Vec<String>> {
    let locks = answer.get("locks");
    let locked_flag = answer.get("isLockedInRequests");
    let failed = !truthy(answer)
        || answer.get("isTransportCheckSuccessful") == Some(&Value::Bool(false))
        || (locked_flag.is_some_and(truthy) && !locks.is_some_and(Value::is_array));
    if failed {
        return Err(unverified(name, &reasons(answer), answer));
    }
    let numbers: Vec<String> = non_empty_strings(locks, "number")
        .map(str::to_uppercase)
        .collect();
    if locked_flag == Some(&Value::Bool(true)) && numbers.is_empty() {
        return Err(unverified(name, "", answer));
    }
    Ok(numbers)
}

/// Whether an assignment took effect: adt-ls executed it, the object is locked now, and in
/// the transport asked for, or it was unlocked before (a task number locks the object in
/// the task's request, whose number differs).
pub(crate) fn took_effect(
    executed: bool,
    before: &[String],
    after: &[String],
    transport: &str,
) -> bool {
    executed
        && !after.is_empty()
        && (after.contains(&transport.to_uppercase()) || before.is_empty())
}

/// SAP's reasons: the non-empty `checkMessages.errorMessages[].message`, space-separated.
fn reasons(answer: &Value) -> String {
    let messages = answer.pointer("/checkMessages/errorMessages");
    non_empty_strings(messages, "message")
        .collect::<Vec<_>>()
        .join(" ")
}

/// The non-empty string `item[key]` of each item of `list`, in order (none when `list` is
/// absent or not an array).
fn non_empty_strings<'a>(list: Option<&'a Value>, key: &'a str) -> impl Iterator<Item = &'a str> {
    list.and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(move |item| item.get(key).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
}

fn unverified(name: &str, reasons: &str, answer: &Value) -> Error {
    let mut message = format!("Could not verify the CTS lock for {name}.");
    if !reasons.is_empty() {
        message.push(' ');
        message.push_str(reasons);
    }
    Error::coded(codes::CTS_LOCK_UNVERIFIED, message).with_data(answer.clone())
}

/// JavaScript truthiness (`!answer` is the reference's "no answer").
fn truthy(v: &Value) -> bool {
    crate::kernel::truthy::truthy(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locks(numbers: &[&str]) -> Value {
        json!({
            "isTransportCheckSuccessful": true,
            "isLockedInRequests": !numbers.is_empty(),
            "locks": numbers.iter().map(|n| json!({"number": n})).collect::<Vec<_>>(),
        })
    }

    #[test]
    fn lock_numbers_are_read_upper_cased_and_empty_ones_dropped() {
        assert_eq!(
            locked_in(&locks(&["devk900001"]), "ZCL_X").unwrap(),
            ["DEVK900001"]
        );
        assert!(locked_in(&locks(&[]), "ZCL_X").unwrap().is_empty());
        let mixed = json!({"isLockedInRequests": true, "locks": [{"number": ""}, {"number": 5}, {"number": "a1"}]});
        assert_eq!(locked_in(&mixed, "ZCL_X").unwrap(), ["A1"]);
        // Without the flag and without locks: unlocked.
        assert!(locked_in(&json!({}), "ZCL_X").unwrap().is_empty());
    }

    #[test]
    fn a_failed_or_empty_check_is_unverified_with_sap_reasons() {
        let msg = |v: Value| locked_in(&v, "ZCL_X").unwrap_err().message;
        for falsy in [Value::Null, json!(false), json!(0), json!("")] {
            assert_eq!(msg(falsy), "Could not verify the CTS lock for ZCL_X.");
        }
        let foreign = json!({
            "isTransportCheckSuccessful": false,
            "checkMessages": {"errorMessages": [
                {"message": "Object R3TR CLAS ZCL_X locked in task DEVK900002 (DEVELOPER) not specified for this client", "severity": "E"},
                {"message": ""},
                {"message": "Second."}
            ]}
        });
        assert_eq!(
            msg(foreign),
            "Could not verify the CTS lock for ZCL_X. Object R3TR CLAS ZCL_X locked in task DEVK900002 (DEVELOPER) not specified for this client Second."
        );
        let e = locked_in(&json!({"isTransportCheckSuccessful": false}), "ZCL_X").unwrap_err();
        assert!(e.has_code(codes::CTS_LOCK_UNVERIFIED));
        assert_eq!(
            e.data.as_deref(),
            Some(&json!({"isTransportCheckSuccessful": false}))
        );
        assert_eq!(
            msg(json!({"isLockedInRequests": 1, "locks": "DEVK900001"})),
            "Could not verify the CTS lock for ZCL_X."
        );
    }

    #[test]
    fn a_lock_without_request_numbers_is_unverified_without_reasons() {
        let v = json!({
            "isLockedInRequests": true,
            "locks": [{"number": ""}],
            "checkMessages": {"errorMessages": [{"message": "ignored here"}]}
        });
        assert_eq!(
            locked_in(&v, "ZCL_X").unwrap_err().message,
            "Could not verify the CTS lock for ZCL_X."
        );
    }

    /// adt-ls executed it, locked in before, locked in after, the transport, it counts.
    type Assignment = (
        bool,
        &'static [&'static str],
        &'static [&'static str],
        &'static str,
        bool,
    );

    #[test]
    fn an_assignment_counts_when_the_lock_names_it_or_a_lock_appeared() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let cases: [Assignment; 6] = [
            (true, &[], &["DEVK900001"], "devk900001", true),
            // A task of a previously unlocked object: its request holds the lock.
            (true, &[], &["DEVK900001"], "DEVK900002", true),
            // A nonexistent transport: adt-ls says true, no lock appeared.
            (true, &[], &[], "NOPE", false),
            // Locked in another request before and after.
            (true, &["DEVK900003"], &["DEVK900003"], "DEVK900001", false),
            (false, &[], &["DEVK900001"], "DEVK900001", false),
            (true, &["DEVK900001"], &["DEVK900001"], "DEVK900001", true),
        ];
        for (executed, before, after, transport, counts) in cases {
            assert_eq!(
                took_effect(executed, &s(before), &s(after), transport),
                counts,
                "{executed} {before:?} {after:?} {transport}"
            );
        }
    }
}
