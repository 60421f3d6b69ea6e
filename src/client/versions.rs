//! Source versions (docs/wire.md#source-versions): `repository.abapStat`, the `version` option
//! of `source.read`, and the active read. adt-ls serves each file in one version per session:
//! the logged-on user's draft when there is one, else the active version. `toggleVersion`
//! flips the object's files to the other one for this session and a write flips them back,
//! so the active read of a file with a draft is: check, toggle, check, read, check, and always
//! toggle back. It runs in the object's turn of the queue and in a task of its own, so a
//! cancelled or timed-out call still restores the served version before the object's next
//! operation starts (docs/decisions.md#d9-14). Any `version` other than the two is refused
//! (docs/decisions.md#d9-11).

use super::args::Args;
use super::object_queue::Turn;
use super::repository::{read, FileCall};
use super::Client;
use crate::kernel::arg_error::{type_error, value_error, Received};
use crate::kernel::error::{codes, Error, Result};
use serde_json::{json, Map, Value};

/// `SourceVersion`: what adt-ls serves for a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SourceVersion {
    Active,
    Inactive,
}

impl SourceVersion {
    fn name(self) -> &'static str {
        match self {
            SourceVersion::Active => "active",
            SourceVersion::Inactive => "inactive",
        }
    }
}

const VERSIONS: &str = "one of 'active', 'inactive'";

/// `args.version` of `source.read`: absent or `null` means the served version.
pub(crate) fn requested(opts: &Map<String, Value>) -> Result<Option<SourceVersion>> {
    match opts.get("version") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s == "active" => Ok(Some(SourceVersion::Active)),
        Some(Value::String(s)) if s == "inactive" => Ok(Some(SourceVersion::Inactive)),
        Some(v @ Value::String(_)) => Err(value_error(
            "args.version",
            VERSIONS,
            &Received::of_json(Some(v)),
        )),
        other => Err(type_error(
            "args.version",
            VERSIONS,
            &Received::of_json(other),
        )),
    }
}

/// `{version: 0}` -> active, `{version: 1}` -> inactive.
fn version_of(answer: &Value) -> Option<SourceVersion> {
    let version = answer.get("version").and_then(Value::as_f64)?;
    if version == 0.0 {
        Some(SourceVersion::Active)
    } else if version == 1.0 {
        Some(SourceVersion::Inactive)
    } else {
        None
    }
}

/// `adtLs/fileSystem/abapStat {uri}`: the version adt-ls serves for `uri`.
pub(crate) async fn stat(client: &Client, uri: &str) -> Result<SourceVersion> {
    let method = "adtLs/fileSystem/abapStat";
    client
        .uri_request(method, uri, version_of, "abapStat returned no version for")
        .await
}

/// `adtLs/fileSystem/toggleVersion {uri}`.
async fn toggle(client: &Client, uri: &str) -> Result<()> {
    client
        .active_request("adtLs/fileSystem/toggleVersion", Some(json!({"uri": uri})))
        .await
        .map(drop)
}

/// `repository.abapStat(uri)`: queued on the object; resolves `'active'` or `'inactive'`.
pub(crate) async fn abap_stat(me: Client, _: Args, call: FileCall) -> Result<Value> {
    let (uri, _turn) = call.turn().await?;
    Ok(json!(stat(&me, &uri).await?.name()))
}

/// The active version of `uri`, read in the object's `turn`.
pub(crate) async fn read_active(client: &Client, uri: &str, turn: Turn) -> Result<String> {
    let me = client.clone();
    let file = uri.to_string();
    let window = tokio::spawn(async move {
        let _turn = turn;
        active_read(&me, &file).await
    });
    window.await.unwrap_or_else(|e| {
        Err(Error::new(format!(
            "the active read of {uri} ended unexpectedly: {e}"
        )))
    })
}

/// Check, toggle when there is a draft, read, check; then restore the draft, also after an
/// error. The read's own error wins over a failed restore, which is logged.
async fn active_read(client: &Client, uri: &str) -> Result<String> {
    let had_draft = stat(client, uri).await? == SourceVersion::Inactive;
    let out = read_switched(client, uri, had_draft).await;
    let restored = if had_draft {
        restore(client, uri).await
    } else {
        Ok(())
    };
    match (out, restored) {
        (Ok(content), Ok(())) => Ok(content),
        (Ok(_), Err(e)) => Err(e),
        (Err(e), Err(lost)) => {
            crate::kernel::log::warn(format!(
                "source.read: restoring the served version of {uri} failed: {lost}"
            ));
            Err(e)
        }
        (Err(e), Ok(())) => Err(e),
    }
}

/// The read itself, with the checks that it saw the active version.
async fn read_switched(client: &Client, uri: &str, had_draft: bool) -> Result<String> {
    if had_draft {
        toggle(client, uri).await?;
        if stat(client, uri).await? != SourceVersion::Active {
            return Err(Error::coded(
                codes::VERSION_NOT_SWITCHED,
                format!("adt-ls did not switch {uri} to the active version."),
            ));
        }
    }
    let content = read(client, uri).await?;
    if stat(client, uri).await? != SourceVersion::Active {
        return Err(Error::coded(
            codes::VERSION_CHANGED,
            format!(
                "The served version of {uri} changed during the active read; retry without concurrent raw calls."
            ),
        ));
    }
    Ok(content)
}

/// Toggle back to the draft, unless something else (a write) already did.
async fn restore(client: &Client, uri: &str) -> Result<()> {
    if stat(client, uri).await? == SourceVersion::Active {
        toggle(client, uri).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_zero_and_one() {
        assert_eq!(
            version_of(&json!({"version": 0})),
            Some(SourceVersion::Active)
        );
        assert_eq!(
            version_of(&json!({"version": 1})),
            Some(SourceVersion::Inactive)
        );
        for other in [
            json!({"version": 2}),
            json!({}),
            json!(null),
            json!({"version": "0"}),
        ] {
            assert_eq!(version_of(&other), None, "{other}");
        }
    }

    #[test]
    fn the_version_option_is_checked() {
        let m = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert_eq!(requested(&m(json!({}))).unwrap(), None);
        assert_eq!(requested(&m(json!({"version": null}))).unwrap(), None);
        assert_eq!(
            requested(&m(json!({"version": "active"}))).unwrap(),
            Some(SourceVersion::Active)
        );
        let e = requested(&m(json!({"version": "ACTIVE"}))).unwrap_err();
        assert!(e.has_code(codes::INVALID_ARG_VALUE));
        assert_eq!(
            e.message,
            "args.version must be one of 'active', 'inactive', received type string ('ACTIVE')"
        );
        let e = requested(&m(json!({"version": 1}))).unwrap_err();
        assert!(e.has_code(codes::INVALID_ARG_TYPE));
    }
}
