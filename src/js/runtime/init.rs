//! The addon's one module-init hook (napi-rs keeps a single `module_exports` function), run
//! when the addon loads: the exit cleanup, `AdtLsError`'s prototype chain, `Symbol.asyncDispose` on the exported classes,
//! the caller-frames mode and its hooks, and the `DEBUG` variable read through the JS host
//! state for stderr logging. Only the exit cleanup can fail the load; the others are simply
//! absent if they cannot be set up (caller frames then fall back to the at-the-call capture).

use napi::bindgen_prelude::*;

#[napi(module_exports)]
pub fn init(exports: Object, env: Env) -> Result<()> {
    let _ = super::dispose::install_on_class(&env, &exports, "AdtLsDriver", "dispose");
    let _ = super::dispose::install_on_class(&env, &exports, "AdtLsMcpClient", "close");
    let _ = super::error_class::install(&env, &exports);
    let _ = super::caller_stack::install(&env, !super::js_engine::is_bun(&env));
    super::logger::debug_from_env(&env);
    super::process_exit::register_exit_cleanup(&env)
}
