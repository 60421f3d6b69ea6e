//! Coverage values for the report tests: a count and a statement-level line in one call.

use crate::cli::coverage_model::{Count, Line};

/// `executed` of `total`.
pub(super) fn count(executed: u64, total: u64) -> Count {
    Count { executed, total }
}

/// Line `line` of source part `part`, run `hits` times, with `branches` if it branches.
pub(super) fn line(part: &str, line: u32, hits: u64, branches: Option<Count>) -> Line {
    Line {
        part: part.into(),
        line,
        hits,
        branches,
    }
}
