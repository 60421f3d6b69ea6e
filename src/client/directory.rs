//! `repository.readDirectory` (docs/wire.md#repository): the entries of a repotree directory
//! (`adtLs/fileSystem/readDirectory {uri}` answers `{children: [{name, type}]}` with VS Code's
//! `FileType`, 2 for a directory). Not queued: a listing is not an operation on one object.
//! A file URI lists nothing; an answer without a listing is refused.

use super::args::{self, Args};
use super::Client;
use crate::kernel::error::Result;
use serde_json::{json, Value};

/// VS Code's `FileType.Directory`.
const DIRECTORY: i64 = 2;

/// `readDirectory(uri)` -> `DirectoryEntry[]`.
pub(crate) async fn read_directory(me: Client, a: Args) -> Result<Value> {
    me.touch()?;
    let uri = args::string(&a, 0, "uri")?;
    let method = "adtLs/fileSystem/readDirectory";
    me.uri_request(
        method,
        &uri,
        entries,
        "readDirectory returned no listing for",
    )
    .await
}

/// `children ?? []` as `{name, kind}` entries (`kind` is `'directory'` for type 2, else
/// `'file'`); entries without a string name are left out. `None` for an answer that is not
/// an object, or whose `children` is neither absent, `null` nor an array.
fn entries(answer: &Value) -> Option<Value> {
    let children = match answer.as_object()?.get("children") {
        None | Some(Value::Null) => return Some(json!([])),
        Some(Value::Array(children)) => children,
        Some(_) => return None,
    };
    let listed = children
        .iter()
        .filter_map(|child| {
            let name = child.get("name")?.as_str()?;
            let kind = if child.get("type").and_then(Value::as_i64) == Some(DIRECTORY) {
                "directory"
            } else {
                "file"
            };
            Some(json!({"name": name, "kind": kind}))
        })
        .collect();
    Some(Value::Array(listed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_become_entries() {
        let answer = json!({"children": [
            {"name": "zpkg.devck.jsonc", "type": 1},
            {"name": "Source Code Library", "type": 2},
            {"name": "link", "type": 64},
            {"type": 2},
            {"name": 5, "type": 1},
        ]});
        assert_eq!(
            entries(&answer),
            Some(json!([
                {"name": "zpkg.devck.jsonc", "kind": "file"},
                {"name": "Source Code Library", "kind": "directory"},
                {"name": "link", "kind": "file"},
            ]))
        );
    }

    #[test]
    fn no_children_is_an_empty_listing() {
        assert_eq!(entries(&json!({})), Some(json!([])));
        assert_eq!(entries(&json!({"children": null})), Some(json!([])));
        assert_eq!(entries(&json!({"children": []})), Some(json!([])));
    }

    #[test]
    fn an_answer_without_a_listing_is_refused() {
        for bad in [json!(null), json!([]), json!("x"), json!({"children": {}})] {
            assert_eq!(entries(&bad), None, "{bad}");
        }
    }
}
