//! Captures the host state the reference reads through Node APIs (`process.env`,
//! `os.tmpdir()`, `os.homedir()`, `process.cwd()`) from JS, so the engine sees exactly what
//! JS code sees (under Bun, `process.env` assignments never reach the C environment).

use super::call;
use crate::kernel::host::HostEnv;
use napi::bindgen_prelude::*;
use napi::JsValue;
use std::path::PathBuf;

/// The global `process` object.
pub(crate) fn process(env: &Env) -> Result<Object<'_>> {
    env.get_global()?.get_named_property::<Object>("process")
}

/// The current host state; falls back to the OS's view for anything JS cannot tell.
pub fn capture(env: &Env) -> HostEnv {
    let mut host = HostEnv::from_os();
    let Ok(process) = process(env) else {
        return host;
    };
    if let Ok(vars) = process.get_named_property::<Object>("env") {
        if let Ok(keys) = Object::keys(&vars) {
            let pairs: Vec<(String, String)> = keys
                .into_iter()
                .filter_map(|k| vars.get::<String>(&k).ok().flatten().map(|v| (k, v)))
                .collect();
            let home_var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
            if let Some((_, home)) = pairs.iter().find(|(k, v)| k == home_var && !v.is_empty()) {
                host.home = Some(PathBuf::from(home));
            }
            host.temp_dir = Some(HostEnv::node_tmpdir(&pairs));
            host.vars = Some(pairs);
        }
    }
    if let Ok(cwd_fn) = process.get_named_property::<Unknown>("cwd") {
        if let Ok(cwd) = call::call(env, process.raw(), cwd_fn.raw(), &[]) {
            // SAFETY: `env` is the env of the current call on the JS thread and `cwd` the result of
            // `process.cwd()` just called in its scope; a value that is not a string fails the
            // conversion (no cast).
            if let Ok(s) = unsafe { String::from_napi_value(env.raw(), cwd.raw()) } {
                host.cwd = Some(PathBuf::from(s));
            }
        }
    }
    host
}

/// Run `hook` when the JS process exits (`process.on('exit')`), which also covers
/// `process.exit()` in runtimes that skip native exit handlers.
pub fn on_exit(env: &Env, hook: fn()) -> Result<()> {
    let process = process(env)?;
    let on = process.get_named_property::<Unknown>("on")?;
    // SAFETY: `env` is the env of the current call on the JS thread; the string made is a handle of
    // its scope.
    let event = unsafe { String::to_napi_value(env.raw(), "exit".to_string())? };
    let listener = env.create_function_from_closure::<(), (), _>("adtLsNativeExit", move |_| {
        hook();
        Ok(())
    })?;
    call::call(env, process.raw(), on.raw(), &[event, listener.raw()])?;
    Ok(())
}
