//! Registers the environment cleanup hook that kills leftover adt-ls process trees and
//! removes leftover temp paths when Node exits without `dispose()` (decisions D5.16).

use napi::bindgen_prelude::*;

#[napi(module_exports)]
pub fn register_exit_cleanup(_exports: Object, env: Env) -> Result<()> {
    env.add_env_cleanup_hook((), |_| crate::process::reaper::reap_all())?;
    Ok(())
}
