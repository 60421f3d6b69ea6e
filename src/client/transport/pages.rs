//! The paging of `transport.diffPages`: which `getDiff` arguments the next page needs and when
//! the iteration is over (a page whose `batchInfo.status` is `completed`, or one without a
//! `nextCursor`). A server handing back the cursor it was just given would page forever: that
//! is an error instead. Pure state; the N-API layer drives it.

use crate::client::args::Args;
use crate::kernel::error::{codes, Error, Result};
use serde_json::{Map, Value};

/// Where a diff iteration stands.
#[derive(Debug, Clone)]
pub(crate) struct DiffPaging {
    number: Value,
    /// The caller's `opts` without our cursor (e.g. `pageSize`), sent with every page.
    opts: Map<String, Value>,
    cursor: Option<Value>,
    done: bool,
}

impl DiffPaging {
    /// Start at `opts.cursor` (the first page when absent) for transport `number`.
    pub(crate) fn new(number: Value, opts: Option<Value>) -> DiffPaging {
        let mut opts = match opts {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let cursor = opts.remove("cursor").filter(|c| !c.is_null());
        DiffPaging {
            number,
            opts,
            cursor,
            done: false,
        }
    }

    /// True once the last page was handed out (or the iteration was stopped).
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// Stop: no further page is asked for.
    pub(crate) fn stop(&mut self) {
        self.done = true;
    }

    /// The `getDiff` arguments of the next page; `None` when the iteration is over.
    pub(crate) fn next_args(&self) -> Option<Args> {
        if self.done {
            return None;
        }
        let mut opts = self.opts.clone();
        if let Some(cursor) = &self.cursor {
            opts.insert("cursor".into(), cursor.clone());
        }
        Some(vec![Some(self.number.clone()), Some(Value::Object(opts))])
    }

    /// Take in the page just received: the end when it is `completed` or has no cursor.
    pub(crate) fn advance(&mut self, page: &Value) -> Result<()> {
        let completed =
            page.pointer("/batchInfo/status").and_then(Value::as_str) == Some("completed");
        let next = page
            .get("nextCursor")
            .filter(|c| c.as_str().is_some_and(|s| !s.is_empty()));
        match next {
            _ if completed => self.done = true,
            None => self.done = true,
            Some(next) if Some(next) == self.cursor.as_ref() => {
                self.done = true;
                return Err(Error::coded(
                    codes::MCP_PROTOCOL,
                    "transport.diffPages: adt-ls returned the same nextCursor again",
                ));
            }
            Some(next) => self.cursor = Some(next.clone()),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cursor_of(args: &Args) -> Option<Value> {
        args[1].as_ref()?.get("cursor").cloned()
    }

    #[test]
    fn follows_next_cursor_until_completed_and_keeps_the_callers_options() {
        let mut p = DiffPaging::new(json!("A4HK900101"), Some(json!({ "pageSize": 2 })));
        let first = p.next_args().unwrap();
        assert_eq!(first[0], Some(json!("A4HK900101")));
        assert_eq!(first[1], Some(json!({ "pageSize": 2 })));
        p.advance(&json!({ "batchInfo": { "status": "processing" }, "nextCursor": "c1" }))
            .unwrap();
        let second = p.next_args().unwrap();
        assert_eq!(cursor_of(&second), Some(json!("c1")));
        assert_eq!(second[1].as_ref().unwrap()["pageSize"], json!(2));
        p.advance(&json!({ "batchInfo": { "status": "completed" }, "nextCursor": "c2" }))
            .unwrap();
        assert!(p.is_done());
        assert!(p.next_args().is_none());
    }

    #[test]
    fn starts_at_the_callers_cursor_and_ends_without_a_cursor() {
        let mut p = DiffPaging::new(json!("T"), Some(json!({ "cursor": "c5" })));
        assert_eq!(cursor_of(&p.next_args().unwrap()), Some(json!("c5")));
        p.advance(&json!({ "message": "no batch info" })).unwrap();
        assert!(p.is_done());
    }

    #[test]
    fn a_repeated_cursor_ends_with_an_error_instead_of_looping() {
        let mut p = DiffPaging::new(json!("T"), None);
        p.advance(&json!({ "nextCursor": "same" })).unwrap();
        let err = p.advance(&json!({ "nextCursor": "same" })).unwrap_err();
        assert!(err.message.contains("same nextCursor"), "{}", err.message);
        assert!(p.is_done());
    }

    #[test]
    fn stop_ends_the_iteration() {
        let mut p = DiffPaging::new(json!("T"), None);
        p.stop();
        assert!(p.next_args().is_none());
    }
}
