//! The JS side of logging: `setLogger`, `silentLogger`, `stderrLogger`, and the `DEBUG`
//! switch read at module init. A logger given to `setLogger` is checked here and handed to
//! [`log_delivery`], which queues engine log lines and delivers them on the JS thread.
//! Nothing is ever written to stdout.

use super::log_delivery;
use crate::kernel::log::{self, Level};
use napi::bindgen_prelude::*;

/// Turn on stderr logging for the areas the host's `DEBUG` variable enables (read from
/// `process.env`, so Node and Bun agree); `setLogger` later takes precedence.
pub fn debug_from_env(env: &Env) {
    let value = super::host::capture(env).var("DEBUG");
    log::set_debug(
        value
            .as_deref()
            .and_then(crate::kernel::debug_env::DebugPatterns::parse),
    );
}

/// Send every log line of the library to `logger` from now on (process-wide). Lines arrive in
/// order on the JS thread; secrets are masked; a logger that throws is ignored. The default is
/// {@link silentLogger}. Setting a logger also turns off the stderr logging that the `DEBUG`
/// environment variable (`DEBUG=adt-ls-native`) enables.
///
/// @example
/// ```ts
/// setLogger(stderrLogger('[my-app]'));
/// setLogger({ debug() {}, info: console.error, warn: console.error, error: console.error });
/// ```
#[napi(ts_args_type = "logger: Logger")]
pub fn set_logger(env: Env, logger: Unknown) -> Result<()> {
    let logger = Some(logger);
    let logger = match super::checked::object(&env, logger, "logger") {
        Ok(l) => l,
        Err(e) => return super::errors::throw(&env, e),
    };
    for level in [Level::Debug, Level::Info, Level::Warn, Level::Error] {
        let path = format!("logger.{}", level.as_str());
        let method = super::checked::property(&logger, level.as_str());
        if let Err(e) = super::checked::opt_function(&env, method, &path) {
            return super::errors::throw(&env, e);
        }
    }
    log_delivery::deliver_to(&env, &logger)
}

/// A {@link Logger} that writes `<prefix> <level>: <msg>` lines to stderr (never stdout, so an
/// MCP server speaking over stdio stays clean).
///
/// @param prefix - default `[adt-ls]`
#[napi(ts_args_type = "prefix?: string", ts_return_type = "Logger")]
pub fn stderr_logger<'env>(env: &'env Env, prefix: Unknown) -> Result<Object<'env>> {
    let prefix = Some(prefix);
    let prefix = super::checked::opt_string(env, prefix, "prefix")
        .or_else(|e| super::errors::throw(env, e))?
        .unwrap_or_else(|| "[adt-ls]".to_string());
    let mut obj = Object::new(env)?;
    for level in [Level::Debug, Level::Info, Level::Warn, Level::Error] {
        let prefix = prefix.clone();
        let f = env.create_function_from_closure::<Unknown, (), _>(level.as_str(), move |ctx| {
            let text = match ctx.get::<Unknown>(0) {
                Ok(v) => v
                    .coerce_to_string()
                    .and_then(|s| s.into_utf8())
                    .map(|s| s.as_str().map(str::to_owned)),
                Err(e) => Err(e),
            };
            let text = text.ok().and_then(|r| r.ok()).unwrap_or_default();
            eprintln!("{prefix} {}: {text}", level.as_str());
            Ok(())
        })?;
        obj.set_named_property(level.as_str(), f)?;
    }
    Ok(obj)
}

/// The default sink: every level is a no-op.
mod silent {
    /// Does nothing (the default logger drops every line).
    #[napi(namespace = "silentLogger", ts_args_type = "msg: string")]
    pub fn debug(_msg: napi::bindgen_prelude::Unknown) {}
    /// Does nothing (the default logger drops every line).
    #[napi(namespace = "silentLogger", ts_args_type = "msg: string")]
    pub fn info(_msg: napi::bindgen_prelude::Unknown) {}
    /// Does nothing (the default logger drops every line).
    #[napi(namespace = "silentLogger", ts_args_type = "msg: string")]
    pub fn warn(_msg: napi::bindgen_prelude::Unknown) {}
    /// Does nothing (the default logger drops every line).
    #[napi(namespace = "silentLogger", ts_args_type = "msg: string")]
    pub fn error(_msg: napi::bindgen_prelude::Unknown) {}
}
