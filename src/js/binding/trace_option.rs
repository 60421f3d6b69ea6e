//! `trace: { file }` of `createAdtLs` and `new AdtLsDriver`: checked and converted; the
//! engine (`crate::trace`) does the rest.

use crate::js::runtime::checked;
use crate::kernel::error::Error as EngineError;
use crate::options::keys;
use napi::bindgen_prelude::*;
use std::path::PathBuf;

/// The trace file of the `trace` option at `path` (`trace` or `opts.trace`).
pub fn trace_file(
    env: &Env,
    value: Option<Unknown>,
    path: &str,
) -> std::result::Result<Option<PathBuf>, EngineError> {
    let Some(trace) = checked::opt_object(env, value, path)? else {
        return Ok(None);
    };
    checked::warn_unknown_keys(&trace, path, keys::TRACE);
    let file = checked::string(
        env,
        checked::property(&trace, "file"),
        &format!("{path}.file"),
    )?;
    Ok(Some(PathBuf::from(file)))
}
