//! The JS side of logging: `setLogger`, `silentLogger`, `stderrLogger`. Engine log lines are
//! queued and delivered, in order, to the user's logger on the JS thread by a weak
//! threadsafe function (so a logger never keeps a script alive); pending lines are also
//! flushed right before any of our promises settles, so a line logged during an operation is
//! seen before the caller's `await` returns. A logger that throws is ignored. Nothing is ever
//! written to stdout. The queue is bounded ([`LineQueue`]): while the logger is far behind,
//! new lines are dropped and counted, and one warning reports them when it catches up.

use super::call;
use crate::kernel::log::{self, Level};
use crate::kernel::log_queue::LineQueue;
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::JsValue;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

type Pump = ThreadsafeFunction<(), (), (), Status, false, true>;

static QUEUE: Mutex<LineQueue> = Mutex::new(LineQueue::new());
static SCHEDULED: AtomicBool = AtomicBool::new(false);
static PUMP: OnceLock<Pump> = OnceLock::new();

thread_local! {
    /// The user's logger object; only ever touched on the JS thread.
    static LOGGER: RefCell<Option<ObjectRef<false>>> = const { RefCell::new(None) };
}

struct JsSink;

impl log::Sink for JsSink {
    fn log(&self, level: Level, message: String) {
        if let Ok(mut q) = QUEUE.lock() {
            q.push(level, message);
        }
        if !SCHEDULED.swap(true, Ordering::AcqRel) {
            if let Some(pump) = PUMP.get() {
                pump.call((), ThreadsafeFunctionCallMode::NonBlocking);
            }
        }
    }
}

/// Deliver every queued line to the current logger (JS thread only).
pub fn flush(env: &Env) {
    SCHEDULED.store(false, Ordering::Release);
    loop {
        let batch = match QUEUE.lock() {
            Ok(mut q) => q.take(),
            Err(_) => return,
        };
        if batch.is_empty() {
            return;
        }
        LOGGER.with(|slot| {
            let slot = slot.borrow();
            let Some(logger) = slot.as_ref() else { return };
            let Ok(obj) = logger.get_value(env) else {
                return;
            };
            for (level, message) in batch {
                let Ok(method) = obj.get_named_property::<Unknown>(level.as_str()) else {
                    continue;
                };
                if !matches!(method.get_type(), Ok(ValueType::Function)) {
                    continue;
                }
                let Ok(text) = (unsafe { String::to_napi_value(env.raw(), message) }) else {
                    continue;
                };
                // A throwing logger must not disturb us: the error is cleared and dropped.
                let _ = call::call(env, obj.raw(), method.raw(), &[text]);
            }
        });
    }
}

fn ensure_pump(env: &Env) -> Result<()> {
    if PUMP.get().is_some() {
        return Ok(());
    }
    let noop = env.create_function_from_closure::<(), (), _>("adtLsLogPump", |_| Ok(()))?;
    let pump: Pump = noop
        .build_threadsafe_function::<()>()
        .weak::<true>()
        .callee_handled::<false>()
        .build_callback(|ctx| {
            flush(&ctx.env);
            Ok(())
        })?;
    let _ = PUMP.set(pump);
    Ok(())
}

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
    ensure_pump(&env)?;
    let reference = logger.create_ref::<false>()?;
    let previous = LOGGER.with(|slot| slot.borrow_mut().replace(reference));
    if let Some(previous) = previous {
        let _ = previous.unref(&env);
    }
    log::set_sink(Some(Arc::new(JsSink)));
    Ok(())
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
