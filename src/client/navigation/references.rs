//! `findReferences(ref, locator, {includeDeclaration?, timeoutMs?})` (docs/wire.md#navigation): where-used
//! for a position. Heavily used symbols can make adt-ls hang or fail with "Internal error",
//! so the request is raced against `timeoutMs` (default 20 s) and both outcomes carry a hint
//! to narrow the symbol. The document is closed and the queue released either way.

use super::locator::Locator;
use super::queries::with_position;
use crate::client::args::{self, Args};
use crate::client::deadline::{outlive, race};
use crate::client::locate::Locating;
use crate::client::ns_args::{or, timeout_number};
use crate::client::Client;
use crate::kernel::error::{Error, Result};
use regex::Regex;
use serde_json::{json, Value};
use std::sync::OnceLock;

const DEFAULT_TIMEOUT_MS: f64 = 20_000.0;
const HINT: &str = "the symbol is likely too heavily used (e.g. a global class/method); narrow to a local or less-referenced symbol.";

fn internal_error() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new("(?i)internal error").ok())
        .as_ref()
}

/// An "Internal error" gets the hint; other errors (and the timeout) stay as they are.
fn with_hint(e: Error) -> Error {
    if internal_error().is_some_and(|re| re.is_match(&e.message)) {
        let message = format!("findReferences failed ({}) — {HINT}", e.message);
        return Error { message, ..e };
    }
    e
}

/// `findReferences(ref, locator, opts)`: the raw `Location[]`.
pub(crate) async fn find_references(me: Client, a: Args, document: Locating) -> Result<Value> {
    let locator = Locator::arg(&a, 1)?;
    let opts = args::method_options(&a, 2, "navigation.findReferences")?;
    let timeout_ms = timeout_number(&opts, "timeoutMs")?.unwrap_or(DEFAULT_TIMEOUT_MS);
    let context = json!({"includeDeclaration": or(&opts, "includeDeclaration", json!(true))});
    with_position(&me, document, locator, |me, mut params| async move {
        if let Value::Object(map) = &mut params {
            map.insert("context".into(), context);
        }
        let request = me.active_request_within(
            "textDocument/references",
            Some(params),
            Some(outlive(timeout_ms)),
        );
        race(request, timeout_ms, "findReferences", HINT)
            .await
            .map_err(with_hint)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_get_the_hint() {
        let e = with_hint(Error::rpc(-32603, "Internal error", None));
        assert_eq!(
            e.message,
            format!("findReferences failed (Internal error) — {HINT}")
        );
        assert_eq!(e.code, Some(crate::kernel::error::ErrorCode::Num(-32603)));
        assert_eq!(with_hint(Error::new("not open")).message, "not open");
    }
}
