//! Registers the environment cleanup hook that kills leftover adt-ls process trees and
//! removes leftover temp paths when Node exits without `dispose()` (docs/decisions.md#d5-16), on a
//! normal end of the event loop as well as on `process.exit()`. Called from the single
//! module-init hook in [`super::init`] (napi-rs keeps only one `module_exports` function).

use napi::bindgen_prelude::*;

pub fn register_exit_cleanup(env: &Env) -> Result<()> {
    env.add_env_cleanup_hook((), |_| crate::process::reaper::reap_all())?;
    super::host::on_exit(env, crate::process::reaper::reap_all)?;
    register_atexit();
    Ok(())
}

/// `process.exit()` skips environment cleanup hooks but still runs C `atexit` handlers.
fn register_atexit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        extern "C" fn at_exit() {
            crate::process::reaper::reap_all();
        }
        // SAFETY: registering a plain extern "C" function with no captured state.
        unsafe {
            libc::atexit(at_exit);
        }
    });
}
