//! `onProgress` of the long operations (docs/events.md#progress): which argument carries it,
//! the check that it is a function, and the engine progress scope around the call whose
//! reports reach the function through the JS thread's [`outbox`]. The function is released
//! when the call ends, before its promise settles, so it is never called afterwards.

use crate::js::runtime::checked;
use crate::js::runtime::outbox::{self, Message, Outbox};
use crate::kernel::error::Error as EngineError;
use crate::kernel::progress::{self, Sink};
use futures_util::future::{BoxFuture, Either};
use napi::bindgen_prelude::*;
use napi::JsValue;
use std::future::Future;
use std::sync::Arc;

/// For a method that takes `onProgress`: the index of the options object and its name.
pub fn options_at(method: &str) -> Option<(usize, &'static str)> {
    match method {
        "quality.runAtc" | "quality.runUnitTestsWithCoverage" => Some((1, "opts")),
        "lifecycle.activate" | "lifecycle.runUnitTests" => Some((0, "args")),
        _ => None,
    }
}

/// The call's progress hook, when `onProgress` was given.
pub struct Progress {
    sink: Arc<Sink>,
    done: Done,
}

/// Tells the outbox the call is over (when dropped with the call's future).
struct Done {
    outbox: Arc<Outbox>,
    target: u64,
}

impl Drop for Done {
    fn drop(&mut self) {
        self.outbox.post(self.target, Message::Close);
    }
}

/// Read `onProgress` from the options argument at `at` (a method of [`options_at`]).
pub fn from_args(
    env: &Env,
    ctx: &FunctionCallContext,
    at: Option<(usize, &'static str)>,
) -> std::result::Result<Option<Progress>, EngineError> {
    let Some((index, name)) = at else {
        return Ok(None);
    };
    if index >= ctx.length() {
        return Ok(None);
    }
    let Ok(options) = ctx.get::<Unknown>(index) else {
        return Ok(None);
    };
    if !matches!(options.get_type(), Ok(ValueType::Object)) {
        return Ok(None);
    }
    let Ok(options) = options.coerce_to_object() else {
        return Ok(None);
    };
    let path = format!("{name}.onProgress");
    let Some(func) = checked::opt_function(env, checked::property(&options, "onProgress"), &path)?
    else {
        return Ok(None);
    };
    let label = "an onProgress callback".to_string();
    let (target, outbox) = outbox::function_target(env, func.raw(), label)
        .map_err(|e| EngineError::new(format!("{path}: {}", e.reason)))?;
    let post = outbox.clone();
    let sink = Sink::new(move |report| post.post(target, Message::Call(report.to_json())));
    Ok(Some(Progress {
        sink,
        done: Done { outbox, target },
    }))
}

impl Progress {
    /// Stop delivering reports now (JS thread): for a call that rejects on an abort before its
    /// engine work is dropped, so that no report arrives after the rejection.
    pub fn closer(&self) -> impl FnOnce(&Env) + 'static {
        let target = self.done.target;
        move |env| outbox::close_now(env, target)
    }
}

/// Run the call (`start` is its synchronous part) in the progress scope when there is one.
pub fn run<F, Fut>(
    progress: Option<Progress>,
    start: F,
) -> Either<Fut, BoxFuture<'static, Fut::Output>>
where
    F: FnOnce() -> Fut,
    Fut: Future + Send + 'static,
{
    match progress {
        None => Either::Left(start()),
        Some(Progress { sink, done }) => {
            let scoped = progress::scoped(sink, start);
            Either::Right(Box::pin(async move {
                let out = scoped.await;
                drop(done);
                out
            }))
        }
    }
}
