//! The logging exports: `setLogger` (checks the logger's shape and hands it to the delivery
//! queue, [`crate::js::runtime::logger`]), `stderrLogger` and `silentLogger`.

use crate::js::runtime::checked;
use crate::js::runtime::errors::throw;
use crate::js::runtime::logger;
use crate::kernel::log::Level;
use napi::bindgen_prelude::*;

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
    let logger = match checked::object(&env, logger, "logger") {
        Ok(l) => l,
        Err(e) => return throw(&env, e),
    };
    for level in [Level::Debug, Level::Info, Level::Warn, Level::Error] {
        let path = format!("logger.{}", level.as_str());
        let method = checked::property(&logger, level.as_str());
        if let Err(e) = checked::opt_function(&env, method, &path) {
            return throw(&env, e);
        }
    }
    logger::install(&env, &logger)
}

/// A {@link Logger} that writes `<prefix> <level>: <msg>` lines to stderr (never stdout, so an
/// MCP server speaking over stdio stays clean).
///
/// @param prefix - default `[adt-ls]`
#[napi(ts_args_type = "prefix?: string", ts_return_type = "Logger")]
pub fn stderr_logger<'env>(env: &'env Env, prefix: Unknown) -> Result<Object<'env>> {
    let prefix = Some(prefix);
    let prefix = checked::opt_string(env, prefix, "prefix")
        .or_else(|e| throw(env, e))?
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
